/**
 * A store's reads of an original bill at the hub (`GET /sync/v1/original-bill`): the bill a
 * return at one of its stores names, which it no longer holds, or which another node serving
 * that store sold. Served only for a store the node serves, without its customer
 * (src/features/checkout/original-bills.ts), and at most `sync_limits.original_bills_per_node_day`
 * a day of the hub's time zone per node, found or not; past that 429 with Retry-After until the
 * next day, and the store's return goes on as if the hub did not answer. The counts are kept in
 * memory: a restart of the hub gives each node its day's reads again.
 */
import type { Statement } from '../../db/engine.js';
import type { Clock } from '../../core/clock.js';
import { forbidden, notFound, tooManyRequests } from '../../core/errors.js';
import { formatTimestamp, parseTimestamp } from '../../core/time.js';
import type { Db } from '../../db/open.js';

/**
 * Where the hub reads a bill by store and bill number, as it serves it to a store: without its
 * customer, card or any record naming them (src/features/checkout/original-bills.ts, `served`).
 */
export interface OriginalBillSource {
  served(storeId: string, billNumber: string): Readonly<Record<string, unknown>> | undefined;
}

export interface OriginalBillReadsOptions {
  db: Db;
  bills: OriginalBillSource;
  perNodeDay: number;
  timeZone: string;
  clock: Clock;
}

export class OriginalBillReads {
  private readonly storesOf: Statement<[string], string>;
  private readonly reads = new Map<string, { day: string; count: number }>();

  constructor(private readonly options: OriginalBillReadsOptions) {
    this.storesOf = options.db.prepare<[string], string>('SELECT store_id FROM node_stores WHERE node_id = ?').pluck();
  }

  /** The bill as a store's return needs it; throws 403 for a store the node does not serve, 429 past its reads of the day, 404 for no such bill. */
  read(nodeId: string, storeId: string, billNumber: string): Readonly<Record<string, unknown>> {
    const served = this.storesOf.all(nodeId);
    if (served.length > 0 && !served.includes(storeId))
      throw forbidden(`This node does not serve store ${storeId}: a return is made at the node's own stores`);
    this.count(nodeId);
    const bill = this.options.bills.served(storeId, billNumber);
    if (!bill) throw notFound('purchases', billNumber);
    return bill;
  }

  private count(nodeId: string): void {
    const { perNodeDay, timeZone, clock } = this.options;
    const now = clock();
    const day = formatTimestamp(now, timeZone).slice(0, 10);
    const reads = this.reads.get(nodeId);
    const count = reads?.day === day ? reads.count : 0;
    if (count >= perNodeDay) throw tooManyRequests(Math.max(1, Math.ceil((nextDayStart(day, timeZone) - now) / 1000)));
    this.reads.set(nodeId, { day, count: count + 1 });
  }
}

/** When the day after `day` (YYYY-MM-DD) begins in the time zone. */
function nextDayStart(day: string, timeZone: string): number {
  const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return parseTimestamp(`${next} 00:00:00`, timeZone)!;
}
