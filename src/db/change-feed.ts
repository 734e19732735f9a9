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

/** A change as the feed records it. */
export interface FeedChange {
  entity: string;
  entity_id: string;
  op: string;
  row: object | null;
  hlc: string;
}

/** Records a change in the feed; none of a node-local table (src/db/node-local.ts), which no store is sent. */
export function recordChange(statements: Statements, change: FeedChange): void {
  if (NODE_LOCAL.has(change.entity)) return;
  if (newestAlone.has(change.entity)) statements.get(OLDER_CHANGES_SQL).run(change.entity, change.entity_id);
  insertChanges(statements, [change]);
}

/** Changes recorded by one statement at most: five parameters each, well within either engine's bound. */
const CHANGES_A_STATEMENT = 64;

/**
 * The feed's changes of one write, recorded together before its transaction commits: one
 * statement for a write's changes, where a statement a change cost a PostgreSQL hub a round
 * trip each. Their seqs follow the order they were added, as when
 * each was recorded at once; nothing reads the feed inside the write that makes it. Of a table
 * whose newest change alone stays (NEWEST_ALONE), the write's last change of a row is recorded
 * and the older ones go, those of earlier writes from the feed and those of this write unrecorded.
 */
export class GatheredChanges {
  private pending: FeedChange[] = [];

  constructor(private readonly statements: Statements) {}

  /** Changes added so far and not yet recorded: where a write that fails takes its own back from. */
  get mark(): number {
    return this.pending.length;
  }

  add(change: FeedChange): void {
    if (!NODE_LOCAL.has(change.entity)) this.pending.push(change);
  }

  /** Forgets the changes added since `mark`: the write that added them rolled back. */
  dropFrom(mark: number): void {
    this.pending.length = Math.min(this.pending.length, mark);
  }

  /** Records every change added, in the order added. */
  record(): void {
    if (this.pending.length === 0) return;
    const changes = this.pending;
    this.pending = [];
    const newestOf = new Map<string, FeedChange>();
    for (const change of changes) if (newestAlone.has(change.entity)) newestOf.set(`${change.entity}\u0000${change.entity_id}`, change);
    for (const change of newestOf.values()) this.statements.get(OLDER_CHANGES_SQL).run(change.entity, change.entity_id);
    const kept =
      newestOf.size === 0
        ? changes
        : changes.filter((change) => !newestAlone.has(change.entity) || newestOf.get(`${change.entity}\u0000${change.entity_id}`) === change);
    for (let from = 0; from < kept.length; from += CHANGES_A_STATEMENT) insertChanges(this.statements, kept.slice(from, from + CHANGES_A_STATEMENT));
  }
}

function insertChanges(statements: Statements, changes: FeedChange[]): void {
  const values = changes.map(() => '(?, ?, ?, ?, ?)').join(', ');
  statements
    .get(`INSERT INTO changes (entity, entity_id, op, row, hlc) VALUES ${values}`)
    .run(...changes.flatMap((change) => [change.entity, change.entity_id, change.op, change.row ? JSON.stringify(change.row) : null, change.hlc]));
}
