/**
 * Recommendation engine (issue 6, acceptance). A generated purchase history with planted
 * structure: 10,000 products in 40 groups, popular by a Zipf law within each group;
 * customers in 8 segments, each segment preferring 5 of the groups, each customer with a few
 * products of their own and two favourite bundles; 150 bundles of 2–3 products bought
 * together; a quarter of the bills anonymous. BENCH_BILLS (1,000,000) bills
 * over a year are written straight into SQLite; each customer's last bill is held out.
 * Prints:
 *  - model build time: the full build from every stored bill (counted and published), then
 *    the incremental update when the held-out bills arrive as new purchases, for a batch of
 *    1,000 and for the rest;
 *  - hit-rate@10 of product `combined` (a hit: any product of the held-out bill among the
 *    10) on a sample of BENCH_SAMPLE (5,000) customers, called through the service
 *    in-process, against the baseline of the chain's 10 best sellers for everyone, and the
 *    ratio (target ≥ 2×);
 *  - p50/p99 of each GET endpoint at 500 requests/s over 50 connections, over HTTP against
 *    a spawned `loyaltyd serve` on the same data (target p99 ≤ 5 ms): with the connections'
 *    requests spread over each second, as independent cash desks send them, and as
 *    autocannon's `overallRate` sends them, all at the start of each second (as the checkout
 *    bench measures). Baseline: GET /health (no credential, a few small reads) under the spread
 *    load, the floor this machine and harness set, and the ratio of each p99 to it.
 * BENCH_CUSTOMERS, BENCH_PRODUCTS and BENCH_SECONDS (each load's length) shrink it for a
 * quick look. BENCH_RECOMMEND_DIR names a folder to keep the history and its model in: a
 * later run on it measures the latencies alone (for re-runs and for profiling the daemon),
 * with customers drawn from the whole history rather than the held-out sample.
 */
import autocannon from 'autocannon';
import { existsSync, rmSync } from 'node:fs';
import pino from 'pino';
import { createApp } from '../../src/root/app.js';
import { systemClock } from '../../src/core/clock.js';
import { loadConfig } from '../../src/core/config.js';
import { loadDemo } from '../../src/demo/demo.js';
import { createRecommendations } from '../../src/features/recommendations/index.js';
import type { RequestContext } from '../../src/http/endpoint.js';
import { databaseFile, openNode } from '../../src/root/node.js';
import { BIN } from '../support/cli.js';
import { benchDir, demoBearer, spawnServer } from '../support/cluster.js';
import { line, rate, seconds, verdict } from './report.js';
import { generatedCustomerId as customerId, generatedProductId as productId, hex } from '../support/ids.js';

const BILLS = Number(process.env.BENCH_BILLS ?? 1_000_000);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 50_000);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const SAMPLE = Number(process.env.BENCH_SAMPLE ?? 5000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const GROUPS = 40;
const BRANDS = 100;
const STORES = 20;
const SEGMENTS = 8;
const BUNDLES = 150;
const DAYS = 365;
const FIRST_DAY = Date.UTC(2025, 10, 1);

const groupId = (i: number) => `b2${hex(i, 24)}`;
const brandId = (i: number) => `b9${hex(i, 24)}`;
const storeId = (i: number) => `ba${hex(i, 24)}`;

/** A seeded generator (mulberry32), so every run plants the same history. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
const random = seeded(6);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;

/** Draws an index by weight from a cumulative table. */
function drawFrom(cumulative: number[]): number {
  const target = random() * cumulative[cumulative.length - 1]!;
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (cumulative[middle]! < target) low = middle + 1;
    else high = middle;
  }
  return low;
}
const cumulativeOf = (weights: number[]) =>
  weights.map(
    (
      (sum) => (weight: number) =>
        (sum += weight)
    )(0),
  );

interface Bill {
  customer: number | null;
  store: number;
  day: number;
  products: number[];
}

