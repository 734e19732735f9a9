/**
 * Why a node is degraded, if it is: `/health` answers 503 with these reasons (200 with none),
 * so that a load balancer, systemd's watchdog script or Prometheus' blackbox probe sees a
 * node that answers but cannot do its work:
 * - its database cannot be written (a read-only file or file system, a lock held for longer
 *   than the busy timeout): every write call would fail;
 * - the free space of its data folder is under `health.min_free_disk_mb`: SQLite would fail
 *   writes mid-transaction soon;
 * - a store that has not completed a round with its hub for longer than the offline age
 *   (it has stopped redeeming points), or a hub with stores silent that long;
 * - a store its hub refuses (its node name or secret is wrong, or retired), or one whose first
 *   bootstrap failed: it holds none of the chain's data, no user can log in at it.
 */
import { statfsSync } from 'node:fs';
import type { Clock } from '../core/clock.js';
import type { Db } from '../db/open.js';
import type { FleetStatus } from '../sync/hub/fleet-status.js';
import { SyncState } from '../sync/sync-state.js';
import { recentRounds, REFUSED_NODE } from '../sync/store/round-log.js';

export interface HealthSettings {
  dataDir: string;
  minFreeDiskMb: number;
  offlineAgeMs: number;
  /** A store's hub; undefined on a hub and a standalone store. */
  hubUrl: string | undefined;
  /** When the daemon started: a store that never completed a round counts its silence from then. */
  startedAt: number;
}

const MB = 1024 * 1024;

/** Why the node's writes would fail, if they would. */
export type DatabaseProblem = () => string | undefined;

/** Thrown by the probe's transaction once it wrote, so that the transaction rolls back. */
const PROBED = Symbol('probed');

/**
 * A real write, rolled back: it needs the write lock and a writable file, like every write
 * does, and leaves nothing behind, so it is no change for the write path to record. Run where
 * the read-write connection is: on a store with a writer thread, the thread runs it
 * (src/root/writer.ts).
 */
export function writeProbe(db: Db, clock: Clock): DatabaseProblem {
  const probe = db.prepare<[string]>(
    "INSERT INTO meta (key, value) VALUES ('health.write_probe', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
  );
  const probeRolledBack = db.transaction(() => {
    probe.run(new Date(clock()).toISOString());
    throw PROBED;
  });
  return () => {
    try {
      probeRolledBack();
      return undefined;
    } catch (error) {
      return error === PROBED ? undefined : `database not writable: ${(error as Error).message}`;
    }
  };
}

/** What NodeHealth is built from. */
export interface NodeHealthSources {
  db: Db;
  settings: HealthSettings;
  /** Why writes would fail: `writeProbe`, or what a store's writer thread last found. */
  databaseProblem: DatabaseProblem;
  clock: Clock;
  /** On a hub, its stores' contacts; undefined on a store. */
  fleet: FleetStatus | undefined;
}

export class NodeHealth {
  private readonly state: SyncState;
  private readonly settings: HealthSettings;
  private readonly databaseProblem: DatabaseProblem;
  private readonly clock: Clock;
  private readonly fleet: FleetStatus | undefined;

  constructor({ db, settings, databaseProblem, clock, fleet }: NodeHealthSources) {
    this.state = new SyncState(db);
    this.settings = settings;
    this.databaseProblem = databaseProblem;
    this.clock = clock;
    this.fleet = fleet;
  }

  reasons(): string[] {
    return [this.databaseProblem(), this.diskProblem(), this.syncProblem()].filter((reason) => reason !== undefined);
  }

  private diskProblem(): string | undefined {
    const { minFreeDiskMb, dataDir } = this.settings;
    let freeMb: number;
    try {
      const space = statfsSync(dataDir);
      freeMb = Math.floor((space.bavail * space.bsize) / MB);
    } catch (error) {
      return `free disk space unknown: ${(error as Error).message}`;
    }
    return freeMb < minFreeDiskMb ? `free disk space ${freeMb} MB is under health.min_free_disk_mb (${minFreeDiskMb} MB)` : undefined;
  }

  private syncProblem(): string | undefined {
    const { offlineAgeMs, hubUrl, startedAt } = this.settings;
    const hours = offlineAgeMs / 3_600_000;
    if (this.fleet) {
      const silent = this.fleet.silentStores();
      return silent > 0 ? `${silent} store(s) silent for longer than offline.max_age_hours (${hours} h)` : undefined;
    }
    if (!hubUrl) return undefined;
    const refusal = this.hubRefusal();
    if (refusal) return refusal;
    const lastSuccess = this.state.get('last_success_at');
    const since = lastSuccess ? Date.parse(lastSuccess) : startedAt;
    return this.clock() - since > offlineAgeMs
      ? `no successful sync round with the hub for longer than offline.max_age_hours (${hours} h)`
      : undefined;
  }

  /** Why the last round failed, when it says the store cannot work at all: refused by its hub, or never bootstrapped. */
  private hubRefusal(): string | undefined {
    const [last] = recentRounds(this.state);
    if (!last || last.ok) return undefined;
    const refused = last.hub_status !== null && REFUSED_NODE.has(last.hub_status);
    const why = refused
      ? `the hub refuses this node's name or secret (it answered ${last.hub_status}; check node.name and node.secret)`
      : (last.error ?? 'its last round failed');
    if (this.state.get('cursor') === undefined) return `never bootstrapped from its hub, so it holds no data yet: ${why}`;
    return refused ? why : undefined;
  }
}
