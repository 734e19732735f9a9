/**
 * The CLI's progress bar (src/cli/progress.ts) on a terminal: one line redrawn in place, ended
 * with a newline once, so that a message written after `finish` (sync now waiting out the hub's
 * Retry-After) starts a line of its own and the bar drawn again after it is ended too.
 */
import { describe, expect, it } from 'vitest';
import { progressBar } from '../../src/cli/progress.js';

function terminal(): { stream: NodeJS.WriteStream; written: () => string } {
  let text = '';
  const stream = {
    isTTY: true,
    write: (chunk: string) => {
      text += chunk;
      return true;
    },
  } as unknown as NodeJS.WriteStream;
  return { stream, written: () => text };
}

describe('the progress bar on a terminal', () => {
  it('ends its line once, and again only once it is drawn again', () => {
    const { stream, written } = terminal();
    const bar = progressBar(stream, 4);
    bar.update(1, 2, 'half');
    bar.finish();
    bar.finish();
    stream.write('waiting\n');
    bar.update(2, 2, 'all');
    bar.finish();
    expect(written()).toBe('\r[##..]  50% half\u001b[K\nwaiting\n\r[####] 100% all\u001b[K\n');
  });

  it('writes nothing when it was never drawn', () => {
    const { stream, written } = terminal();
    progressBar(stream).finish();
    expect(written()).toBe('');
  });
});
