/**
 * The hub's feed compaction (DESIGN §5, "Scopes, compaction, retention"). Changes older than
 * `sync.feed_retention_days` are dropped when a newer change of the same row follows them,
 * when they are tombstones, or when no store is sent them (other nodes' facts, node-local
 * rows): what stays is the newest change of each row stores hold (customer states and
 * the recommendation model lose their older changes at once, src/db/change-feed.ts). A
 * store whose cursor is older than the compacted part (the floor) could miss a delete, so the
 * hub answers its pull 410 and it bootstraps again (src/sync/store/puller.ts). The recommendation
 * model follows the feed too, so nothing past its cursor goes.
 *
 * Which changes are old is known from marks: each run notes the feed's last seq with the
 * time, and the next runs compact up to the newest mark older than the retention.
 *
 * The same run forgets the results of stores' commands older than the retention
 * (applied_commands, src/sync/hub/hub-commands.ts), which a 500-store chain adds at 500,000 a
 * day. A result answers a store that pushes a command again because the hub's answer did not
 * reach it, which it does at its next round. One that comes back after the retention is told
 * its history diverged and pushes its pending commands again in a new generation: applied
 * again, their rows change nothing (last writer wins, ids derived from the command's), and
 * the hub's completions and effects skip what they did the first time (a cancellation's
 * reversal, a password-setup mail). Results of rejected commands stay, few as they are, as
 * the hub's record of what a store was refused.
 *
 * A run reads the whole feed to learn each row's newest change, and the hub of a chain holds
 * a week of tens of millions: in one go that held the hub's event loop for seconds a million
 * changes, every hour (4.0 s for a feed of 2M). It reads, deletes and counts a slice of seqs a
 * turn, and serves the stores between slices. A row changed again meanwhile keeps an older change until
 * the next run.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Statement } from '../../db/engine.js';
import type { Clock } from '../../core/clock.js';
import { spelt, type Dialect } from '../../db/dialect.js';
import { isSqlite, prepareOnSqlite } from '../../db/sqlite.js';
import type { Db } from '../../db/open.js';
import type { NodeLimits } from './node-limits.js';
import { reachesStores } from '../protocol/scopes.js';
import { jsonListRows } from '../../db/json-list.js';

/** Seqs of the feed a slice reads, deletes or counts: one statement of tens of milliseconds. */
const SEQS_PER_SLICE = 5_000;
/** Command results a slice deletes. */
const RESULTS_PER_SLICE = 1_000;
export const FLOOR_KEY = 'feed_floor';

export interface CompactionOutcome {
  deleted: number;
  /** Pulls after a seq below this are answered 410: bootstrap again. */
  floor: number;
  /** Changes the feed holds afterwards. */
  held: number;
  /** Results of the stores' applied commands forgotten. */
  results_deleted: number;
  /** Rows of the per-node limits' totals forgotten, days before their node's last contact (src/sync/hub/node-limits.ts). */
  limit_days_deleted: number;
}

/** A range of the feed's seqs: those after `after`, up to `last`. */
interface Seqs {
  after: number;
  last: number;
}

/** The feed's first and last seq, each by its own subquery: in one SELECT they walked the whole feed. */
export const FEED_SPAN_SQL = 'SELECT (SELECT min(seq) FROM changes) AS first, (SELECT max(seq) FROM changes) AS last';

/** Where compaction notes the newest change of each row the feed holds, on the connection that compacts. */
const FEED_NEWEST: Record<Dialect, string> = {
  sqlite:
    'CREATE TEMP TABLE IF NOT EXISTS feed_newest (entity TEXT NOT NULL, entity_id TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (entity, entity_id)) WITHOUT ROWID',
  postgres:
    'CREATE TEMP TABLE IF NOT EXISTS feed_newest (entity TEXT NOT NULL, entity_id TEXT NOT NULL, seq BIGINT NOT NULL, PRIMARY KEY (entity, entity_id))',
};

