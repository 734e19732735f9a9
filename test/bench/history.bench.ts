/**
 * A customer's purchase history at a hub that holds a chain's (scopes issue, history reads):
 * BENCH_HISTORY_PURCHASES (1,000,000) purchases of 100,000 customers, a third of them
 * anonymous, written into a demo hub's file before it starts; then `GET /purchases?customer_id=`
 * over HTTP for 200 customers, as each store's POS asks the hub for its customers' history.
 * A 500-store chain selling 1,000 bills a store a day takes a million purchases in two days.
 * Baseline: `GET /customers/{customer_id}` for the same customers, one row by its key.
 *
 * Then the unfiltered list, as a back office pages the chain's purchases: by every sort field
 * the list allows, both directions, each page with its `total_items`; first pages, pages at
 * offsets spread up to the furthest allowed, and one-item pages (the sort's seek and the count
 * alone). Baseline: `GET /purchases/{purchase_id}` of purchases spread over the table, one
 * purchase by its key. Target: every list's p99 at most 2× the baseline's, in the same run.
 * Last, one store's purchases (`store_id=`), a filtered list the target does not cover.
 */
import Database from 'better-sqlite3';
import { databaseFile } from '../../src/root/node.js';
import { benchDir, demoBearer, demoHubFolder, startHub } from '../support/cluster.js';
import { MAX_OFFSET } from '../../src/core/paging.js';
import { PURCHASE_SORT_FIELDS } from '../../src/features/purchases/purchases.schemas.js';
import { line, seconds, verdict } from './report.js';
import { hex } from '../support/ids.js';

const PURCHASES = Number(process.env.BENCH_HISTORY_PURCHASES ?? 1_000_000);
const CUSTOMERS = 100_000;
const READS = 200;
const customerId = (i: number) => `c0${hex(i, 24)}`;
const purchaseId = (i: number) => `p0${hex(i, 24)}`;
const STORES = 500;
const storeId = (i: number) => `s0${hex(i, 24)}`;
/** The most a list's p99 may take against one purchase read by its key. */
const LIST_TARGET = 2;
const LIST_READS = 500;
const WARM_UP = 50;
/** Reads of one store's purchases, a list filtered by a column no index of purchases leads with. */
const FILTERED_READS = 50;

export async function run(): Promise<void> {
  const hubDir = benchDir('history-hub');
  demoHubFolder(hubDir);
  const writing = performance.now();
  writeHistory(databaseFile(hubDir));
  line(
    `hub: ${PURCHASES.toLocaleString('en')} purchases of ${CUSTOMERS.toLocaleString('en')} customers`,
    `written in ${seconds(performance.now() - writing)}`,
  );
  const hub = await startHub(hubDir);
  try {
    const headers = { authorization: `Bearer ${await demoBearer(hub.url)}` };
    const api = `${hub.url}/rest-api/enterprise-interface/v1.0`;
    const customers = Array.from({ length: READS }, (_, n) => customerId((n * 7919) % CUSTOMERS));
    const history = await timed(
      customers,
      (customer) => `${api}/purchases?customer_id=${customer}&sort_field=payment_time&sort_direction=DESC`,
      headers,
    );
    const baseline = await timed(customers, (customer) => `${api}/customers/${customer}`, headers);
    line(
      `GET /purchases?customer_id= (${READS} customers)`,
      `p50 ${history.p50.toFixed(2)} ms  p99 ${history.p99.toFixed(2)} ms  (${history.purchases} purchases listed)`,
    );
    line('baseline: GET /customers/{customer_id}', `p50 ${baseline.p50.toFixed(2)} ms  p99 ${baseline.p99.toFixed(2)} ms`);
    line('ratio history / baseline, p50', `${(history.p50 / baseline.p50).toFixed(2)}×`);
    await unfilteredLists(api, headers);
  } finally {
    await hub.stop();
  }
}

/**
 * Every allowed sort of the unfiltered list against one purchase read by its key: each list read
 * alternates with a key read, so both meet the same load on a shared machine, after a warm-up.
 */