/** The planted structure: who prefers what, and what goes together. */
class History {
  private readonly perGroup = Math.ceil(PRODUCTS / GROUPS);
  /** Products of a group by popularity rank: rank × GROUPS + group. */
  private readonly rankWeights = cumulativeOf(Array.from({ length: this.perGroup }, (_, rank) => 1 / (rank + 1) ** 0.9));
  private readonly groupWeights = cumulativeOf(Array.from({ length: GROUPS }, (_, group) => 1 / (group + 1) ** 0.5));
  readonly segmentGroups = Array.from({ length: SEGMENTS }, () => Array.from({ length: 5 }, () => Math.floor(random() * GROUPS)));
  readonly bundles = Array.from({ length: BUNDLES }, (_, bundle) => {
    const groups = this.segmentGroups[bundle % SEGMENTS]!;
    return Array.from({ length: 2 + Math.floor(random() * 2) }, (_, index) => this.inGroup(groups[(bundle + index) % groups.length]!, 30));
  });
  readonly customers = Array.from({ length: CUSTOMERS }, (_, customer) => {
    const segment = customer % SEGMENTS;
    const groups = this.segmentGroups[segment]!;
    return {
      segment,
      store: Math.floor(random() * STORES),
      own: Array.from({ length: 6 }, () => this.inGroup(pick(groups))),
      bundles: [0, 1].map(() => segment + SEGMENTS * Math.floor(random() * (BUNDLES / SEGMENTS))),
      // Bills in the year, the last one held out: 2 or more, 15 on average.
      bills: 2 + Math.floor(-Math.log(1 - random()) * 13),
    };
  });

  inGroup(group: number, within = this.perGroup): number {
    for (;;) {
      const product = Math.min(drawFrom(this.rankWeights), within - 1) * GROUPS + group;
      if (product < PRODUCTS) return product;
    }
  }

  anyProduct(): number {
    return this.inGroup(drawFrom(this.groupWeights));
  }

  bill(customer: number | null, day: number): Bill {
    const person = customer === null ? undefined : this.customers[customer]!;
    const segment = person?.segment ?? Math.floor(random() * SEGMENTS);
    const groups = this.segmentGroups[segment]!;
    const products = new Set<number>();
    const size = 1 + Math.min(11, Math.floor(-Math.log(1 - random()) * 2.5));
    for (let slot = 0; slot < size; slot += 1) {
      const draw = random();
      if (person && draw < 0.35) products.add(pick(person.own));
      else if (draw < 0.75) products.add(this.inGroup(pick(groups)));
      else products.add(this.anyProduct());
    }
    if (random() < 0.3) {
      const bundle = person && random() < 0.7 ? pick(person.bundles) : segment + SEGMENTS * Math.floor(random() * (BUNDLES / SEGMENTS));
      for (const product of this.bundles[bundle % BUNDLES]!) products.add(product);
    }
    const store = person && random() < 0.8 ? person.store : Math.floor(random() * STORES);
    return { customer, store, day, products: [...products] };
  }
}

