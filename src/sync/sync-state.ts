/** A store's sync bookkeeping, kept in `meta` so the CLI can read it while the daemon runs. */
import type { Db } from '../db/open.js';
import type { MetaRow } from '../db/tables.generated.js';

export const SYNC_KEYS = [
  'cursor',
  'feed_id',
  'snapshot_position',
  'snapshot_entity',
  'snapshot_after_id',
  'last_attempt_at',
  'last_push_at',
  'last_pull_at',
  'last_success_at',
  'last_error',
  'last_error_at',
  'hub_last_seq',
  'hub_time',
  'newest_stamp',
  'generation_base',
  'rejected_commands',
  'acked_stamp',
  'pushed_through',
  'last_retention_at',
  'retention_deleted',
  'bootstrap_indexes',
  'snapshot_sweep',
  'recent_rounds',
  'reachable_since',
  'unreachable_since',
  'replay_after',
  'replay_through',
  'replay_position',
  'replay_waiting',
  'replay_waiting_until',
  'clock_skew_ms',
  'deferred_schema',
] as const;
export type SyncKey = (typeof SYNC_KEYS)[number];

export class SyncState {
  private readonly read;
  private readonly upsert;
  private readonly remove;

  constructor(db: Db) {
    this.read = db.prepare<[string], Pick<MetaRow, 'value'>>('SELECT value FROM meta WHERE key = ?');
    this.upsert = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    this.remove = db.prepare('DELETE FROM meta WHERE key = ?');
  }

  get(key: SyncKey): string | undefined {
    return this.read.get(`sync.${key}`)?.value;
  }

  number(key: SyncKey): number | undefined {
    const value = this.get(key);
    return value === undefined ? undefined : Number(value);
  }

  set(key: SyncKey, value: string | number): void {
    this.upsert.run(`sync.${key}`, String(value));
  }

  clear(key: SyncKey): void {
    this.remove.run(`sync.${key}`);
  }
}
