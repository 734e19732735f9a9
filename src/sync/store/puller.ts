/**
 * Pull: pages of the hub's change feed after the store's cursor, each applied in one
 * transaction together with the new cursor, so a crash between pages repeats at most a
 * page, which last-writer-wins makes harmless. A change that collides with a different
 * local record on a unique value is listed as a conflict rather than wedging the feed. A
 * change of a table or column this store's schema lacks yet (the hub may be a version
 * ahead) is applied as far as the schema goes and kept whole for after the upgrade, and a
 * round first replays what an upgrade made applicable (src/sync/store/deferred-changes.ts). A feed
 * that is not the one the cursor was read from sends the store to bootstrap again.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/open.js';
import { commitUnsynced } from '../../db/unsynced-commit.js';
import type { ReplicatedApply } from '../replicated-apply.js';
import type { DeferredChanges } from './deferred-changes.js';
import type { FoldConflicts } from '../fold-conflicts.js';
import type { IdGenerator } from '../../core/ids.js';
import { HubError, type HubClient } from './hub-client.js';
import { LocalSchema } from './local-schema.js';
import type { ChangesPage, FeedChange, RowChange } from '../protocol/protocol.js';
import type { SyncState } from '../sync-state.js';
import { conflictListing, type ConflictListing } from '../conflict-listing.js';

/** How long a slice of a page may hold the event loop (and SQLite) before the cash desks' calls get a turn. */
const SLICE_MS = 1;

export interface PullOutcome {
  applied: number;
  pages: number;
}

/** What Puller is built from. */
export interface PullerOptions {
  db: Db;
  replicated: ReplicatedApply;
  client: HubClient;
  state: SyncState;
  newId: IdGenerator;
  conflicts: FoldConflicts;
  deferred: DeferredChanges;
  clock: Clock;
  /** Changes a page asks for: reading and checking a page of 1,000 (zod) held the event loop 2–4 ms. */
  pageSize?: number;
}

export class Puller {
  private readonly recordConflict: ConflictListing;
  /** One change in a savepoint of its own, so that a constraint it breaks undoes only it; made once, as a page applies hundreds. */
  private readonly applyInSavepoint: (change: RowChange, sameStamp: 'keeps' | 'yields') => boolean;

  private readonly db: Db;
  private readonly replicated: ReplicatedApply;
  private readonly client: HubClient;
  private readonly state: SyncState;
  private readonly newId: IdGenerator;
  private readonly conflicts: FoldConflicts;
  private readonly deferred: DeferredChanges;
  private readonly clock: Clock;
  private readonly pageSize: number;

  constructor(options: PullerOptions) {
    const { db, replicated, client, state, newId, conflicts, deferred, clock, pageSize = 250 } = options;
    this.db = db;
    this.replicated = replicated;
    this.client = client;
    this.state = state;
    this.newId = newId;
    this.conflicts = conflicts;
    this.deferred = deferred;
    this.clock = clock;
    this.pageSize = pageSize;
    this.recordConflict = conflictListing(db);
    this.applyInSavepoint = db.transaction((change: RowChange, sameStamp: 'keeps' | 'yields') => this.replicated.apply(change, false, sameStamp));
  }

  async pullAll(): Promise<PullOutcome> {
    const schema = LocalSchema.read(this.db);
    const outcome: PullOutcome = { applied: 0, pages: 0 };
    commitUnsynced(this.db, () => this.deferred.replay(schema, (change) => this.applyOne(change, 'yields')));
    for (;;) {
      const cursor = this.state.number('cursor') ?? 0;
      const page = await this.changesAfter(cursor);
      this.checkFeed(page.feed_id);
      outcome.applied += await this.applyPage(page, schema);
      outcome.pages += 1;
      if (!page.has_more) return outcome;
    }
  }

