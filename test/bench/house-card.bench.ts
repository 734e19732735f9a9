/**
 * `npm run bench house-card`: a card used at every till (a house card) while one store of the
 * chain is silent but within the offline age, against the same bills with every store
 * reporting (the baseline). A hub process and stores in this process: store A sells bills on
 * the demo customer's card, and A and B run a round every 10 bills. In the silent run a third
 * store bootstraps and is heard from no more, so the hub's horizon stays where that store
 * reported (src/loyalty/customer-states.ts): the customer's state carries every fact since as
 * its tail, and is published whole at each push. Printed per window of bills: the state's
 * bytes at the hub, the customer-state bytes one round of A's adds to the hub's feed (what
 * every store pulls), the customer-state bytes the feed holds, A's round, and send-purchase
 * at A. `BENCH_HOUSE_BILLS` (default 1,000) sets the bills.
 */
import Database from 'better-sqlite3';
import pino from 'pino';
import { createApp } from '../../src/root/app.js';
import { systemClock } from '../../src/core/clock.js';
import { demoCredentials, DEMO_IDS } from '../../src/demo/demo.js';
import { databaseFile } from '../../src/root/node.js';
import { startServer } from '../../src/root/server.js';
import { runRound } from '../../src/sync/store/agent.js';
import { createStoreSync } from '../../src/root/store.js';
import { addNode, benchDir, demoBearer, demoHubFolder, startHub, storeConfig } from '../support/cluster.js';
import { line } from './report.js';

const BILLS = Number(process.env.BENCH_HOUSE_BILLS ?? 1000);
const ROUND_EVERY = 10;
const WINDOW = 200;

interface Window {
  bills: number;
  stateBytes: number;
  feedBytesPerRound: number;
  /** Customer-state changes the hub's feed holds: kept for sync.feed_retention_days unless newer ones replace them. */
  feedHeldBytes: number;
  roundMs: number;
  /** send-purchase at store A over the window, at the client. */
  sellP50Ms: number;
  sellP99Ms: number;
}

export async function run(): Promise<void> {
  line('bills on the house card', `${BILLS}, a round of stores A and B every ${ROUND_EVERY}`);
  const baseline = await sell(false);
  const silent = await sell(true);
  line('', 'every store reports  |  one store silent');
  for (const [index, reporting] of baseline.entries()) {
    const held = silent[index]!;
    line(`after ${reporting.bills} bills: state at the hub`, `${kb(reporting.stateBytes)}  |  ${kb(held.stateBytes)}`);
    line('  customer state a round adds to the feed', `${kb(reporting.feedBytesPerRound)}  |  ${kb(held.feedBytesPerRound)}`);
    line("  customer state held in the hub's feed", `${kb(reporting.feedHeldBytes)}  |  ${kb(held.feedHeldBytes)}`);
    line("  store A's round", `${reporting.roundMs.toFixed(1)} ms  |  ${held.roundMs.toFixed(1)} ms`);
    line(
      '  send-purchase at store A, p50 / p99',
      `${ms(reporting.sellP50Ms)} / ${ms(reporting.sellP99Ms)}  |  ${ms(held.sellP50Ms)} / ${ms(held.sellP99Ms)}`,
    );
  }
  const last = baseline[baseline.length - 1]!;
  const lastHeld = silent[silent.length - 1]!;
  line(
    'ratio silent / reporting, last window',
    `state ${(lastHeld.stateBytes / last.stateBytes).toFixed(0)}×, a round's feed bytes ${(lastHeld.feedBytesPerRound / last.feedBytesPerRound).toFixed(0)}×, round ${(lastHeld.roundMs / last.roundMs).toFixed(1)}×, send-purchase p50 ${(lastHeld.sellP50Ms / last.sellP50Ms).toFixed(1)}×`,
  );
}

async function sell(withSilentStore: boolean): Promise<Window[]> {
  const hubDir = benchDir('house-hub');
  demoHubFolder(hubDir);
  const hub = await startHub(hubDir);
  try {
    return await sellThrough(hubDir, hub.url, withSilentStore);
  } finally {
    await hub.stop();
  }
}

