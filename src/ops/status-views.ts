/** The status pages' content: the hub's fleet, one store as the hub sees it, and a store's own sync. */
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { Db } from '../db/open.js';
import type { SyncConflictsRow } from '../db/tables.generated.js';
import type { FleetStatus, FleetStore } from '../sync/hub/fleet-status.js';
import type { SettlingStatusReader } from '../sync/hub/settling-status.js';
import { recentRounds } from '../sync/store/round-log.js';
import { readSyncStatus, type HubSyncStatus, type StoreSyncStatus } from '../sync/status.js';
import { SyncState } from '../sync/sync-state.js';
import { duration, durationCell, numberCell, timeAgo, timeCell, type Facts, type Row, type StatusView, type Table } from './status-cells.js';

/** Conflicts a store's page lists, newest first. */
const LISTED_CONFLICTS = 20;

type ConflictRow = Omit<SyncConflictsRow, 'id'>;

export class StatusViews {
  private readonly conflicts;

  constructor(
    private readonly db: Db,
    private readonly config: Pick<Config, 'mode' | 'hub' | 'offline'>,
    private readonly clock: Clock,
    private readonly fleet: FleetStatus | undefined,
    private readonly settling: SettlingStatusReader | undefined,
  ) {
    this.conflicts = db.prepare<[number], ConflictRow>(
      'SELECT kind, entity, entity_id, detail, detected_at FROM sync_conflicts ORDER BY detected_at DESC LIMIT ?',
    );
  }

  /** The page of this node: the fleet on a hub, its own sync on a store. */
  overview(): StatusView {
    return this.fleet ? this.hubOverview(this.fleet) : this.storeOverview();
  }

  /** On a hub, the page of one store; undefined for a name it does not know. */
  hubStore(name: string): StatusView | undefined {
    const store = this.fleet?.store(name);
    if (!store) return undefined;
    const now = this.clock();
    const exchanges: Table = {
      kind: 'table',
      id: 'exchanges',
      caption: "Recent rounds (the store's calls, as the hub answered them)",
      columns: [
        { label: 'At' },
        { label: 'Call' },
        { label: 'Status', numeric: true },
        { label: 'ms', numeric: true },
        { label: 'Commands', numeric: true },
        { label: 'Applied', numeric: true },
        { label: 'Rejected', numeric: true },
        { label: 'Changes sent', numeric: true },
      ],
      rows: store.exchanges.map((exchange) => ({
        cells: [
          timeCell(exchange.at, now),
          { text: exchange.kind },
          numberCell(exchange.status),
          numberCell(exchange.ms),
          numberCell(exchange.commands),
          numberCell(exchange.applied),
          numberCell(exchange.rejected),
          numberCell(exchange.changes),
        ],
        ...(exchange.status >= 400 || (exchange.rejected ?? 0) > 0 ? { mark: exchange.status >= 400 ? 'failed' : 'rejected' } : {}),
      })),
      empty: 'No call from this store since the hub started.',
    };
    const conflicts: Table = {
      kind: 'table',
      id: 'conflicts',
      caption: 'Conflicts the store lists (newest it reported)',
      columns: [{ label: 'Detected' }, { label: 'Kind' }, { label: 'Entity' }, { label: 'Id' }],
      rows: store.recent_conflicts.map((conflict) => ({
        cells: [timeCell(conflict.detected_at, now), { text: conflict.kind }, { text: conflict.entity }, { text: conflict.entity_id }],
      })),
      empty: store.reported_at ? 'The store lists no conflict.' : 'The store has sent no report since the hub started.',
    };
    return {
      title: `loyaltyd hub: store ${store.name}`,
      source: `/status/stores/${encodeURIComponent(store.name)}/json`,
      generated_at: new Date(now).toISOString(),
      sections: [this.storeFacts(store, now), exchanges, conflicts],
    };
  }

