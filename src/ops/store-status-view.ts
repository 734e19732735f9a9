/** The status page of a store: its sync with the hub, the offline limits in force, its recent rounds and conflicts. */
import type { Statement } from '../db/engine.js';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { Db } from '../db/open.js';
import type { SyncConflictsRow } from '../db/tables.generated.js';
import { recentRounds } from '../sync/store/round-log.js';
import { readSyncStatus, type StoreSyncStatus } from '../sync/status.js';
import { SyncState } from '../sync/sync-state.js';
import { newestConflicts } from '../sync/conflict-listing.js';
import { duration, numberCell, timeAgo, timeCell, type Facts, type StatusView, type Table } from './status-cells.js';

/** Conflicts a store's page lists, newest first. */
const LISTED_CONFLICTS = 20;

type ConflictRow = Omit<SyncConflictsRow, 'id'>;

export class StoreStatusView {
  private readonly conflicts: Statement<[number], ConflictRow>;

  constructor(
    private readonly db: Db,
    private readonly config: Pick<Config, 'hub' | 'offline'>,
    private readonly clock: Clock,
  ) {
    this.conflicts = newestConflicts<ConflictRow>(db, 'kind, entity, entity_id, detail, detected_at');
  }

  view(): StatusView {
    const now = this.clock();
    const status = readSyncStatus(this.db, 'store', this.config.hub.url, this.clock) as StoreSyncStatus;
    const state = new SyncState(this.db);
    const offlineAgeMs = this.config.offline.max_age_hours * 3_600_000;
    const lastSuccess = status.last_success_at ? Date.parse(status.last_success_at) : null;
    const redeeming = lastSuccess !== null && now - lastSuccess <= offlineAgeMs;
    // As the last round found it (src/sync/store/round-log.ts), with since when.
    const reachableSince = state.get('reachable_since');
    const unreachableSince = state.get('unreachable_since');
    const reachable =
      status.hub_url === null ? 'no hub configured (standalone)' : reachableSince ? 'reachable' : unreachableSince ? 'unreachable' : 'not tried yet';
    const sync: Facts = {
      kind: 'facts',
      id: 'sync',
      caption: 'Hub',
      items: [
        { label: 'Hub', value: status.hub_url ?? '—' },
        { label: 'Hub is', value: reachable, ...(unreachableSince ? { mark: 'unreachable' } : {}) },
        { label: 'Since', value: timeAgo(reachableSince ?? unreachableSince, now) },
        { label: 'Last successful round', value: timeAgo(status.last_success_at, now) },
        { label: 'Last error', value: status.last_error ?? '—' },
        { label: 'Outbox depth', value: String(status.outbox.pending) },
        { label: 'Oldest pending', value: duration(status.outbox.oldest_pending_age_seconds) },
        { label: 'Rejected commands', value: String(status.outbox.rejected) },
        { label: 'Sending again to a restored hub', value: status.outbox.replaying ? 'yes' : 'no' },
        { label: 'Feed lag', value: `${numberCell(status.feed.lag_rows).text} rows, ${duration(status.feed.lag_seconds)}` },
        { label: 'Bootstrapping', value: status.feed.bootstrapping ? 'yes' : 'no' },
        { label: 'Conflicts', value: String(status.conflicts) },
      ],
    };
    const { offline } = this.config;
    const limits: Facts = {
      kind: 'facts',
      id: 'limits',
      caption: 'Offline limits in force',
      items: [
        {
          label: 'Redeeming points',
          value: status.hub_url === null ? 'yes (standalone)' : redeeming ? 'yes' : 'stopped: no round with the hub within the offline age',
          ...(status.hub_url !== null && !redeeming ? { mark: 'stopped' } : {}),
        },
        { label: 'Offline age', value: duration(Math.round(offline.max_age_hours * 3600)) },
        { label: 'Redemption margin', value: `${offline.redemption_margin_points} points` },
        {
          label: 'Daily redemption cap per customer',
          value: offline.daily_redemption_cap_points === undefined ? 'none' : `${offline.daily_redemption_cap_points} points`,
        },
      ],
    };
    const rounds: Table = {
      kind: 'table',
      id: 'rounds',
      caption: 'Recent rounds',
      columns: [
        { label: 'Started' },
        { label: 'Result' },
        { label: 'ms', numeric: true },
        { label: 'Pushed', numeric: true },
        { label: 'Rejected', numeric: true },
        { label: 'Pulled', numeric: true },
        { label: 'Error' },
      ],
      rows: recentRounds(state).map((round) => ({
        cells: [
          timeCell(round.started_at, now),
          { text: round.ok ? 'ok' : 'failed' },
          numberCell(round.ms),
          numberCell(round.pushed),
          numberCell(round.rejected),
          numberCell(round.pulled),
          { text: round.error ?? '' },
        ],
        ...(round.ok ? {} : { mark: 'failed' }),
      })),
      empty: 'No round yet.',
    };
    const conflicts: Table = {
      kind: 'table',
      id: 'conflicts',
      caption: 'Conflicts',
      columns: [{ label: 'Detected' }, { label: 'Kind' }, { label: 'Entity' }, { label: 'Id' }, { label: 'Detail' }],
      rows: this.conflicts.all(LISTED_CONFLICTS).map((conflict) => ({
        cells: [
          timeCell(conflict.detected_at, now),
          { text: conflict.kind },
          { text: conflict.entity },
          { text: conflict.entity_id },
          { text: conflict.detail },
        ],
      })),
      empty: 'No conflict listed.',
    };
    return {
      title: 'loyaltyd store: sync',
      source: '/status/json',
      generated_at: new Date(now).toISOString(),
      sections: [sync, limits, rounds, conflicts],
    };
  }
}
