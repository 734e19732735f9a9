/**
 * What a node says about itself beyond the API: `/health` and its reasons, the status pages,
 * and the figures of the sync metrics. On a hub it reads what each store says of itself
 * (src/sync/hub/store-contacts.ts), which the hub's sync endpoints record.
 */
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { Db } from '../db/open.js';
import type { PlainEndpoint } from '../http/plain-endpoint.js';
import { FleetStatus } from '../sync/hub/fleet-status.js';
import { SettlingStatusReader } from '../sync/hub/settling-status.js';
import type { StoreContacts } from '../sync/hub/store-contacts.js';
import { publicSyncStatus, SyncStatusReader } from '../sync/status.js';
import { publicStorage, StorageReader } from '../sync/storage-status.js';
import type { HealthReport } from './health.routes.js';
import { NodeHealth, type DatabaseProblem } from './node-health.js';
import { statusEndpoints, type StatusUsers } from './status.routes.js';
import { StatusViews } from './status-views.js';
import { syncFigures, type SyncFigures } from './sync-metrics.js';

export interface NodeStatus {
  /** The status pages. */
  pages: PlainEndpoint[];
  /** What `/health` answers. */
  health(): HealthReport;
  figures(): SyncFigures;
}

export interface NodeStatusSources {
  db: Db;
  config: Config;
  nodeId: string;
  schemaVersion: number;
  users: StatusUsers;
  /** On a hub, what each store last said of itself; undefined on a store. */
  contacts: StoreContacts | undefined;
  /** Why writes would fail: a rolled-back write (`writeProbe`), or what the writer thread last found. */
  databaseProblem: DatabaseProblem;
  clock: Clock;
}

export function createNodeStatus({ db, config, nodeId, schemaVersion, users, contacts, databaseProblem, clock }: NodeStatusSources): NodeStatus {
  const offlineAgeMs = config.offline.max_age_hours * 3_600_000;
  const startedAt = clock();
  const fleet = contacts ? new FleetStatus(db, contacts, offlineAgeMs, clock) : undefined;
  const settling = contacts ? new SettlingStatusReader(db, offlineAgeMs) : undefined;
  const statuses = new SyncStatusReader(db);
  const storage = new StorageReader(db, config);
  const sync = () => statuses.read(config.mode, config.hub.url, clock);
  const reasons = new NodeHealth({
    db,
    settings: {
      dataDir: config.data_dir,
      minFreeDiskMb: config.health.min_free_disk_mb,
      offlineAgeMs,
      hubUrl: config.mode === 'store' ? config.hub.url : undefined,
      startedAt,
    },
    databaseProblem,
    clock,
    fleet,
  });
  return {
    pages: statusEndpoints(new StatusViews({ db, config, clock, fleet, settling }), users, config.auth.bearer_ttl_seconds),
    health: () => {
      const degraded = reasons.reasons();
      return {
        status: degraded.length === 0 ? 'ok' : 'degraded',
        reasons: degraded,
        mode: config.mode,
        node_id: nodeId,
        schema_version: schemaVersion,
        uptime_seconds: Math.round((clock() - startedAt) / 1000),
        sync: publicSyncStatus(sync()),
        storage: publicStorage(storage.read(clock)),
      };
    },
    figures: () => syncFigures(sync(), clock, fleet, settling),
  };
}
