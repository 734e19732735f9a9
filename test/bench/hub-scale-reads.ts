/**
 * The back office's and the customer apps' reads of a hub's history for `npm run bench
 * hub-scale`, over HTTP, one at a time, in the enterprise interface (the customer interface
 * runs the same services for the logged-in customer): a customer's purchases, a store's
 * purchases of one day, a customer's points overview, and the unfiltered purchase list with
 * its `total_items` (first pages and pages at offsets up to the furthest allowed); and a store's
 * pulls of the feed, pages of 1,000 after cursors spread over it, as a node reads them.
 */
import { MAX_OFFSET } from '../../src/core/paging.js';
import { syncHeaders } from '../support/sync-flood.js';
import type { StoreCredentials } from '../support/cluster.js';
import { DAY_MS, billOf, billsOf, scaleCustomerId, scaleStoreId, type ChainScale } from './hub-scale-chain.js';

/** Reads timed of each kind at each size: the p99 of 1,000 is the tenth slowest, where that of 200 was the second, and it moved the extrapolation by years between runs. */
const READS = 1_000;
const WARM_UP = 20;

export interface ReadTiming {
  p50: number;
  p99: number;
  /** Items listed, summed over the reads. */
  listed: number;
  totalItems: number | undefined;
}

export type ReadName =
  'purchases of a customer' | 'purchases of a store for a day' | 'points overview of a customer' | 'purchase list, unfiltered' | 'feed page of 1,000';

/** The feed a store pulls: the node reading it, and the feed's changes (their seqs run from 1). */
export interface FeedToRead {
  node: StoreCredentials;
  changes: number;
}

/** Each read's p50 and p99, after a warm-up of each. */
export async function timeReads(
  hubUrl: string,
  bearer: string,
  scale: ChainScale,
  end: number,
  feed: FeedToRead,
): Promise<Record<ReadName, ReadTiming>> {
  const api = `${hubUrl}/rest-api/enterprise-interface/v1.0`;
  // Customers who bought, spread over the chain: those of bills spread over the period.
  const customers = Array.from({ length: READS }, (_, n) => billOf(scale, end, 1 + 3 * Math.floor((n * billsOf(scale)) / 3 / READS)).customer!);
  const local = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
  const urls: Record<ReadName, (n: number) => string> = {
    'purchases of a customer': (n) => `${api}/purchases?customer_id=${scaleCustomerId(customers[n]!)}&sort_field=payment_time&sort_direction=DESC`,
    'purchases of a store for a day': (n) =>
      `${api}/purchases?store_id=${scaleStoreId((n * 7) % scale.stores)}&payment_time_from=${encodeURIComponent(local(end - DAY_MS))}&payment_time_to=${encodeURIComponent(local(end))}`,
    'points overview of a customer': (n) => `${api}/wallet/actions/points-overview?customer_id=${scaleCustomerId(customers[n]!)}`,
    'purchase list, unfiltered': (n) =>
      `${api}/purchases?sort_field=payment_time&sort_direction=DESC${n % 2 === 0 ? '' : `&offset=${Math.round((n * MAX_OFFSET) / READS / 100) * 100}`}`,
    'feed page of 1,000': (n) => `${hubUrl}/sync/v1/changes?after=${Math.floor((n * feed.changes) / READS)}&limit=1000`,
  };
  const timings = {} as Record<ReadName, ReadTiming>;
  for (const [name, url] of Object.entries(urls) as [ReadName, (n: number) => string][]) {
    const headers = name === 'feed page of 1,000' ? syncHeaders(feed.node) : { authorization: `Bearer ${bearer}` };
    await timed(WARM_UP, url, headers);
    timings[name] = await timed(READS, url, headers);
  }
  return timings;
}

async function timed(reads: number, url: (n: number) => string, headers: Record<string, string>): Promise<ReadTiming> {
  const ms: number[] = [];
  let listed = 0;
  let totalItems: number | undefined;
  for (let n = 0; n < reads; n += 1) {
    const started = performance.now();
    const response = await fetch(url(n), { headers });
    const body = (await response.json()) as { data?: { purchases?: unknown[]; total_items?: number }; changes?: unknown[] };
    ms.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`${url(n)} answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
    listed += body.data?.purchases?.length ?? body.changes?.length ?? 0;
    totalItems = body.data?.total_items ?? totalItems;
  }
  ms.sort((a, b) => a - b);
  return { p50: ms[Math.floor(ms.length / 2)]!, p99: ms[Math.floor(ms.length * 0.99)]!, listed, totalItems };
}
