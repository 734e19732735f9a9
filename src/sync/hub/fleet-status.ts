/**
 * The hub's view of its stores, one row each: what the database keeps of them (last pushed
 * seq, last push and last pull) joined with what the running hub heard from them
 * (src/sync/hub/store-contacts.ts). A store is *silent* once its last contact is older than the
 * offline age (`offline.max_age_hours`): the age past which it stops redeeming, so head
 * office should look at it. A store never heard from is not silent: it may not be installed yet.
 */
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/open.js';
import type { LeftJoined, NodesRow, SyncNodeClocksRow, SyncNodeProgressRow } from '../../db/tables.generated.js';
import type { Exchange, StoreContacts } from './store-contacts.js';
import type { ReportedConflict } from '../store/store-report.js';

export interface FleetStore {
  node_id: string;
  name: string;
  last_contact_at: string | null;
  seconds_since_contact: number | null;
  silent: boolean;
  generation: string | null;
  last_pushed_seq: number | null;
  /** From the store's last report; null when it sent none since the hub started. */
  outbox_pending: number | null;
  outbox_oldest_age_seconds: number | null;
  feed_lag_rows: number | null;
  feed_lag_seconds: number | null;
  conflicts: number | null;
  reported_at: string | null;
  /** As the store last reported it, else as counted by the hub since it started. */
  rejected_commands: number;
  /** Applied and rejected by the hub since it started. */
  applied_commands: number;
  rejected_since_start: number;
  schema_version: number | null;
  protocol_version: number | null;
}

export interface FleetStoreDetail extends FleetStore {
  exchanges: Exchange[];
  recent_conflicts: ReportedConflict[];
}

/** A store's node with its newest progress and clock; null where the hub has neither. */
type StoreRow = Pick<NodesRow, 'name'> &
  LeftJoined<Pick<SyncNodeProgressRow, 'generation' | 'last_seq'>> & {
    node_id: NodesRow['id'];
    pushed_at: SyncNodeProgressRow['last_seen_at'] | null;
    pulled_at: SyncNodeClocksRow['reported_at'] | null;
  };

export class FleetStatus {
  private readonly rows;

  constructor(
    db: Db,
    private readonly contacts: StoreContacts,
    private readonly offlineAgeMs: number,
    private readonly clock: Clock,
  ) {
    this.rows = db.prepare<[], StoreRow>(
      `SELECT n.id AS node_id, n.name,
              (SELECT p.generation FROM sync_node_progress p WHERE p.node_id = n.id ORDER BY p.last_seen_at DESC LIMIT 1) AS generation,
              (SELECT p.last_seq FROM sync_node_progress p WHERE p.node_id = n.id ORDER BY p.last_seen_at DESC LIMIT 1) AS last_seq,
              (SELECT max(p.last_seen_at) FROM sync_node_progress p WHERE p.node_id = n.id) AS pushed_at,
              c.reported_at AS pulled_at
       FROM nodes n LEFT JOIN sync_node_clocks c ON c.node_id = n.id
       WHERE n.state = 1 ORDER BY n.name`,
    );
  }

  stores(): FleetStore[] {
    return this.rows.all().map((row) => this.storeOf(row));
  }

  store(name: string): FleetStoreDetail | undefined {
    const row = this.rows.all().find((candidate) => candidate.name === name);
    if (!row) return undefined;
    const contact = this.contacts.of(row.node_id);
    return { ...this.storeOf(row), exchanges: contact?.exchanges ?? [], recent_conflicts: contact?.report?.recent_conflicts ?? [] };
  }

  /** Stores silent for longer than the offline age. */
  silentStores(): number {
    return this.stores().filter((store) => store.silent).length;
  }

  private storeOf(row: StoreRow): FleetStore {
    const contact = this.contacts.of(row.node_id);
    const report = contact?.report ?? null;
    const lastContact = [row.pushed_at, row.pulled_at, contact?.last_contact_at ?? null].reduce<string | null>(
      (latest, at) => (at !== null && (latest === null || at > latest) ? at : latest),
      null,
    );
    const silenceMs = lastContact === null ? null : Math.max(0, this.clock() - Date.parse(lastContact));
    return {
      node_id: row.node_id,
      name: row.name,
      last_contact_at: lastContact,
      seconds_since_contact: silenceMs === null ? null : Math.round(silenceMs / 1000),
      silent: silenceMs !== null && silenceMs > this.offlineAgeMs,
      generation: row.generation,
      last_pushed_seq: row.last_seq,
      outbox_pending: report?.outbox_pending ?? null,
      outbox_oldest_age_seconds: report?.outbox_oldest_age_seconds ?? null,
      feed_lag_rows: report?.feed_lag_rows ?? null,
      feed_lag_seconds: report?.feed_lag_seconds ?? null,
      conflicts: report?.conflicts ?? null,
      reported_at: contact?.reported_at ?? null,
      rejected_commands: report?.rejected_commands ?? contact?.rejected_commands ?? 0,
      applied_commands: contact?.applied_commands ?? 0,
      rejected_since_start: contact?.rejected_commands ?? 0,
      schema_version: contact?.schema_version ?? null,
      protocol_version: contact?.protocol_version ?? null,
    };
  }
}