export async function run(): Promise<void> {
  const kept = process.env.BENCH_RECOMMEND_DIR;
  const dataDir = kept ?? benchDir('recommend');
  const history = new History();
  if (kept && existsSync(databaseFile(kept))) {
    line('reused history and model', kept);
    await measureLatency(
      dataDir,
      Array.from({ length: 1000 }, () => Math.floor(random() * CUSTOMERS)),
      history,
    );
    return;
  }
  let started = performance.now();
  const heldOut = await generate(dataDir, history);
  line(
    `generated ${BILLS.toLocaleString('en')} bills, ${CUSTOMERS.toLocaleString('en')} customers, ${PRODUCTS.toLocaleString('en')} products`,
    seconds(performance.now() - started),
  );

  const config = loadConfig({ env: {}, overrides: { data_dir: dataDir, mode: 'store', 'log.level': 'silent' } });
  const node = openNode(config, systemClock);
  const { service, builder } = createRecommendations({
    db: node.db,
    writes: node.writes,
    nodeId: node.identity.nodeId,
    syncsWithHub: false,
    servesFeed: false,
  });
  started = performance.now();
  while (builder!.step());
  const fullMs = performance.now() - started;
  line(`full model build from ${BILLS.toLocaleString('en')} bills`, `${seconds(fullMs)}  ${rate(BILLS, fullMs)}`);

  const context: RequestContext = {
    iface: 'enterprise',
    principal: { kind: 'user', userId: 'bench', scheme: 'bearer' },
    requestId: 'bench',
    ip: '127.0.0.1',
  };
  const baseline = (
    JSON.parse(node.db.prepare<[], { products: string }>("SELECT products FROM recommendation_best_sellers WHERE id = 'chain'").get()!.products) as [
      string,
      number,
    ][]
  )
    .slice(0, 10)
    .map(([product]) => product);
  const sample = [...heldOut.keys()].sort(() => random() - 0.5).slice(0, SAMPLE);
  let hits = 0;
  let baselineHits = 0;
  started = performance.now();
  for (const customer of sample) {
    const wanted = new Set(heldOut.get(customer)!.products.map(productId));
    const { recommended_products_list: products } = service.recommend(
      'combined',
      { customer_id: customerId(customer), count: 10 },
      context,
      'customer_id',
    );
    if (products.some((product) => wanted.has(product))) hits += 1;
    if (baseline.some((product) => wanted.has(product))) baselineHits += 1;
  }
  const callMs = (performance.now() - started) / sample.length;
  const hitRate = hits / sample.length;
  const baselineRate = baselineHits / sample.length;
  line(
    `hit-rate@10, combined (${sample.length.toLocaleString('en')} customers, in-process)`,
    `${(hitRate * 100).toFixed(1)} %  (${(callMs * 1000).toFixed(0)} µs a call)`,
  );
  line("baseline: the chain's 10 best sellers", `${(baselineRate * 100).toFixed(1)} %`);
  line('ratio combined / baseline', `${(hitRate / baselineRate).toFixed(2)}×  (${verdict(hitRate / baselineRate, 2, false)} 2×)`);

  const arriving = [...heldOut.values()];
  for (const [label, bills] of [
    ['a batch of 1,000', arriving.slice(0, 1000)],
    [`the other ${Math.max(0, arriving.length - 1000).toLocaleString('en')}`, arriving.slice(1000)],
  ] as const) {
    if (bills.length === 0) continue;
    insertThroughWritePath(node, bills);
    started = performance.now();
    while (builder!.step());
    const ms = performance.now() - started;
    line(`incremental update, ${label} new bills`, `${ms.toFixed(0)} ms  (${(ms / bills.length).toFixed(3)} ms a bill)`);
  }
  node.close();

  try {
    await measureLatency(dataDir, sample.slice(0, 1000), history);
  } finally {
    // Some 2.5 GB at the full size.
    if (!kept) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Writes the history in day order, 50,000 bills a transaction; returns each customer's held-out last bill. */
async function generate(dataDir: string, history: History): Promise<Map<number, Bill>> {
  // A store with a hub configured never builds: the model is built, and timed, afterwards.
  const app = createApp({
    config: loadConfig({ env: {}, overrides: { data_dir: dataDir, mode: 'store', 'hub.url': 'http://127.0.0.1:9' } }),
    clock: systemClock,
    log: pino({ level: 'silent' }),
  });
  await loadDemo(app);
  const db = app.node.db;
  const stamp = (n: number) => `${hex(FIRST_DAY + n, 12)}-0000-bench000`;
  const now = new Date().toISOString();
  db.transaction(() => {
    for (let g = 0; g < GROUPS; g += 1)
      db.prepare('INSERT INTO product_groups (id, name, hlc, last_change) VALUES (?, ?, ?, ?)').run(groupId(g), `Group ${g}`, stamp(0), now);
    for (let b = 0; b < BRANDS; b += 1)
      db.prepare('INSERT INTO product_brands (id, name, hlc, last_change) VALUES (?, ?, ?, ?)').run(brandId(b), `Brand ${b}`, stamp(0), now);
    const product = db.prepare(
      'INSERT INTO products (id, name, code, product_group_id, product_brand_id, hlc, last_change) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    for (let p = 0; p < PRODUCTS; p += 1)
      product.run(productId(p), `Product ${p}`, `P${p}`, groupId(p % GROUPS), brandId(((p % GROUPS) * 5 + (p % 5)) % BRANDS), stamp(0), now);
    const customer = db.prepare('INSERT INTO customers (id, first_name, last_name, store_id, hlc, last_change) VALUES (?, ?, ?, ?, ?, ?)');
    history.customers.forEach((person, c) => customer.run(customerId(c), `First${c}`, `Last${c}`, storeId(person.store), stamp(0), now));
  })();

  // Each customer's bill days; the last one is held out.
  const byDay: number[][] = Array.from({ length: DAYS }, () => []);
  const lastDay = new Map<number, number>();
  let customerBills = 0;
  history.customers.forEach((person, c) => {
    const days = Array.from({ length: person.bills }, () => Math.floor(random() * DAYS)).sort((a, b) => a - b);
    lastDay.set(c, days.pop()!);
    for (const day of days) byDay[day]!.push(c);
    customerBills += days.length;
  });
  const anonymousPerDay = Math.max(0, BILLS - customerBills) / DAYS;

  const purchase = db.prepare(
    'INSERT INTO purchases (id, customer_id, store_id, external_purchase_id, payment_time, total_price_minor, hlc, last_change) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const item = db.prepare(
    'INSERT INTO purchase_items (id, purchase_id, product_id, price_minor, amount_milli, hlc, last_change) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  let bills = 0;
  let items = 0;
  const write = db.transaction((dayBills: Bill[]) => {
    for (const bill of dayBills) {
      const id = `b7${hex(bills, 24)}`;
      const time = new Date(FIRST_DAY + bill.day * 86_400_000 + Math.floor(random() * 43_200_000) + 28_800_000).toISOString();
      purchase.run(
        id,
        bill.customer === null ? null : customerId(bill.customer),
        storeId(bill.store),
        `B${bills}`,
        time,
        bill.products.length * 1000,
        stamp(bills),
        now,
      );
      for (const product of bill.products) {
        item.run(`b8${hex(items, 24)}`, id, productId(product), 1000, 1000, stamp(bills), now);
        items += 1;
      }
      bills += 1;
    }
  });
  let pending: Bill[] = [];
  for (let day = 0; day < DAYS; day += 1) {
    for (const c of byDay[day]!) pending.push(history.bill(c, day));
    const anonymous = Math.floor(anonymousPerDay * (day + 1)) - Math.floor(anonymousPerDay * day);
    for (let a = 0; a < anonymous; a += 1) pending.push(history.bill(null, day));
    if (pending.length >= 50_000 || day === DAYS - 1) {
      write(pending);
      pending = [];
    }
  }
  // DESIGN §7: keep sqlite_stat1, drop STAT4, which makes SQLite re-plan on every call.
  db.exec('ANALYZE');
  if (db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat4'").get()) db.exec('DELETE FROM sqlite_stat4');
  app.close();
  return new Map([...lastDay].map(([c, day]) => [c, history.bill(c, day)]));
}

/** New purchases as the API writes them: through the write path, which feeds the change feed. */
function insertThroughWritePath(node: ReturnType<typeof openNode>, bills: Bill[]): void {
  node.writes.write(null, (tx) => {
    for (const bill of bills) {
      const id = node.newId();
      tx.insert('purchases', {
        id,
        customer_id: bill.customer === null ? null : customerId(bill.customer),
        store_id: storeId(bill.store),
        external_purchase_id: `held-out-${id}`,
        payment_time: new Date(FIRST_DAY + bill.day * 86_400_000 + 64_800_000).toISOString(),
        total_price_minor: bill.products.length * 1000,
      });
      for (const product of bill.products)
        tx.insert('purchase_items', { id: node.newId(), purchase_id: id, product_id: productId(product), price_minor: 1000, amount_milli: 1000 });
    }
  });
}

async function measureLatency(dataDir: string, customers: number[], history: History): Promise<void> {
  // A store with no hub, which builds (and here has built) its model.
  const server = await spawnServer([BIN, 'serve', '--data-dir', dataDir, '--port', '0'], { LOYALTYD_LOG_LEVEL: 'warn' });
  try {
    const bearer = await demoBearer(server.url);
    const base = `/rest-api/enterprise-interface/v1.0/recommendation-engine`;
    const customer = () => `customer_id=${customerId(pick(customers))}`;
    const list = () => `product_id_list=${Array.from({ length: 20 }, () => productId(history.anyProduct())).join(',')}`;
    const cart = () => `cart_product_ids=${pick(history.bundles).slice(0, 2).map(productId).join(',')}`;
    const endpoints: [string, () => string][] = [
      ['product/eliminate', () => `${base}/product/actions/eliminate?${customer()}&${list()}`],
      ['product/order', () => `${base}/product/actions/order?${customer()}&${list()}&count=10`],
      ['product/combined', () => `${base}/product/actions/combined?${customer()}&count=10`],
      ['shopping-cart/eliminate', () => `${base}/shopping-cart/actions/eliminate?${customer()}&${cart()}&${list()}`],
      ['shopping-cart/order', () => `${base}/shopping-cart/actions/order?${cart()}&${list()}&count=10`],
      ['shopping-cart/combined', () => `${base}/shopping-cart/actions/combined?${customer()}&${cart()}&count=10`],
    ];
    const headers = { authorization: `Bearer ${bearer}` };
    // A first pass over every endpoint, unmeasured: the freshly built file is not in the page cache yet.
    await autocannon({
      url: server.url,
      headers,
      connections: 10,
      duration: 5,
      requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: pick(endpoints)[1]() }) }],
    });
    const floor = await spreadLoad(server.url, headers, () => '/health');
    line('baseline: GET /health, the same spread load', `p50 ${floor.latency.p50} ms  p99 ${floor.latency.p99} ms`);
    for (const [name, path] of endpoints) {
      const spread = await spreadLoad(server.url, headers, path);
      const bursts = await autocannon({
        url: server.url,
        headers,
        connections: 50,
        overallRate: 500,
        duration: SECONDS,
        requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: path() }) }],
      });
      line(
        `GET ${name}, 500 req/s over 50 connections`,
        `p50 ${spread.latency.p50} ms  p99 ${spread.latency.p99} ms  (${verdict(spread.latency.p99, 5)} 5 ms; ${(spread.latency.p99 / Math.max(1, floor.latency.p99)).toFixed(1)}× /health)  errors ${spread.non2xx + spread.errors}`,
      );
      line(
        '  the same as autocannon sends it, in bursts',
        `p50 ${bursts.latency.p50} ms  p99 ${bursts.latency.p99} ms  errors ${bursts.non2xx + bursts.errors}`,
      );
    }
  } finally {
    await server.stop();
  }
}

/**
 * 50 connections at 10 requests/s each, as 50 cash desks that do not wait for one another:
 * one autocannon instance per connection, started 20 ms apart. autocannon's own `overallRate`
 * sends every connection's share of a second at the start of that second, so all 500
 * requests queue at once; that figure is printed beside this one.
 */
async function spreadLoad(url: string, headers: Record<string, string>, path: () => string): Promise<autocannon.Result> {
  const desks = await Promise.all(
    Array.from({ length: 50 }, async (_, desk) => {
      await new Promise((resolve) => setTimeout(resolve, desk * 20));
      return autocannon({
        url,
        headers,
        connections: 1,
        overallRate: 10,
        duration: SECONDS,
        skipAggregateResult: true,
        requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: path() }) }],
      });
    }),
  );
  // aggregateResult is autocannon's own, for instances run with skipAggregateResult; its types omit it.
  const { aggregateResult } = autocannon as unknown as {
    aggregateResult(results: autocannon.Result[], options: { url: string; connections: number }): autocannon.Result;
  };
  return aggregateResult(desks, { url, connections: 50 });
}
