/**
 * A store's retention (DESIGN §5, "Scopes, compaction, retention"): it keeps its own facts
 * (the origin scope, src/sync/protocol/scopes.ts) until the hub has them and they are older than
 * `retention.local_days` — long enough for a return at the till. A fact is the hub's once
 * the command that made it was acknowledged (its stamp at or before the newest acknowledged
 * one, src/sync/store/pusher.ts); a point or credit record must also be covered by the customer's
 * published state, or the balance would lose it. A fact with its dependent rows (a purchase's
 * items) goes when all of them qualify. Rows go in batches, each its own transaction, never
 * through the write path: nothing of this is a change the hub must hear of; between batches
 * the event loop serves the tills. Freed pages go to SQLite's freelist and are reused, so the
 * file stops growing.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Statement } from '../../db/engine.js';
import type { Clock } from '../../core/clock.js';
import { hlcOriginSql } from '../../core/hlc.js';
import type { Db } from '../../db/open.js';
import { commitUnsynced } from '../../db/unsynced-commit.js';
import { heldByHubThrough } from './replay.js';
import type { SyncState } from '../sync-state.js';

/**
 * Facts a batch deletes, with their dependent rows: one transaction on the event loop the
 * tills wait on. A batch of 500 purchases held it ~46 ms on the fleet soak (test/bench/README.md).
 */
const BATCH = 100;
/**
 * Rows of a table one select reads, in rowid order. A store keeps `retention.local_days` of
 * its facts, and a fact too young to go is known only by reading it: one select over a table
 * would read all of them, on the event loop, every run. Windows of this many rows take
 * about a millisecond each, the tills served between them.
 */
const WINDOW = 2000;

interface Retained {
  table: string;
  /** Rows that belong to one of this table's and go with it. */
  children?: { table: string; column: string }[];
  /** Records a customer's balance counts: kept until the customer's state holds them, by the JSON path of a fact's id in its tail. */
  ledger?: { tail: string; id: string };
}

const RETAINED: Retained[] = [
  {
    table: 'purchases',
    children: [
      { table: 'purchase_items', column: 'purchase_id' },
      { table: 'purchase_assignments', column: 'purchase_id' },
    ],
  },
  { table: 'point_records', ledger: { tail: 'tail', id: '$[4]' } },
  { table: 'credit_records', ledger: { tail: 'credit_tail', id: '$[2]' } },
  { table: 'events', children: [{ table: 'event_property_records', column: 'event_id' }] },
  { table: 'orders' },
  {
    table: 'product_reservations',
    children: [
      { table: 'reservation_codes', column: 'product_reservation_id' },
      { table: 'reservation_state_changes', column: 'product_reservation_id' },
    ],
  },
  { table: 'auth_tokens' },
];

export interface RetentionOutcome {
  deleted: number;
  /** Rows of the retained tables still held. */
  held: number;
}

/** `row` is old enough and, when this node made it, acknowledged. Parameters: cutoff, own node id, acked stamp. */
const settled = (row: string) => `(${row}.last_change < @cutoff AND (${hlcOriginSql(`${row}.hlc`)} != @node OR ${row}.hlc <= @acked))`;

/** What Retention is built from. */
export interface RetentionOptions {
  db: Db;
  state: SyncState;
  nodeId: string;
  keepMs: number;
  clock: Clock;
  windowRows?: number;
}

export class Retention {
  private readonly steps: { table: string; windowEnd: Statement<[number], number | null>; select: Statement; deletes: Statement[] }[];
  private readonly staleFeed: Statement;
  private readonly staleOutbox: Statement;
  private readonly acknowledged: Statement<[string]>;
  private readonly counts: Statement<[], number>;
  /** Where a run stopped by its budget left off: the next one goes on from there. */
  private resume = { step: 0, from: 0 };

  private readonly db: Db;
  private readonly state: SyncState;
  private readonly nodeId: string;
  private readonly keepMs: number;
  private readonly clock: Clock;