  /**
   * Applies a page a slice at a time: each slice is one transaction, committed with the
   * cursor at its last change (the page's own cursor after the last slice), and ends once it
   * has run SLICE_MS (then its conflicts are checked and it commits: 2–4 ms in all), so that
   * the cash desks' calls waiting behind it run between slices. A page of a thousand
   * published states took 60–120 ms in one piece (test/bench/README.md).
   */
  private async applyPage(page: ChangesPage, schema: LocalSchema): Promise<number> {
    let applied = 0;
    let next = 0;
    for (;;) {
      const deadline = performance.now() + SLICE_MS;
      next = commitUnsynced(this.db, () => {
        const slice: FeedChange[] = [];
        // The newest stamp seen, so that `sync status` can report a clock running ahead.
        let newest = this.state.get('newest_stamp') ?? '';
        let index = next;
        for (; index < page.changes.length && (index === next || performance.now() < deadline); index += 1) {
          const change = page.changes[index]!;
          if (change.hlc > newest) newest = change.hlc;
          if (this.apply(change, schema)) slice.push(change);
        }
        applied += slice.length;
        this.conflicts.check(slice);
        const done = index === page.changes.length;
        this.state.set('cursor', done ? page.cursor : page.changes[index - 1]!.seq);
        if (newest) this.state.set('newest_stamp', newest);
        if (done) {
          this.state.set('hub_last_seq', page.last_seq);
          this.state.set('hub_time', page.hub_time);
          this.state.set('last_pull_at', new Date(this.clock()).toISOString());
        }
        return index;
      });
      if (next === page.changes.length) return applied;
      await nextTurn();
    }
  }

  /** A page of the feed; when the hub compacted past the cursor, the cursor goes, so the next round bootstraps again. */
  private async changesAfter(cursor: number) {
    try {
      return await this.client.changes(cursor, this.pageSize, this.state.get('pushed_through'), this.state.get('feed_id'));
    } catch (error) {
      if (error instanceof HubError && error.exception === 'sync_cursor_expired_exception') this.state.clear('cursor');
      throw error;
    }
  }

  /**
   * A feed of another identity than the one the cursor was read from is the history of a hub
   * restored from a backup (src/sync/hub/feed-identity.ts): the cursor may name other changes
   * there, so it goes, and the next round bootstraps again. A cursor read before hubs told
   * their feed's identity takes the first one it is told.
   */
  private checkFeed(feedId: string | undefined): void {
    if (feedId === undefined) return;
    const known = this.state.get('feed_id');
    if (known === undefined) commitUnsynced(this.db, () => this.state.set('feed_id', feedId));
    else if (known !== feedId) {
      commitUnsynced(this.db, () => {
        this.state.clear('cursor');
        this.state.clear('feed_id');
      });
      throw new Error('the hub was restored from a backup (its change feed has a new identity): bootstrapping again');
    }
  }

  private apply(change: FeedChange, schema: LocalSchema): boolean {
    const { applicable, complete } = schema.fit(change);
    if (!complete) this.deferred.keep(change, applicable !== undefined);
    return applicable !== undefined && this.applyOne(applicable, 'keeps');
  }

  private applyOne(change: RowChange & { seq?: number }, sameStamp: 'keeps' | 'yields'): boolean {
    try {
      return this.applyInSavepoint(change, sameStamp);
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      if (!code.startsWith('SQLITE_CONSTRAINT')) throw error;
      const replaced = code === 'SQLITE_CONSTRAINT_UNIQUE' ? this.replaceLocal(change, (error as Error).message, sameStamp) : undefined;
      this.recordConflict.run(
        this.newId(),
        replaced ? 'replaced_local_row' : 'unapplied_change',
        change.entity,
        change.entity_id,
        JSON.stringify({ seq: change.seq, reason: code, ...(replaced ? { local_ids: replaced } : {}) }),
        new Date(this.clock()).toISOString(),
      );
      return replaced !== undefined;
    }
  }

  /**
   * The hub is the system of record: a local row holding a unique value (a card number)
   * that the hub gave to another record — written here while the hub's was on its way — is
   * removed so the hub's row can take its place. The local command that made it will be
   * rejected by the hub and is listed then. Returns the ids removed, or undefined when the
   * local row cannot go (something refers to it).
   */
  private replaceLocal(change: RowChange, message: string, sameStamp: 'keeps' | 'yields'): string[] | undefined {
    const columns = /UNIQUE constraint failed: (.+)$/
      .exec(message)?.[1]
      ?.split(', ')
      .map((column) => column.split('.')[1]!);
    const row = change.row;
    if (!columns || !row || columns.some((column) => !(column in row))) return undefined;
    const where = columns.map((column) => `${column} = ?`).join(' AND ');
    const values = columns.map((column) => row[column] ?? null);
    try {
      return this.db.transaction(() => {
        const ids = (
          this.db.prepare(`SELECT id FROM ${change.entity} WHERE ${where} AND id != ?`).all(...values, change.entity_id) as { id: string }[]
        ).map((local) => local.id);
        this.db.prepare(`DELETE FROM ${change.entity} WHERE ${where} AND id != ?`).run(...values, change.entity_id);
        this.replicated.apply(change, false, sameStamp);
        return ids;
      })();
    } catch {
      return undefined;
    }
  }
}
