/** The sync gauges and counters of /metrics, and the figures they read. */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Clock } from '../core/clock.js';
import type { FleetStatus } from '../sync/hub/fleet-status.js';
import type { SettlingStatusReader } from '../sync/hub/settling-status.js';
import type { SyncStatus } from '../sync/status.js';

/** A store's own sync figures; null where unknown (no hub, never pulled). */
export interface StoreSyncFigures {
  outbox_pending: number;
  outbox_oldest_age_seconds: number | null;
  feed_lag_rows: number | null;
  feed_lag_seconds: number | null;
  conflicts: number;
  rejected_commands: number;
  seconds_since_success: number | null;
}

/** A hub's figures, per store as the hub heard them (src/sync/hub/fleet-status.ts). */
export interface HubSyncFigures {
  conflicts: number;
  stores: {
    name: string;
    seconds_since_contact: number | null;
    silent: boolean;
    applied_commands: number;
    rejected_commands: number;
    outbox_pending: number | null;
    feed_lag_rows: number | null;
  }[];
  /** The customer states' horizon and the states it has not passed yet (src/sync/hub/settling-status.ts). */
  horizon_age_seconds: number | null;
  unsettled_states: number | null;
}

export type SyncFigures = ({ mode: 'store' } & StoreSyncFigures) | ({ mode: 'hub' } & HubSyncFigures);

/**
 * The sync gauges of /metrics, read from the node when Prometheus scrapes (the Grafana
 * dashboard in config/grafana-dashboard.json uses them). A store shows its own outbox, feed
 * lag, conflicts, rejected commands and seconds since its last successful round; a hub shows
 * its conflicts, the age of its customer states' horizon and the states left to settle, and,
 * per store, the seconds since its last contact, the commands applied and rejected since the
 * hub started and the outbox depth and feed lag it last reported.
 */
