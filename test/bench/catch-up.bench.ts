/**
 * `npm run bench catch-up`: a cash desk while its store catches up after an outage. A hub and a
 * store, each a `loyaltyd serve` process (the store with its writer thread), syncing every
 * second; the hub holds the demo chain and a pool of 2,000 customers (test/support/customer-pool.ts).
 *
 * 1. At rest: send-purchase at 100 req/s (10 desks) for BENCH_SECONDS (10) on the store,
 *    its outbox drained: the baseline.
 * 2. The hub stops; the store takes BENCH_CATCH_UP_BILLS (20,000) bills, 8 in flight, and
 *    queues them.
 * 3. The hub starts again on its folder and port; once the store has settled its first push,
 *    the same load runs while the store pushes, settles and pulls the rest of what it queued:
 *    its p99 against the baseline's. The bench checks that some of the queued commands were
 *    still pending when the load ended, so that every call was timed during the catch-up;
 *    then it prints the catch-up's length and its commands a second.
 * 4. The hub's back office during a catch-up: the hub, at its usual priority, is read (a
 *    customer, 100 req/s from 10 desks) for BENCH_SECONDS while idle, before part 1; after part
 *    3 it stops, the store queues BENCH_CATCH_UP_BILLS bills more, and the same read runs once
 *    the hub is back at its usual priority and the store's first push is settled, while the store
 *    pushes the rest. Target: its p99 at most 3× its p99 idle, the flood's target (npm run bench
 *    sync): a push is applied a turn of the hub's loop at a time (src/sync/hub/pushes-in-turns.ts).
 *
 * Hub, store and load share this machine's two cores, as they do not at a chain, where the hub
 * runs at head office. In parts 1 to 3 the hub's event loop, which applies the pushes, runs at
 * the lowest priority (HUB_NICENESS), so that it takes the CPU the store and the load leave, and
 * the figures are the store's own; part 4's figures are the hub's.
 */
import Database from 'better-sqlite3';
import { setPriority } from 'node:os';
import { DEMO_IDS } from '../../src/demo/demo.js';
import { databaseFile } from '../../src/root/node.js';
import { addNode, benchDir, demoBearer, demoHubFolder, freePort, startHub, startStore, type ServerProcess } from '../support/cluster.js';
import { pendingCount, pendingSpan, type PendingSpan } from '../support/outbox.js';
import { waitFor } from '../support/wait.js';
import { addCustomerPool, poolCardNumber } from '../support/customer-pool.js';
import { demoBill } from './demo-bills.js';
import { fixedRate } from './fixed-rate.js';
import { hubBackOffice } from './hub-back-office.js';
import { line, rate, seconds, verdict } from './report.js';

