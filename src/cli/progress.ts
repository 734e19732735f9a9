/** A one-line progress bar on a terminal (stderr), ended by `finish` before other output; silent when stderr is not a terminal. */
export interface ProgressBar {
  update(done: number, total: number, detail: string): void;
  finish(): void;
}

export function progressBar(stream: NodeJS.WriteStream = process.stderr, width = 30): ProgressBar {
  if (!stream.isTTY) return { update: () => undefined, finish: () => undefined };
  let drawn = false;
  return {
    update(done, total, detail) {
      const fraction = total > 0 ? Math.min(1, done / total) : 0;
      const filled = Math.round(fraction * width);
      stream.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}% ${detail}\u001b[K`);
      drawn = true;
    },
    finish() {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}