  private hubOverview(fleet: FleetStatus): StatusView {
    const now = this.clock();
    const hub = readSyncStatus(this.db, 'hub', undefined, this.clock) as HubSyncStatus;
    const stores = fleet.stores();
    const facts: Facts = {
      kind: 'facts',
      id: 'hub',
      caption: 'Hub',
      items: [
        { label: 'Feed last seq', value: String(hub.feed_last_seq) },
        { label: 'Conflicts listed at the hub', value: String(hub.conflicts) },
        { label: 'Stores', value: String(stores.length) },
        {
          label: 'Silent stores',
          value: String(stores.filter((store) => store.silent).length),
          ...(stores.some((store) => store.silent) ? { mark: 'silent' } : {}),
        },
        { label: 'Offline age (silent after)', value: duration(Math.round(this.config.offline.max_age_hours * 3600)) },
        ...this.settlingFacts(now),
      ],
    };
    const table: Table = {
      kind: 'table',
      id: 'stores',
      caption: 'Stores',
      sortable: true,
      columns: [
        { label: 'Store' },
        { label: 'State' },
        { label: 'Last contact' },
        { label: 'Last pushed seq', numeric: true },
        { label: 'Outbox depth', numeric: true },
        { label: 'Oldest pending', numeric: true },
        { label: 'Feed lag rows', numeric: true },
        { label: 'Feed lag', numeric: true },
        { label: 'Rejected', numeric: true },
        { label: 'Conflicts', numeric: true },
        { label: 'Applied', numeric: true },
        { label: 'Schema', numeric: true },
        { label: 'Protocol', numeric: true },
      ],
      rows: stores.map((store) => storeRow(store, now)),
      empty: 'No store registered (loyaltyd nodes add).',
    };
    return { title: 'loyaltyd hub: stores', source: '/status/json', generated_at: new Date(now).toISOString(), sections: [facts, table] };
  }

  /** The customer states' horizon, naming the store that holds it back, and the states it has not passed. */
  private settlingFacts(now: number): Facts['items'] {
    const settling = this.settling?.read(now);
    if (!settling) return [];
    const holder =
      settling.held_by !== null
        ? `held back by store ${settling.held_by}`
        : settling.reported_by !== null
          ? `at store ${settling.reported_by}'s last report, which no state waits on`
          : 'at the offline age';
    const oldest = settling.oldest_unsettled_age_seconds === null ? '' : `, the oldest fact ${duration(settling.oldest_unsettled_age_seconds)} old`;
    return [
      { label: "Customer states' horizon", value: `${timeAgo(settling.horizon_at, now)}, ${holder}` },
      { label: 'Customer states to settle', value: `${settling.unsettled_states}${oldest}` },
    ];
  }

  private storeFacts(store: FleetStore, now: number): Facts {
    return {
      kind: 'facts',
      id: 'store',
      caption: 'As last reported',
      items: [
        { label: 'State', value: stateOf(store), ...(store.silent ? { mark: 'silent' } : {}) },
        { label: 'Last contact', value: timeAgo(store.last_contact_at, now) },
        { label: 'Last report', value: timeAgo(store.reported_at, now) },
        { label: 'Generation', value: store.generation ?? '—' },
        { label: 'Last pushed seq', value: numberCell(store.last_pushed_seq).text },
        { label: 'Outbox depth', value: numberCell(store.outbox_pending).text },
        { label: 'Oldest pending', value: duration(store.outbox_oldest_age_seconds) },
        { label: 'Feed lag', value: `${numberCell(store.feed_lag_rows).text} rows, ${duration(store.feed_lag_seconds)}` },
        { label: 'Rejected commands', value: String(store.rejected_commands) },
        { label: 'Conflicts', value: numberCell(store.conflicts).text },
        { label: 'Applied since the hub started', value: String(store.applied_commands) },
        { label: 'Schema / protocol version', value: `${numberCell(store.schema_version).text} / ${numberCell(store.protocol_version).text}` },
      ],
    };
  }

  private storeOverview(): StatusView {
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

function stateOf(store: FleetStore): string {
  if (store.last_contact_at === null) return 'never seen';
  return store.silent ? `silent ${duration(store.seconds_since_contact)}` : 'ok';
}

function storeRow(store: FleetStore, now: number): Row {
  return {
    cells: [
      { text: store.name, href: `/status/stores/${encodeURIComponent(store.name)}` },
      { text: stateOf(store) },
      timeCell(store.last_contact_at, now),
      numberCell(store.last_pushed_seq),
      numberCell(store.outbox_pending),
      durationCell(store.outbox_oldest_age_seconds),
      numberCell(store.feed_lag_rows),
      durationCell(store.feed_lag_seconds),
      numberCell(store.rejected_commands),
      numberCell(store.conflicts),
      numberCell(store.applied_commands),
      numberCell(store.schema_version),
      numberCell(store.protocol_version),
    ],
    ...(store.silent ? { mark: 'silent' } : {}),
  };
}