export function registerSyncMetrics(registry: Registry, mode: SyncFigures['mode'], read: () => SyncFigures): void {
  // One read serves every sync metric of a scrape: prom-client starts every metric's collect
  // in one synchronous pass, and the figures are dropped once it is over.
  let figures: SyncFigures | undefined;
  const current = (): SyncFigures => {
    if (!figures) {
      figures = read();
      queueMicrotask(() => {
        figures = undefined;
      });
    }
    return figures;
  };
  const registers = [registry];
  const gauge = (name: string, help: string, value: (figures: SyncFigures) => number | null | undefined) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const measured = value(current());
        if (measured === null || measured === undefined) this.reset();
        else this.set(measured);
      },
    });
  gauge('loyaltyd_sync_conflicts', 'Conflicts listed at this node (sync conflicts)', (figures) => figures.conflicts);
  if (mode === 'store') {
    const store =
      <K extends keyof StoreSyncFigures>(key: K) =>
      (figures: SyncFigures) =>
        figures.mode === 'store' ? figures[key] : undefined;
    gauge('loyaltyd_sync_outbox_pending', "Commands in the store's outbox not yet acknowledged by the hub", store('outbox_pending'));
    gauge('loyaltyd_sync_outbox_oldest_age_seconds', "Age of the oldest pending command in the store's outbox; 0 when it is empty", (figures) =>
      figures.mode === 'store' ? (figures.outbox_oldest_age_seconds ?? 0) : undefined,
    );
    gauge('loyaltyd_sync_feed_lag_rows', "Changes of the hub's feed the store has not pulled yet, as of its last pull", store('feed_lag_rows'));
    gauge('loyaltyd_sync_feed_lag_seconds', "How far behind the hub's feed the store is, in seconds", store('feed_lag_seconds'));
    gauge('loyaltyd_sync_seconds_since_success', "Seconds since the store's last successful sync round", store('seconds_since_success'));
    gauge('loyaltyd_sync_rejected_commands', 'Commands of this store the hub rejected, since its database was created', store('rejected_commands'));
    return;
  }
  gauge('loyaltyd_sync_silent_stores', 'Stores silent for longer than the offline age', (figures) =>
    figures.mode === 'hub' ? figures.stores.filter((one) => one.silent).length : undefined,
  );
  gauge(
    'loyaltyd_sync_horizon_age_seconds',
    "Age of the customer states' horizon: how long the store holding it back has not pushed (at most the offline age)",
    (figures) => (figures.mode === 'hub' ? figures.horizon_age_seconds : undefined),
  );
  gauge(
    'loyaltyd_sync_unsettled_states',
    'Customer states with facts past their horizon, which the hub publishes whole with each new fact',
    (figures) => (figures.mode === 'hub' ? figures.unsettled_states : undefined),
  );
  const perStore = (name: string, help: string, value: (one: HubSyncFigures['stores'][number]) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames: ['store'],
      registers,
      collect() {
        this.reset();
        const figures = current();
        if (figures.mode !== 'hub') return;
        for (const one of figures.stores) {
          const measured = value(one);
          if (measured !== null) this.set({ store: one.name }, measured);
        }
      },
    });
  perStore('loyaltyd_sync_store_seconds_since_contact', 'Seconds since the store last called the hub', (one) => one.seconds_since_contact);
  perStore('loyaltyd_sync_store_outbox_pending', "The store's outbox depth as it last reported it", (one) => one.outbox_pending);
  perStore('loyaltyd_sync_store_feed_lag_rows', "The store's feed lag in rows as it last reported it", (one) => one.feed_lag_rows);
  const storeCounter = (name: string, help: string, value: (one: HubSyncFigures['stores'][number]) => number) => {
    const reported = new Map<string, number>();
    return new Counter({
      name,
      help,
      labelNames: ['store'],
      registers,
      collect() {
        const figures = current();
        if (figures.mode !== 'hub') return;
        for (const one of figures.stores) {
          const total = value(one);
          const delta = total - (reported.get(one.name) ?? 0);
          // Zero too, so that a store is listed before its first command.
          if (delta >= 0) this.inc({ store: one.name }, delta);
          reported.set(one.name, total);
        }
      },
    });
  };
  storeCounter(
    'loyaltyd_sync_store_applied_commands_total',
    'Commands of the store the hub applied, since the hub started',
    (one) => one.applied_commands,
  );
  storeCounter(
    'loyaltyd_sync_store_rejected_commands_total',
    'Commands of the store the hub rejected, since the hub started',
    (one) => one.rejected_commands,
  );
}

/** The figures the sync metrics show, from the node's sync status and, on a hub, its fleet and settling. */
export function syncFigures(
  status: SyncStatus,
  clock: Clock,
  fleet: FleetStatus | undefined,
  settling: SettlingStatusReader | undefined,
): SyncFigures {
  if (status.mode === 'hub') {
    const stores = (fleet?.stores() ?? []).map((store) => ({
      name: store.name,
      seconds_since_contact: store.seconds_since_contact,
      silent: store.silent,
      applied_commands: store.applied_commands,
      rejected_commands: store.rejected_since_start,
      outbox_pending: store.outbox_pending,
      feed_lag_rows: store.feed_lag_rows,
    }));
    const states = settling?.read(clock());
    return {
      mode: 'hub',
      conflicts: status.conflicts,
      stores,
      horizon_age_seconds: states?.horizon_age_seconds ?? null,
      unsettled_states: states?.unsettled_states ?? null,
    };
  }
  const lastSuccess = status.last_success_at ? Date.parse(status.last_success_at) : null;
  return {
    mode: 'store',
    outbox_pending: status.outbox.pending,
    outbox_oldest_age_seconds: status.outbox.oldest_pending_age_seconds,
    feed_lag_rows: status.feed.lag_rows,
    feed_lag_seconds: status.feed.lag_seconds,
    conflicts: status.conflicts,
    rejected_commands: status.outbox.rejected,
    seconds_since_success: lastSuccess === null ? null : Math.max(0, Math.round((clock() - lastSuccess) / 1000)),
  };
}