  constructor(options: RetentionOptions) {
    const { db, state, nodeId, keepMs, clock, windowRows = WINDOW } = options;
    this.db = db;
    this.state = state;
    this.nodeId = nodeId;
    this.keepMs = keepMs;
    this.clock = clock;
    this.steps = RETAINED.map((retained) => {
      const children = retained.children ?? [];
      const unsettledChild = children.map(
        (child) => `NOT EXISTS (SELECT 1 FROM ${child.table} c WHERE c.${child.column} = t.id AND NOT ${settled('c')})`,
      );
      const covered = retained.ledger
        ? [
            `EXISTS (SELECT 1 FROM customer_states s WHERE s.id = t.customer_id AND (t.hlc <= s.horizon
               OR EXISTS (SELECT 1 FROM json_each(s.${retained.ledger.tail}) WHERE json_extract(value, '${retained.ledger.id}') = t.id)))`,
          ]
        : [];
      const where = [settled('t'), ...unsettledChild, ...covered].join(' AND ');
      return {
        table: retained.table,
        windowEnd: db
          .prepare<[number], number | null>(
            `SELECT max(rowid) FROM (SELECT rowid FROM ${retained.table} WHERE rowid > ? ORDER BY rowid LIMIT ${windowRows})`,
          )
          .pluck(),
        select: db
          .prepare(`SELECT t.id FROM ${retained.table} t WHERE t.rowid > @from AND t.rowid <= @to AND ${where} ORDER BY t.rowid LIMIT ${BATCH}`)
          .pluck(),
        deletes: [
          ...children.map((child) => db.prepare(`DELETE FROM ${child.table} WHERE ${child.column} IN (SELECT value FROM json_each(?))`)),
          db.prepare(`DELETE FROM ${retained.table} WHERE id IN (SELECT value FROM json_each(?))`),
        ],
      };
    });
    // A store with a hub keeps no feed (src/db/write-path.ts); an older release's rows go.
    this.staleFeed = db.prepare(`DELETE FROM changes WHERE seq IN (SELECT seq FROM changes ORDER BY seq LIMIT ${BATCH})`);
    // An older release kept acknowledged commands in the outbox; they go.
    this.staleOutbox = db.prepare(`DELETE FROM outbox WHERE seq IN (SELECT seq FROM outbox WHERE status != 'pending' ORDER BY seq LIMIT ${BATCH})`);
    // The commands the hub applied are kept as long as the facts, to be sent again to a hub
    // restored from a backup (src/sync/store/replay.ts): acknowledged in seq order, the oldest first.
    this.acknowledged = db.prepare(
      `DELETE FROM acknowledged_commands WHERE seq IN (SELECT seq FROM acknowledged_commands WHERE acked_at < ? ORDER BY seq LIMIT ${BATCH})`,
    );
    this.counts = db.prepare<[], number>(`SELECT ${RETAINED.map((retained) => `(SELECT count(*) FROM ${retained.table})`).join(' + ')}`).pluck();
  }

  /** run(), when the last run was `everyMs` or more ago; undefined when it was not due. */
  async runIfDue(everyMs: number, budgetMs: number): Promise<RetentionOutcome | undefined> {
    const last = this.state.get('last_retention_at');
    if (last !== undefined && this.clock() - Date.parse(last) < everyMs) return undefined;
    return this.run(budgetMs);
  }

  /**
   * Deletes what the store no longer keeps: one pass over the retained tables, a window of
   * rows at a time in batches, until the pass is done or `budgetMs` has passed; a run stopped
   * by its budget leaves off where the next goes on. Then the stale feed and outbox rows.
   */
  async run(budgetMs: number): Promise<RetentionOutcome> {
    const deadline = performance.now() + budgetMs;
    const parameters = {
      cutoff: new Date(this.clock() - this.keepMs).toISOString(),
      node: this.nodeId,
      acked: heldByHubThrough(this.state),
    };
    let deleted = 0;
    /** Batches until one deletes fewer than BATCH (true) or the budget is spent (false). */
    const batches = async (step: () => number) => {
      for (;;) {
        const removed = commitUnsynced(this.db, step);
        deleted += removed;
        if (removed < BATCH) return true;
        if (performance.now() > deadline) return false;
        await nextTurn();
      }
    };
    // One pass over the tables, from where the last run left off; a window at least.
    let { step: index, from } = this.resume;
    let passed = 0;
    do {
      const retained = this.steps[index]!;
      const to = retained.windowEnd.get(from) ?? null;
      if (to === null) {
        index = (index + 1) % this.steps.length;
        from = 0;
        passed += 1;
        continue;
      }
      const bounds = { ...parameters, from, to };
      if (await batches(() => this.deleteSettled(retained, bounds))) from = to;
      await nextTurn();
    } while (passed < this.steps.length && performance.now() <= deadline);
    this.resume = { step: index, from };
    for (const stale of [this.staleFeed, this.staleOutbox]) if (performance.now() <= deadline) await batches(() => stale.run().changes);
    if (performance.now() <= deadline) await batches(() => this.acknowledged.run(parameters.cutoff).changes);
    const now = new Date(this.clock()).toISOString();
    commitUnsynced(this.db, () => {
      this.state.set('last_retention_at', now);
      this.state.set('retention_deleted', (this.state.number('retention_deleted') ?? 0) + deleted);
    });
    return { deleted, held: this.counts.get()! };
  }

  private deleteSettled(step: Retention['steps'][number], parameters: Record<string, string | number>): number {
    const ids = step.select.all(parameters) as string[];
    if (ids.length === 0) return 0;
    const list = JSON.stringify(ids);
    for (const statement of step.deletes) statement.run(list);
    return ids.length;
  }
}
