/**
 * Changes from the hub that this store's schema could not take whole (src/sync/store/local-schema.ts),
 * kept in `sync_deferred` until an upgrade gives the store their tables and columns. Then each
 * is applied again, whole, in the order kept. Its known columns were applied when it came,
 * under its own stamp, so the replay lets a change win over a row of the same stamp.
 *
 * A change of a table the store lacks is kept as it came, every one in feed order: it is the
 * only copy the store has, and a row's first change must come before the changes of rows that
 * refer to it. A change of a table the store holds (a column it lacks) replaces the one kept
 * for its row, and is kept after every change kept before it: the row is here with its known
 * columns, only its newest values are still to come, and whatever they refer to came first. So
 * a store that stays behind keeps one change a row, not one a sale.
 *
 * The kept changes are read again only when the schema changed since they were last read: what
 * did not fit the schema then does not fit it now.
 */
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/open.js';
import type { RowChange } from '../protocol/protocol.js';
import type { LocalSchema } from './local-schema.js';
import { syncColumns } from '../column-codecs.js';
import type { SyncDeferredRow } from '../../db/tables.generated.js';
import type { SyncState } from '../sync-state.js';

/** Kept changes read at a time by a replay. */
const PAGE = 1_000;

export class DeferredChanges {
  private readonly insert;
  private readonly newerKept;
  private readonly replaced;
  private readonly keptAfter;
  private readonly remove;

  constructor(
    db: Db,
    private readonly state: SyncState,
    private readonly clock: Clock,
  ) {
    this.insert = db.prepare('INSERT INTO sync_deferred (entity, entity_id, hlc, change, deferred_at) VALUES (?, ?, ?, ?, ?)');
    this.newerKept = db
      .prepare<[string, string, string], number>('SELECT 1 FROM sync_deferred WHERE entity = ? AND entity_id = ? AND hlc >= ? LIMIT 1')
      .pluck();
    this.replaced = db.prepare('DELETE FROM sync_deferred WHERE entity = ? AND entity_id = ? AND hlc < ?');
    this.keptAfter = db.prepare<[number, number], Pick<SyncDeferredRow, 'position' | 'change'>>(
      'SELECT position, change FROM sync_deferred WHERE position > ? ORDER BY position LIMIT ?',
    );
    this.remove = db.prepare('DELETE FROM sync_deferred WHERE position = ?');
  }

  /** Keeps a change; `tableHeld` says whether this store has its table. Must run inside a transaction. */
  keep(change: RowChange, tableHeld: boolean): void {
    const { entity, entity_id, op, row, hlc } = change;
    if (tableHeld) {
      // A change the snapshot and the feed both send comes twice; an older one may follow a newer.
      if (this.newerKept.get(entity, entity_id, hlc) !== undefined) return;
      this.replaced.run(entity, entity_id, hlc);
    }
    this.insert.run(entity, entity_id, hlc, JSON.stringify({ entity, entity_id, op, row, hlc }), new Date(this.clock()).toISOString());
  }

  /**
   * Applies, in the order they were kept, the kept changes `schema` now takes whole; returns
   * how many. Reads none when the schema is the one they were last read under. Must run inside a transaction.
   */
  replay(schema: LocalSchema, apply: (change: RowChange) => void): number {
    if (this.state.number('deferred_schema') === schema.version) return 0;
    let replayed = 0;
    for (let after = 0; ;) {
      const page = this.keptAfter.all(after, PAGE);
      for (const { position, change } of page) {
        const parsed = syncColumns['sync_deferred.change'](change);
        if (!schema.fit(parsed).complete) continue;
        apply(parsed);
        this.remove.run(position);
        replayed += 1;
      }
      if (page.length < PAGE) break;
      after = page[page.length - 1]!.position;
    }
    this.state.set('deferred_schema', schema.version);
    return replayed;
  }
}
