/** The status pages' content: the hub's fleet and one store as the hub sees it; a store's own page (src/ops/store-status-view.ts). */
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { Db } from '../db/open.js';
import type { FleetStatus, FleetStore } from '../sync/hub/fleet-status.js';
import type { SettlingStatusReader } from '../sync/hub/settling-status.js';
import { readSyncStatus, type HubSyncStatus } from '../sync/status.js';
import { duration, durationCell, numberCell, timeAgo, timeCell, type Facts, type Row, type StatusView, type Table } from './status-cells.js';
import { StoreStatusView } from './store-status-view.js';

/** What StatusViews is built from. */
export interface StatusViewsOptions {
  db: Db;
  config: Pick<Config, 'mode' | 'hub' | 'offline'>;
  clock: Clock;
  fleet: FleetStatus | undefined;
  settling: SettlingStatusReader | undefined;
}

export class StatusViews {
  private readonly store: StoreStatusView;

  private readonly db: Db;
  private readonly config: Pick<Config, 'mode' | 'hub' | 'offline'>;
  private readonly clock: Clock;
  private readonly fleet: FleetStatus | undefined;
  private readonly settling: SettlingStatusReader | undefined;

  constructor(options: StatusViewsOptions) {
    const { db, config, clock, fleet, settling } = options;
    this.db = db;
    this.config = config;
    this.clock = clock;
    this.fleet = fleet;
    this.settling = settling;
    this.store = new StoreStatusView(db, config, clock);
  }

  /** The page of this node: the fleet on a hub, its own sync on a store. */
  overview(): StatusView {
    return this.fleet ? this.hubOverview(this.fleet) : this.store.view();
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