async function sellThrough(hubDir: string, hubUrl: string, withSilentStore: boolean): Promise<Window[]> {
  const stores = [];
  for (const name of withSilentStore ? ['a', 'b', 'silent'] : ['a', 'b']) {
    const config = storeConfig(benchDir(`house-${name}`), hubUrl, addNode(hubDir, name));
    const app = createApp({ config, clock: systemClock, log: pino({ level: 'silent' }) });
    const sync = createStoreSync(app.node, config, systemClock)!;
    const first = await runRound(sync, systemClock);
    if (!first.ok) throw new Error(`store ${name} did not bootstrap: ${first.error}`);
    stores.push({ app, sync, server: await startServer(app, '127.0.0.1', 0) });
  }
  const [a, b] = stores as [(typeof stores)[0], (typeof stores)[0]];
  const hubDb = new Database(databaseFile(hubDir), { readonly: true });
  const stateBytes = hubDb
    .prepare<[string], number>('SELECT length(lots) + length(tail) + length(credit_tail) FROM customer_states WHERE id = ?')
    .pluck();
  const feedBytes = hubDb
    .prepare<[number], number>("SELECT coalesce(sum(length(row)), 0) FROM changes WHERE seq > ? AND entity = 'customer_states'")
    .pluck();
  const feedHeld = hubDb.prepare<[], number>("SELECT coalesce(sum(length(row)), 0) FROM changes WHERE entity = 'customer_states'").pluck();
  const lastSeq = hubDb.prepare<[], number>('SELECT coalesce(max(seq), 0) FROM changes').pluck();
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${await demoBearer(a.server.url)}` };
  const windows: Window[] = [];
  let roundMs = 0;
  let feed = 0;
  let sells: number[] = [];
  try {
    for (let n = 1; n <= BILLS; n += 1) {
      const sent = performance.now();
      const response = await fetch(`${a.server.url}/rest-api/enterprise-interface/v1.0/purchases/actions/send-purchase`, {
        method: 'POST',
        headers,
        body: JSON.stringify(bill(n)),
      });
      if (response.status !== 201) throw new Error(`send-purchase answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
      sells.push(performance.now() - sent);
      if (n % ROUND_EVERY !== 0) continue;
      const before = lastSeq.get()!;
      const started = performance.now();
      const round = await runRound(a.sync, systemClock);
      roundMs += performance.now() - started;
      feed += feedBytes.get(before)!;
      const other = await runRound(b.sync, systemClock);
      if (!round.ok || !other.ok) throw new Error(`a round failed: ${round.error ?? other.error}`);
      if (n % WINDOW !== 0) continue;
      const rounds = WINDOW / ROUND_EVERY;
      sells.sort((x, y) => x - y);
      const sellP50Ms = sells[Math.floor(sells.length / 2)]!;
      const sellP99Ms = sells[Math.floor(sells.length * 0.99)]!;
      windows.push({
        bills: n,
        stateBytes: stateBytes.get(DEMO_IDS.customerJana) ?? 0,
        feedBytesPerRound: feed / rounds,
        feedHeldBytes: feedHeld.get()!,
        roundMs: roundMs / rounds,
        sellP50Ms,
        sellP99Ms,
      });
      roundMs = 0;
      feed = 0;
      sells = [];
    }
  } finally {
    hubDb.close();
    for (const store of stores) {
      await store.sync.client.close();
      await store.server.close();
      store.app.close();
    }
  }
  return windows;
}

function bill(n: number): unknown {
  return {
    store_id: DEMO_IDS.storeCentral,
    cashdesk_number: 1,
    card_number: demoCredentials.customer_card,
    bill: {
      bill_id: `house-${n}`,
      payment_time: new Date().toISOString(),
      currency_id: 'CZK',
      total_price: '300',
      bill_items: [{ plu_ids: [{ list_code: 'GLOBAL', code: '859000769' }], quantity: 3, price: 100, paid_amount: 300, bill_item_id: 1 }],
    },
  };
}

function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}
