/** What a store's writes queue for the hub: its outbox's commands and the row changes they carry. */
import type { Db } from '../../src/db/engine.js';
import type { SettledCommand } from '../../src/sync/store/command-settlement.js';
import { cutIntoBatches } from '../../src/sync/store/command-batch.js';
import { MAX_COMMANDS_PER_PUSH } from '../../src/sync/protocol/protocol.js';
import { SyncState } from '../../src/sync/sync-state.js';
import type { TestServer } from './server.js';

/** The first and last seq of a store's pending commands, read again at each call. */
export type PendingSpan = () => { first: number | null; last: number | null };

/** Reads the span of a store's pending commands on `db`, a connection kept open to poll it. */
export function pendingSpan(db: Db): PendingSpan {
  const span = db.prepare<[], { first: number | null; last: number | null }>(
    "SELECT min(seq) AS first, max(seq) AS last FROM outbox WHERE status = 'pending'",
  );
  return () => span.get()!;
}

/** How many commands are pending, counted by their seqs as `sync status` counts them. */
export function pendingCount({ first, last }: ReturnType<PendingSpan>): number {
  return first === null ? 0 : last! - first + 1;
}

/** The pending commands cut into pushes as the pusher would cut them now (src/sync/store/command-batch.ts). */
export function pendingPushes(db: Db): SettledCommand[][] {
  const pending = db
    .prepare<[], SettledCommand>(
      "SELECT seq, command_id, kind, payload, changes, hlc, operation, created_at FROM outbox WHERE status = 'pending' ORDER BY seq",
    )
    .all();
  return cutIntoBatches(pending, new SyncState(db).number('generation_base') ?? 0, MAX_COMMANDS_PER_PUSH);
}

/** A row change as a queued command carries it. */
export interface QueuedChange {
  entity: string;
  entity_id: string;
  op: string;
  row: Record<string, unknown> | null;
}

/** The row changes carried by the commands queued after outbox seq `afterSeq`, in the order they were made. */
export function queuedChanges(server: TestServer, afterSeq: number): QueuedChange[] {
  return server.app.node.db
    .prepare<[number], string>(
      'SELECT change.value FROM outbox, json_each(outbox.changes) AS change WHERE outbox.seq > ? ORDER BY outbox.seq, change.key',
    )
    .pluck()
    .all(afterSeq)
    .map((text) => {
      const { entity, entity_id, op, row } = JSON.parse(text) as QueuedChange;
      return { entity, entity_id, op, row };
    });
}

/**
 * The row changes carried by the commands queued after outbox seq `afterSeq`, counted by table:
 * what a write sends the hub, whose feed serves them to the stores.
 */
export function queuedChangesSince(server: TestServer, afterSeq: number): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { entity } of queuedChanges(server, afterSeq)) counts[entity] = (counts[entity] ?? 0) + 1;
  return counts;
}

export function outboxKindsSince(server: TestServer, afterSeq: number): string[] {
  return server.app.node.db
    .prepare<[number], { kind: string }>('SELECT kind FROM outbox WHERE seq > ? ORDER BY seq')
    .all(afterSeq)
    .map((row) => row.kind);
}

export function lastOutboxSeq(server: TestServer): number {
  return server.app.node.db.prepare<[], { seq: number | null }>('SELECT max(seq) AS seq FROM outbox').get()!.seq ?? 0;
}

/** The row changes the queued commands carry: what the node's writes send the hub. */
export function queuedChangeCount(server: TestServer): number {
  return queuedChanges(server, 0).length;
}
