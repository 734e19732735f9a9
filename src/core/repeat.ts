/**
 * Runs `task` every `everyMs`, skipping a tick while the last run is still going, on a timer
 * that does not keep the process alive. `task` handles its own failures. Returns the stop.
 */
export function repeatUnlessRunning(everyMs: number, task: () => Promise<void>): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void task().finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
