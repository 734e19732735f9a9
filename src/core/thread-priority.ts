/**
 * A thread that yields the cores to the event loop when they are short. On Linux a nice value
 * is a thread's own, so the thread that calls this runs at a lower priority and the rest of the
 * process does not; elsewhere it would lower the whole process, and nothing is done.
 */
import { getPriority, setPriority } from 'node:os';

/** The highest nice value, the lowest priority. */
const NICEST = 19;

/** Runs the calling thread `by` nice levels below where it runs now, on Linux. */
export function yieldToEventLoop(by: number): void {
  if (process.platform === 'linux') setPriority(Math.min(NICEST, getPriority() + by));
}