/** How the results of the stores' commands are walked to forget the old ones, a slice at a time. */
interface ResultsWalk {
  /** The position before every result. */
  start: number | string;
  /** The results after a position, in the walk's order, a slice of them. */
  slice: Statement<[number | string], { at: number | string; applied_at: string; status: string }>;
  /** Whether the walk meets the results in the order they were applied, and so ends at the first one applied at or after the cutoff. */
  inAppliedOrder: boolean;
  /** Deletes the results at the positions of a JSON array. */
  forget: Statement<[string]>;
}

/**
 * SQLite appends results in rowid order as commands are applied, so the walk goes by rowid and
 * ends at the first result applied at or after the cutoff, with no index on applied_at.
 * PostgreSQL has no rowid, and applied_commands no column in the order results were applied:
 * the walk goes by the primary key to the end, in slices of a search of its index each, and
 * picks the old results out of every slice.
 */
function resultsWalk(db: Db): ResultsWalk {
  if (isSqlite(db)) {
    return {
      start: 0,
      slice: prepareOnSqlite(
        db,
        `SELECT rowid AS at, applied_at, status FROM applied_commands WHERE rowid > ? ORDER BY rowid LIMIT ${RESULTS_PER_SLICE}`,
      ),
      inAppliedOrder: true,
      forget: prepareOnSqlite(db, 'DELETE FROM applied_commands WHERE rowid IN (SELECT value FROM json_each(?))'),
    };
  }
  return {
    start: '',
    slice: db.prepare(
      `SELECT command_id AS at, applied_at, status FROM applied_commands WHERE command_id > ? ORDER BY command_id LIMIT ${RESULTS_PER_SLICE}`,
    ),
    inAppliedOrder: false,
    forget: db.prepare(`DELETE FROM applied_commands WHERE command_id IN (${jsonListRows(db)})`),
  };
}

/** What FeedCompaction is built from. */
export interface FeedCompactionOptions {
  db: Db;
  replicated: string[];
  retentionMs: number;
  clock: Clock;
  /** What the per-node limits judge by: the totals of the days each node may no longer count on are forgotten at each run. */
  limits: NodeLimits;
}

export class FeedCompaction {
  private readonly mark: Statement;
  private readonly compactTo: Statement<[string], number | null>;
  private readonly forgetMarks: Statement<[string]>;
  private readonly floor: Statement<[], string | undefined>;
  private readonly setFloor: Statement<[string]>;
  private readonly modelCursor: Statement<[], string | undefined>;
  private readonly seqs: Statement<[], { first: number | null; last: number | null }>;
  private readonly newestIn: Statement<{ from: number; to: number }>;
  private readonly remove: Statement<{ from: number; to: number }>;
  private readonly heldIn: Statement<{ from: number; to: number }, number>;
  private readonly results: ResultsWalk;

  private readonly db: Db;
  private readonly retentionMs: number;
  private readonly clock: Clock;
  private readonly limits: NodeLimits;

