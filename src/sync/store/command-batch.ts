/**
 * The commands one request to the hub carries, as a push (src/sync/store/pusher.ts) and a replay
 * (src/sync/store/replay.ts) cut them: in seq order up to a count and MAX_PUSH_BYTES of text, one
 * command alone whatever its size, so that no request passes what the hub reads of one
 * (`sync_limits.push_max_bytes`, at least 1 MiB). They are read from SQLite a turn of the
 * writer thread at a time (TURN_MS each), so that the cash desks' calls waiting for it run
 * between turns: reading 500 commands in one statement held it 20–80 ms (test/bench/README.md).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { MAX_PUSH_BYTES } from '../protocol/protocol.js';
import type { SettledCommand } from './command-settlement.js';

/** How long one turn of reading a batch or settling its answers may hold the writer thread. */
export const TURN_MS = 1;

/**
 * One request's commands as they are read, numbered within their generation (`base` is its
 * first seq less one; 0 keeps the seqs as stored), all of one protocol.
 */
export class CommandBatch {
  readonly commands: SettledCommand[] = [];
  private bytes = 0;

  constructor(
    private readonly base: number,
    private readonly maxCommands: number,
  ) {}

  /** Adds the next command; false, adding nothing, when it would pass a cap or change the protocol. */
  add(record: SettledCommand): boolean {
    const bytes = this.bytes + record.payload.length + record.changes.length + (record.operation?.length ?? 0) + 200;
    const first = this.commands[0];
    if (first && (this.commands.length >= this.maxCommands || bytes > MAX_PUSH_BYTES || (record.operation === null) !== (first.operation === null)))
      return false;
    this.bytes = bytes;
    this.commands.push({ ...record, seq: record.seq - this.base });
    return true;
  }
}

/** `commands`, read already and in seq order, cut into batches as `CommandBatch` cuts them. */
export function cutIntoBatches(commands: readonly SettledCommand[], base: number, maxCommands: number): SettledCommand[][] {
  const batches: SettledCommand[][] = [];
  for (let taken = 0; taken < commands.length;) {
    const batch = new CommandBatch(base, maxCommands);
    while (taken < commands.length && batch.add(commands[taken]!)) taken += 1;
    batches.push(batch.commands);
  }
  return batches;
}

/**
 * Fills `batch` from `after(seq)`, the commands after a seq in seq order, starting after
 * `from`, a turn at a time; the batch's commands.
 */
export async function fillInTurns(
  batch: CommandBatch,
  after: (seq: number) => IterableIterator<SettledCommand>,
  from = 0,
): Promise<SettledCommand[]> {
  let last = from;
  for (;;) {
    const deadline = performance.now() + TURN_MS;
    let turnOver = false;
    for (const record of after(last)) {
      if (!batch.add(record)) return batch.commands;
      last = record.seq;
      turnOver = performance.now() >= deadline;
      if (turnOver) break;
    }
    if (!turnOver) return batch.commands;
    await nextTurn();
  }
}