async function unfilteredLists(api: string, headers: Record<string, string>): Promise<void> {
  const reads = Array.from({ length: LIST_READS }, (_, n) => n);
  const byKey = (n: number) => `${api}/purchases/${purchaseId((n * 4999) % PURCHASES)}`;
  const pages = {
    'first page': () => '',
    'offset to 10,000': (n: number) => `&offset=${Math.round((n * MAX_OFFSET) / (LIST_READS - 1))}`,
    'count=1': () => '&count=1',
  };
  await timed(reads.slice(0, WARM_UP), byKey, headers);
  await timed(reads.slice(0, WARM_UP), (n) => `${api}/purchases?offset=${n * 100}`, headers);
  let worst = 0;
  for (const field of PURCHASE_SORT_FIELDS) {
    for (const direction of ['ASC', 'DESC']) {
      for (const [name, page] of Object.entries(pages)) {
        const [list, key] = await alternating(
          reads,
          (n) => `${api}/purchases?sort_field=${field}&sort_direction=${direction}${page(n)}`,
          byKey,
          headers,
        );
        const ratio = list.p99 / key.p99;
        worst = Math.max(worst, ratio);
        line(
          `${field} ${direction}, ${name}`,
          `p50 ${list.p50.toFixed(2)} ms  p99 ${list.p99.toFixed(2)} ms; by key p50 ${key.p50.toFixed(2)} p99 ${key.p99.toFixed(2)} ms; ${ratio.toFixed(2)}× p99; total_items ${list.totalItems}`,
        );
      }
    }
  }
  line('worst list p99 / key read p99', `${worst.toFixed(2)}× (target ≤ ${LIST_TARGET}×: ${verdict(worst, LIST_TARGET)})`);
  for (const field of PURCHASE_SORT_FIELDS) {
    const storeReads = reads.slice(0, FILTERED_READS);
    const [list, key] = await alternating(storeReads, (n) => `${api}/purchases?store_id=${storeId(n % STORES)}&sort_field=${field}`, byKey, headers);
    line(
      `store_id=, ${field} ASC (no target)`,
      `p50 ${list.p50.toFixed(2)} ms  p99 ${list.p99.toFixed(2)} ms; by key p50 ${key.p50.toFixed(2)} p99 ${key.p99.toFixed(2)} ms; ${(list.p99 / key.p99).toFixed(2)}× p99; total_items ${list.totalItems}`,
    );
  }
}

/** A read of `list` and one of `key`, in turn, for each of `reads`, timed apart. */
async function alternating(
  reads: number[],
  list: (n: number) => string,
  key: (n: number) => string,
  headers: Record<string, string>,
): Promise<[Timing, Timing]> {
  const lists: Timing[] = [];
  const keys: Timing[] = [];
  for (const n of reads) {
    lists.push(await timed([n], list, headers));
    keys.push(await timed([n], key, headers));
  }
  const summary = (one: Timing[]): Timing => ({
    ...percentiles(one.map((timing) => timing.p50).sort((a, b) => a - b)),
    purchases: 0,
    totalItems: one.at(-1)!.totalItems,
  });
  return [summary(lists), summary(keys)];
}

/** Customers, and purchases a minute apart over the chain's 500 stores, two of three naming a customer. */
function writeHistory(file: string): void {
  const db = new Database(file);
  const stamp = (ms: number) => `${hex(ms, 12)}-0000-history`;
  const customer = db.prepare('INSERT INTO customers (id, first_name, last_name, hlc, last_change) VALUES (?, ?, ?, ?, ?)');
  const purchase = db.prepare(
    'INSERT INTO purchases (id, customer_id, store_id, external_purchase_id, payment_time, total_price_minor, currency_id, hlc, last_change) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const start = Date.UTC(2025, 10, 1);
  db.transaction(() => {
    for (let i = 0; i < CUSTOMERS; i += 1) customer.run(customerId(i), `First${i}`, `Last${i}`, stamp(start), new Date(start).toISOString());
    for (let i = 0; i < PURCHASES; i += 1) {
      const at = start + i * 60_000;
      const time = new Date(at).toISOString();
      purchase.run(
        purchaseId(i),
        i % 3 === 0 ? null : customerId(i % CUSTOMERS),
        storeId(i % STORES),
        `B-${i}`,
        time,
        1000 + (i % 900),
        'CZK',
        stamp(at),
        time,
      );
    }
  })();
  db.close();
}

interface Timing {
  p50: number;
  p99: number;
  purchases: number;
  /** The last answer's. */
  totalItems: number | undefined;
}

async function timed<T>(reads: T[], url: (read: T) => string, headers: Record<string, string>): Promise<Timing> {
  const ms: number[] = [];
  let purchases = 0;
  let totalItems: number | undefined;
  for (const read of reads) {
    const started = performance.now();
    const response = await fetch(url(read), { headers });
    const body = (await response.json()) as { data?: { purchases?: unknown[]; total_items?: number } };
    ms.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`${url(read)} answered ${response.status}`);
    purchases += body.data?.purchases?.length ?? 0;
    totalItems = body.data?.total_items;
  }
  ms.sort((a, b) => a - b);
  return { ...percentiles(ms), purchases, totalItems };
}

function percentiles(sorted: number[]): { p50: number; p99: number } {
  return { p50: sorted[Math.floor(sorted.length / 2)]!, p99: sorted[Math.floor(sorted.length * 0.99)]! };
}
