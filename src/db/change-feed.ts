/** The change feed (DESIGN §5): a row change as a hub serves it, recorded in the transaction that makes it. */
import type { Statements } from './statements.js';

export function recordChange(statements: Statements, change: { entity: string; entity_id: string; op: string; row: object | null; hlc: string }): void {
  statements
    .get('INSERT INTO changes (entity, entity_id, op, row, hlc) VALUES (?, ?, ?, ?, ?)')
    .run(change.entity, change.entity_id, change.op, change.row ? JSON.stringify(change.row) : null, change.hlc);
}
