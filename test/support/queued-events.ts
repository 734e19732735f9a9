/**
 * events.create commands queued at a store node as the API queues them: each write in a recorded
 * call (src/core/operations.ts), the call, its principal and the ids it made carried in its
 * command, which the hub runs again; and the events a hub holds of them, read from its database.
 * Used by the push tests and `npm run bench sync`.
 */
import { DEMO_IDS, demoCredentials } from '../../src/demo/demo.js';
import type { Node } from '../../src/root/node.js';
import { openHubDatabase } from './hub-engine.js';

/** Queues `count` events of the demo POS user on the demo customer, external ids `${prefix}-0`…, 10,000 a transaction. */
export function queueEvents(node: Node, count: number, prefix: string): void {
  const asOf = node.operations.clock();
  const posUser = node.db.prepare<[string], string>('SELECT id FROM users WHERE login = ?').pluck().get(demoCredentials.pos_login)!;
  const principal = { kind: 'user', userId: posUser, scheme: 'bearer' };
  const queue = node.db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i += 1) {
      const body = { event: { event_type_id: 'bench', customer_id: DEMO_IDS.customerJana, external_id: `${prefix}-${i}`, data: '{}' } };
      node.operations.record({ iface: 'enterprise', input: { params: {}, query: {}, body }, principal }, () => {
        const id = node.newId();
        const row = { id, ...body.event, secondary_external_id: null, created_at: new Date(asOf()).toISOString(), state: 1 };
        node.writes.write({ kind: 'events.create', payload: { event: row, property_records: [] } }, (tx) => tx.insert('events', row));
      });
    }
  });
  for (let from = 0; from < count; from += 10_000) queue(from, Math.min(count, from + 10_000));
}

/** The events with external ids of `prefix` in the hub's database on `hubDir`: how many, and how many distinct. */
export function eventsAtHub(hubDir: string, prefix: string): { applied: number; distinct: number } {
  const db = openHubDatabase(hubDir, { readonly: true });
  try {
    return db
      .prepare<[string], { applied: number; distinct: number }>(
        'SELECT count(*) AS applied, count(DISTINCT external_id) AS "distinct" FROM events WHERE external_id LIKE ?',
      )
      .get(`${prefix}-%`)!;
  } finally {
    db.close();
  }
}
