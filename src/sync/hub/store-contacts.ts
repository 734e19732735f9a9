/**
 * What the hub hears from each store, kept in memory while it runs: when the store last
 * called, with which protocol and schema version, the figures it last reported
 * (src/sync/store/store-report.ts), the commands of its the hub applied and rejected since the
 * hub started, and its recent exchanges — the rounds as the hub sees them. Persistent
 * progress (the last pushed seq, the last contact before a restart) stays in the database
 * (`sync_node_progress`, `sync_node_clocks`); this is the part a restart may forget until
 * the store's next round tells it again.
 */
import type { Clock } from '../../core/clock.js';
import type { StoreReport } from '../store/store-report.js';

/** Exchanges kept per store. */
export const KEPT_EXCHANGES = 20;

export interface Exchange {
  at: string;
  kind: 'push' | 'pull' | 'snapshot';
  status: number;
  ms: number;
  /** A push: commands sent, applied, rejected. */
  commands?: number;
  applied?: number;
  rejected?: number;
  /** A pull: changes sent. */
  changes?: number;
}

export interface StoreContact {
  last_contact_at: string;
  protocol_version: number | null;
  schema_version: number | null;
  report: StoreReport | null;
  reported_at: string | null;
  applied_commands: number;
  rejected_commands: number;
  exchanges: Exchange[];
}

export class StoreContacts {
  private readonly stores = new Map<string, StoreContact>();

  constructor(private readonly clock: Clock) {}

  /** A store called: its versions as it sent them, and its report when it sent one. */
  heard(nodeId: string, versions: { protocol: number | null; schema: number | null }, report: StoreReport | undefined): void {
    const now = new Date(this.clock()).toISOString();
    const contact = this.contactOf(nodeId, now);
    contact.last_contact_at = now;
    contact.protocol_version = versions.protocol;
    contact.schema_version = versions.schema;
    if (report) {
      contact.report = report;
      contact.reported_at = now;
    }
  }

  /** The hub answered one of the store's calls. */
  exchanged(nodeId: string, exchange: Exchange): void {
    const contact = this.contactOf(nodeId, exchange.at);
    contact.applied_commands += exchange.applied ?? 0;
    contact.rejected_commands += exchange.rejected ?? 0;
    contact.exchanges = [exchange, ...contact.exchanges].slice(0, KEPT_EXCHANGES);
  }

  of(nodeId: string): StoreContact | undefined {
    return this.stores.get(nodeId);
  }

  /** Every store heard from since the hub started, by node id. */
  all(): ReadonlyMap<string, StoreContact> {
    return this.stores;
  }

  private contactOf(nodeId: string, now: string): StoreContact {
    let contact = this.stores.get(nodeId);
    if (!contact) {
      contact = {
        last_contact_at: now,
        protocol_version: null,
        schema_version: null,
        report: null,
        reported_at: null,
        applied_commands: 0,
        rejected_commands: 0,
        exchanges: [],
      };
      this.stores.set(nodeId, contact);
    }
    return contact;
  }
}