const BILLS = Number(process.env.BENCH_CATCH_UP_BILLS ?? 20_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CUSTOMERS = 2000;
const IN_FLIGHT = 8;
const LOAD = { desks: 10, perDesk: 10, seconds: SECONDS };
/** The hub's event loop's niceness: the lowest priority (see above). */
const HUB_NICENESS = 19;
const SEND_PURCHASE = '/rest-api/enterprise-interface/v1.0/purchases/actions/send-purchase';

export async function run(): Promise<void> {
  const hubDir = benchDir('catch-up-hub');
  demoHubFolder(hubDir);
  addCustomerPool(hubDir, CUSTOMERS);
  const port = await freePort();
  const startNicedHub = async () => {
    const hub = await startHub(hubDir, {}, port);
    setPriority(hub.pid, HUB_NICENESS);
    return hub;
  };
  // At its usual priority first, for the back office's read idle (part 4).
  let hub: ServerProcess | undefined = await startHub(hubDir, {}, port);
  const node = addNode(hubDir, 'catch-up');
  const storeDir = benchDir('catch-up-store');
  const store = await startStore(storeDir, hub.url, node, { MALLOC_ARENA_MAX: '2' });
  const outbox = new Outbox(databaseFile(storeDir));
  try {
    const bearer = await waitFor(`the demo POS user to log in at ${store.url}`, () => demoBearer(store.url), { timeoutMs: 30_000 });
    const backOffice = await hubBackOffice(hub.url, SECONDS);
    const idle = await backOffice();
    await hub.stop();
    hub = await startNicedHub();
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${bearer}` };
    const url = `${store.url}${SEND_PURCHASE}`;
    let sent = 0;
    const bill = () =>
      JSON.stringify({
        store_id: DEMO_IDS.storeCentral,
        cashdesk_number: 1,
        card_number: poolCardNumber(Math.floor(Math.random() * CUSTOMERS)),
        bill: demoBill(sent, `catch-up-${process.pid}-${(sent += 1)}`, new Date().toISOString()),
      });

    await fixedRate(url, headers, bill, LOAD);
    await outbox.drained(60_000);
    const rest = await fixedRate(url, headers, bill, LOAD);
    await outbox.drained(60_000);
    line(
      'send-purchase at 100 req/s, at rest',
      `p50 ${rest.p50} ms  p99 ${rest.p99} ms  (baseline)  ${rest.answered} answered, errors ${rest.errors}`,
    );

    await hub.stop();
    hub = undefined;
    await queue(url, headers, bill);
    const queued = outbox.pending();
    const lastQueued = outbox.lastSeq();
    line('queued while the hub was down', `${queued.toLocaleString('en')} commands`);

    hub = await startNicedHub();
    const started = performance.now();
    // The store's next round may wait out its backoff from the outage; the load starts once
    // its first push is settled, so that it is timed against the catch-up itself.
    await waitFor('the first push to be settled', () => outbox.pending() < queued || undefined, { timeoutMs: 60_000, intervalMs: 10 });
    const during = await fixedRate(url, headers, bill, LOAD);
    const left = outbox.pendingThrough(lastQueued);
    if (left === 0) throw new Error(`the store caught up before the load ended: raise BENCH_CATCH_UP_BILLS (${BILLS})`);
    const ratio = Number(during.p99) / Number(rest.p99);
    line(
      'send-purchase at 100 req/s, catching up',
      `p50 ${during.p50} ms  p99 ${during.p99} ms  (${ratio.toFixed(2)}× at rest)  ${during.answered} answered, errors ${during.errors}; ${left.toLocaleString('en')} of the queued commands left at its end`,
    );
    await waitFor('the store to push what it queued', () => outbox.pendingThrough(lastQueued) === 0 || undefined, {
      timeoutMs: 600_000,
      intervalMs: 50,
    });
    const took = performance.now() - started;
    line('caught up', `${seconds(took)} from the hub's start, ${rate(queued, took)} of the queued commands`);

    await hub.stop();
    hub = undefined;
    await queue(url, headers, bill);
    const lastAgain = outbox.lastSeq();
    hub = await startHub(hubDir, {}, port);
    await waitFor('the first push to be settled', () => outbox.pendingThrough(lastAgain) < BILLS || undefined, { timeoutMs: 60_000, intervalMs: 10 });
    const read = await backOffice();
    const unread = outbox.pendingThrough(lastAgain);
    if (unread === 0) throw new Error(`the store caught up before the hub's reads ended: raise BENCH_CATCH_UP_BILLS (${BILLS})`);
    line(
      'the hub read by its back office, idle',
      `p50 ${idle.p50} ms  p99 ${idle.p99} ms  (baseline)  ${idle.answered} answered, errors ${idle.errors}`,
    );
    const readRatio = Number(read.p99) / Number(idle.p99);
    line(
      'the hub read by its back office, a store catching up',
      `p50 ${read.p50} ms  p99 ${read.p99} ms  (${readRatio.toFixed(2)}× idle: ${verdict(readRatio, 3)} 3×)  ${read.answered} answered, errors ${read.errors}; ${unread.toLocaleString('en')} of the queued commands left at its end`,
    );
  } finally {
    outbox.close();
    await store.stop();
    await hub?.stop();
  }
}

/** BILLS bills, IN_FLIGHT at a time, each answered 201 (queued: the hub is down). */
async function queue(url: string, headers: Record<string, string>, bill: () => string): Promise<void> {
  let left = BILLS;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      for (; left > 0; left -= 1) {
        const response = await fetch(url, { method: 'POST', headers, body: bill() });
        if (response.status !== 201) throw new Error(`send-purchase answered ${response.status}: ${await response.text()}`);
      }
    }),
  );
}

/** The store's pending commands, read from its file as `sync status` counts them (by their seqs). */
class Outbox {
  private readonly db: Database.Database;
  private readonly span: PendingSpan;

  constructor(file: string) {
    this.db = new Database(file, { readonly: true, fileMustExist: true });
    this.span = pendingSpan(this.db);
  }

  pending(): number {
    return pendingCount(this.span());
  }

  /** The seq of the newest command queued. */
  lastSeq(): number {
    return this.span().last ?? 0;
  }

  /** How many of the commands up to `seq` are still pending. */
  pendingThrough(seq: number): number {
    const { first } = this.span();
    return first === null || first > seq ? 0 : seq - first + 1;
  }

  drained(timeoutMs: number): Promise<true> {
    return waitFor('the store to push everything it queued', () => this.pending() === 0 || undefined, { timeoutMs, intervalMs: 50 });
  }

  close(): void {
    this.db.close();
  }
}
