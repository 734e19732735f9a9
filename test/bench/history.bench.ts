/**
 * A customer's purchase history at a hub that holds a chain's (scopes issue, history reads):
 * BENCH_HISTORY_PURCHASES (1,000,000) purchases of 100,000 customers, a third of them
 * anonymous, written into a demo hub's file before it starts; then `GET /purchases?customer_id=`
 * over HTTP for 200 customers, as each store's POS asks the hub for its customers' history.
 * A 500-store chain selling 1,000 bills a store a day takes a million purchases in two days.
 * Baseline: `GET /customers/{customer_id}` for the same customers, one row by its key.
 */
import Database from 'better-sqlite3';
import { databaseFile } from '../../src/root/node.js';
import { benchDir, demoBearer, demoHubFolder, startHub } from '../support/cluster.js';
import { line, seconds } from './report.js';
import { hex } from '../support/ids.js';

const PURCHASES = Number(process.env.BENCH_HISTORY_PURCHASES ?? 1_000_000);
const CUSTOMERS = 100_000;
const READS = 200;
const customerId = (i: number) => `c0${hex(i, 24)}`;

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
  } finally {
    await hub.stop();
  }
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
        `p0${hex(i, 24)}`,
        i % 3 === 0 ? null : customerId(i % CUSTOMERS),
        `s0${hex(i % 500, 24)}`,
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

async function timed(
  customers: string[],
  url: (customer: string) => string,
  headers: Record<string, string>,
): Promise<{ p50: number; p99: number; purchases: number }> {
  const ms: number[] = [];
  let purchases = 0;
  for (const customer of customers) {
    const started = performance.now();
    const response = await fetch(url(customer), { headers });
    const body = (await response.json()) as { data?: { purchases?: unknown[] } };
    ms.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`${url(customer)} answered ${response.status}`);
    purchases += body.data?.purchases?.length ?? 0;
  }
  ms.sort((a, b) => a - b);
  return { p50: ms[Math.floor(ms.length / 2)]!, p99: ms[Math.floor(ms.length * 0.99)]!, purchases };
}
