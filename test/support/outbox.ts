/** What a store's writes queue for the hub: its outbox's commands and the row changes they carry. */
import type { TestServer } from './server.js';

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
