/**
 * Changes from the hub that this store's schema could not take whole (src/sync/store/local-schema.ts),
 * kept in feed order in `sync_deferred` until an upgrade gives the store
 * their tables and columns. Then each is applied again, whole. Its known columns were
 * applied when it came, under its own stamp, so the replay lets a change win over a row of
 * the same stamp; a row changed since carries a newer stamp and keeps its values, which the
 * newer change, kept here too when it did not fit, then brings whole.
 */
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/open.js';
import type { RowChange } from '../protocol/protocol.js';
import type { LocalSchema } from './local-schema.js';
import { syncColumns } from '../column-codecs.js';
import type { SyncDeferredRow } from '../../db/tables.generated.js';

export class DeferredChanges {
  private readonly insert;
  private readonly kept;
  private readonly remove;

  constructor(
    db: Db,
    private readonly clock: Clock,
  ) {
    this.insert = db.prepare('INSERT INTO sync_deferred (entity, change, deferred_at) VALUES (?, ?, ?)');
    this.kept = db.prepare<[], Pick<SyncDeferredRow, 'position' | 'change'>>('SELECT position, change FROM sync_deferred ORDER BY position');
    this.remove = db.prepare('DELETE FROM sync_deferred WHERE position = ?');
  }

  keep(change: RowChange): void {
    const { entity, entity_id, op, row, hlc } = change;
    this.insert.run(entity, JSON.stringify({ entity, entity_id, op, row, hlc }), new Date(this.clock()).toISOString());
  }

  /** Applies, in the order they came, the kept changes `schema` now takes whole; returns how many. Must run inside a transaction. */
  replay(schema: LocalSchema, apply: (change: RowChange) => void): number {
    let replayed = 0;
    for (const { position, change } of this.kept.all()) {
      const parsed = syncColumns['sync_deferred.change'](change);
      if (!schema.fit(parsed).complete) continue;
      apply(parsed);
      this.remove.run(position);
      replayed += 1;
    }
    return replayed;
  }
}
