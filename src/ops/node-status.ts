/**
 * Builds what a node says about itself beyond the API: the status pages, the reasons of
 * `/health`, the figures of the sync metrics, and — on a hub — the record of what each store
 * says of itself (src/sync/hub/store-contacts.ts), which the hub's sync endpoints feed.
 */
import type { Router } from 'express';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { SyncFigures } from './observability.js';
import type { Node } from '../root/node.js';
import { FleetStatus } from '../sync/hub/fleet-status.js';
import { SettlingStatusReader } from '../sync/hub/settling-status.js';
import { SyncStatusReader, type SyncStatus } from '../sync/status.js';
import { StoreContacts } from '../sync/hub/store-contacts.js';
import { NodeHealth } from './node-health.js';
import { statusRouter, type StatusUsers } from './status.routes.js';
import { StatusViews } from './status-views.js';

export interface NodeStatus {
  contacts: StoreContacts;
  router: Router;
  /** Why the node is degraded; none when it is healthy. */
  reasons(): string[];
  figures(): SyncFigures;
  /** The sync status (/health, the metrics), read with statements prepared once. */
  sync(): SyncStatus;
}

export function createNodeStatus(node: Pick<Node, 'db'>, config: Config, users: StatusUsers, clock: Clock): NodeStatus {
  const contacts = new StoreContacts(clock);
  const offlineAgeMs = config.offline.max_age_hours * 3_600_000;
  const fleet = config.mode === 'hub' ? new FleetStatus(node.db, contacts, offlineAgeMs, clock) : undefined;
  const settling = config.mode === 'hub' ? new SettlingStatusReader(node.db, offlineAgeMs) : undefined;
  const statuses = new SyncStatusReader(node.db);
  const sync = () => statuses.read(config.mode, config.hub.url, clock);
  const health = new NodeHealth(
    node.db,
    {
      dataDir: config.data_dir,
      minFreeDiskMb: config.health.min_free_disk_mb,
      offlineAgeMs,
      hubUrl: config.mode === 'store' ? config.hub.url : undefined,
      startedAt: clock(),
    },
    clock,
    fleet,
  );
  return {
    contacts,
    router: statusRouter(new StatusViews({ db: node.db, config, clock, fleet, settling }), users, config.auth.bearer_ttl_seconds),
    reasons: () => health.reasons(),
    figures: () => syncFigures(sync(), clock, fleet, settling),
    sync,
  };
}

function syncFigures(status: SyncStatus, clock: Clock, fleet: FleetStatus | undefined, settling: SettlingStatusReader | undefined): SyncFigures {
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