  constructor(options: FeedCompactionOptions) {
    const { db, replicated, retentionMs, clock, limits } = options;
    this.db = db;
    this.retentionMs = retentionMs;
    this.clock = clock;
    this.limits = limits;
    // `WHERE true` tells SQLite's parser that ON CONFLICT opens the upsert, not a join's constraint.
    this.mark = db.prepare(
      'INSERT INTO sync_feed_marks (marked_at, seq) SELECT ?, coalesce(max(seq), 0) FROM changes WHERE true ON CONFLICT (marked_at) DO UPDATE SET seq = excluded.seq',
    );
    this.compactTo = db.prepare<[string], number | null>('SELECT max(seq) FROM sync_feed_marks WHERE marked_at <= ?').pluck();
    this.forgetMarks = db.prepare('DELETE FROM sync_feed_marks WHERE marked_at < ?');
    this.floor = db.prepare<[], string | undefined>(`SELECT value FROM meta WHERE key = '${FLOOR_KEY}'`).pluck();
    this.setFloor = db.prepare(`INSERT INTO meta (key, value) VALUES ('${FLOOR_KEY}', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
    this.modelCursor = db.prepare<[], string | undefined>("SELECT value FROM recommendation_state WHERE key = 'cursor'").pluck();
    const kept = replicated
      .filter(reachesStores)
      .map((table) => `'${table}'`)
      .join(', ');
    this.db.exec(spelt(db, FEED_NEWEST));
    this.seqs = db.prepare(FEED_SPAN_SQL);
    this.newestIn = db.prepare(
      `INSERT INTO feed_newest (entity, entity_id, seq) SELECT entity, entity_id, max(seq) FROM changes WHERE seq > @from AND seq <= @to GROUP BY entity, entity_id
       ON CONFLICT (entity, entity_id) DO UPDATE SET seq = CASE WHEN excluded.seq > feed_newest.seq THEN excluded.seq ELSE feed_newest.seq END`,
    );
    this.remove = db.prepare(
      `DELETE FROM changes WHERE seq > @from AND seq <= @to AND (
         op = 'delete'
         OR entity NOT IN (${kept})
         OR seq < (SELECT n.seq FROM feed_newest n WHERE n.entity = changes.entity AND n.entity_id = changes.entity_id))`,
    );
    this.heldIn = db.prepare<{ from: number; to: number }, number>('SELECT count(*) FROM changes WHERE seq > @from AND seq <= @to').pluck();
    this.results = resultsWalk(db);
  }

  /** Marks the feed, then compacts what is older than the retention, a slice of seqs a turn. */
  async run(): Promise<CompactionOutcome> {
    const now = this.clock();
    this.mark.run(new Date(now).toISOString());
    const horizon = new Date(now - this.retentionMs).toISOString();
    const from = Number(this.floor.get() ?? 0);
    const model = this.modelCursor.get();
    const to = Math.min(this.compactTo.get(horizon) ?? 0, model === undefined ? Infinity : Number(model));
    let deleted = 0;
    if (to > from) {
      this.db.exec('DELETE FROM feed_newest');
      await this.slices(this.span(), (slice) => this.newestIn.run(slice));
      await this.slices({ after: from, last: to }, (slice) => {
        deleted += this.db.transaction(() => {
          const removed = this.remove.run(slice).changes;
          this.setFloor.run(String(slice.to));
          return removed;
        })();
      });
      this.db.exec('DELETE FROM feed_newest');
      this.forgetMarks.run(horizon);
    }
    let held = 0;
    await this.slices(this.span(), (slice) => (held += this.heldIn.get(slice)!));
    const resultsDeleted = await this.forgetResults(horizon);
    return {
      deleted,
      floor: Math.max(from, to),
      held,
      results_deleted: resultsDeleted,
      limit_days_deleted: this.limits.forgetDaysGoneBy(),
    };
  }

  /** Deletes the results of commands applied before `before` (ISO) but rejected ones, a slice a turn. */
  private async forgetResults(before: string): Promise<number> {
    const walk = this.results;
    let forgotten = 0;
    let after = walk.start;
    for (;;) {
      const slice = walk.slice.all(after);
      const newer = walk.inAppliedOrder ? slice.findIndex((result) => result.applied_at >= before) : -1;
      const old = newer < 0 ? slice : slice.slice(0, newer);
      const applied = old.filter((result) => result.status === 'applied' && result.applied_at < before).map((result) => result.at);
      if (applied.length > 0) forgotten += walk.forget.run(JSON.stringify(applied)).changes;
      if (newer >= 0 || slice.length < RESULTS_PER_SLICE) return forgotten;
      after = slice[slice.length - 1]!.at;
      await nextTurn();
    }
  }

  /** The feed's seqs as it stands: after the one before its first, up to its last; undefined when empty. */
  private span(): Seqs | undefined {
    const { first, last } = this.seqs.get()!;
    return first === null || last === null ? undefined : { after: first - 1, last };
  }

  /** Runs `step` on each slice of the seqs after `after` up to `last`, a turn each. */
  private async slices(seqs: Seqs | undefined, step: (slice: { from: number; to: number }) => void): Promise<void> {
    if (!seqs) return;
    for (let start = seqs.after; start < seqs.last; start += SEQS_PER_SLICE) {
      step({ from: start, to: Math.min(seqs.last, start + SEQS_PER_SLICE) });
      await nextTurn();
    }
  }
}
