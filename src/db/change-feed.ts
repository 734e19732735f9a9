/** The change feed (DESIGN §5): a row change as a hub serves it, recorded in the transaction that makes it. */
import { NODE_LOCAL } from './node-local.js';
import type { Statements } from './statements.js';

/**
 * The tables the hub makes and publishes again and again: customer states at each push that
 * brings their facts and again as they settle, the recommendation model at each of its
 * steps. The newest change of such a row carries it whole, so it is all a store needs, and
 * the older ones go as it comes, found by the index on the feed for these
 * tables alone; its WHERE must be repeated word for word for SQLite to use it.
 */
export const NEWEST_ALONE: readonly string[] = [
  'customer_states',
  'recommendation_customers',
  'recommendation_neighbours',
  'recommendation_best_sellers',
  'recommendation_coverage',
];
const newestAlone = new Set(NEWEST_ALONE);
export const OLDER_CHANGES_SQL = `DELETE FROM changes WHERE entity IN (${NEWEST_ALONE.map((table) => `'${table}'`).join(', ')}) AND entity = ? AND entity_id = ?`;

/** Records a change in the feed; none of a node-local table (src/db/node-local.ts), which no store is sent. */
export function recordChange(
  statements: Statements,
  change: { entity: string; entity_id: string; op: string; row: object | null; hlc: string },
): void {
  if (NODE_LOCAL.has(change.entity)) return;
  if (newestAlone.has(change.entity)) statements.get(OLDER_CHANGES_SQL).run(change.entity, change.entity_id);
  statements
    .get('INSERT INTO changes (entity, entity_id, op, row, hlc) VALUES (?, ?, ?, ?, ?)')
    .run(change.entity, change.entity_id, change.op, change.row ? JSON.stringify(change.row) : null, change.hlc);
}
