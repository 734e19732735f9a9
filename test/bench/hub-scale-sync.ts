/**
 * A store against a hub of a chain's history, for `npm run bench hub-scale`: its bootstrap (a
 * store daemon in this process, as the sync bench runs it: the snapshot of the chain's
 * customers, cards and states, then the feed), then a catch-up — the hub stopped, the store
 * takes BENCH_HUB_CATCHUP send-purchase bills with a card over its HTTP API, the hub comes
 * back on the same port, and the store's queue is pushed and applied, timed from the first
 * push to the drained outbox. On PostgreSQL the statements the hub sent during the catch-up are
 * counted too (hub-scale-postgres.ts).
 *
 * The hub lets a node's reads take its whole loop (`sync_limits.reads_ms_per_second` 1,000):
 * the bench times the feed's pages back to back, which a node's read budget would refuse.
 */
import pino from 'pino';
import { demoBill } from './demo-bills.js';
import { systemClock } from '../../src/core/clock.js';
import { DEMO_IDS } from '../../src/demo/demo.js';
import { createApp } from '../../src/root/app.js';
import { startServer } from '../../src/root/server.js';
import { createStoreSync } from '../../src/root/store.js';
import { runRound } from '../../src/sync/store/agent.js';
import { BIN } from '../support/cli.js';
import { benchDir, demoBearer, type ServerProcess, spawnServer, storeConfig } from '../support/cluster.js';
import { scaleCardNumber, type ChainScale } from './hub-scale-chain.js';

const CATCH_UP = Number(process.env.BENCH_HUB_CATCHUP ?? 5_000);
const DESKS = 8;

export interface StoreRun {
  bootstrapMs: number;
  bootstrapRows: number;
  /** The hub's start on its file after the outage. */
  restartMs: number;
  catchUp: number;
  catchUpMs: number;
  /** Statements the hub sent during the catch-up, where they are counted. */
  statements?: number;
}

export interface StatementCounter {
  reset(): Promise<void>;
  count(): Promise<number>;
}

/** The hub serving `hubDir` on `port` (its database where `env` says), and how long it took to print its serving line. */
export async function serveHub(hubDir: string, port: number, env: Record<string, string> = {}): Promise<{ hub: ServerProcess; ms: number }> {
  const started = performance.now();
  const hub = await spawnServer([BIN, 'serve', '--mode', 'hub', '--data-dir', hubDir, '--host', '127.0.0.1', '--port', String(port)], {
    LOYALTYD_LOG_LEVEL: 'warn',
    LOYALTYD_SYNC_LIMITS__READS_MS_PER_SECOND: '1000',
    LOYALTYD_SYNC_LIMITS__READS_BURST_MS: '60000',
    ...env,
  });
  return { hub, ms: performance.now() - started };
}

/** Bootstraps a store from the hub serving on `port`, then its catch-up; the hub is running again when this returns. */
export async function storeRun(
  hubDir: string,
  port: number,
  running: { hub: ServerProcess },
  credentials: { node_name: string; node_secret: string },
  scale: ChainScale,
  hubEnv: Record<string, string> = {},
  statements?: StatementCounter,
): Promise<StoreRun> {
  const config = storeConfig(benchDir('hub-scale-store'), `http://127.0.0.1:${port}`, credentials);
  const app = createApp({ config, clock: systemClock, log: pino({ level: 'silent' }) });
  const server = await startServer(app, '127.0.0.1', 0);
  const sync = createStoreSync(app.node, config, systemClock)!;
  try {
    let started = performance.now();
    const first = await runRound(sync, systemClock);
    const bootstrapMs = performance.now() - started;
    if (!first.ok || !first.bootstrapped) throw new Error(`bootstrap failed: ${JSON.stringify(first)}`);
    const bootstrapRows = app.node.db
      .prepare<[], number>('SELECT (SELECT count(*) FROM customers) + (SELECT count(*) FROM cards) + (SELECT count(*) FROM customer_states)')
      .pluck()
      .get()!;
    await running.hub.stop();
    await queueBills(server.url, scale, credentials.node_name);
    const back = await serveHub(hubDir, port, hubEnv);
    running.hub = back.hub;
    await statements?.reset();
    started = performance.now();
    const pushed = await sync.pusher.pushAll();
    const catchUpMs = performance.now() - started;
    const sent = await statements?.count();
    if (pushed.sent !== CATCH_UP || pushed.rejected > 0 || (pushed.held ?? 0) > 0) {
      const reasons = app.node.db.prepare<[], { status: string; reason: string; n: number }>(
        'SELECT status, reason, count(*) AS n FROM unapplied_commands GROUP BY status, reason ORDER BY n DESC LIMIT 5',
      );
      throw new Error(`catch-up: ${JSON.stringify(pushed)}, the hub's reasons: ${JSON.stringify(reasons.all())}`);
    }
    return { bootstrapMs, bootstrapRows, restartMs: back.ms, catchUp: CATCH_UP, catchUpMs, ...(sent === undefined ? {} : { statements: sent }) };
  } finally {
    await sync.client.close();
    // The daemon's checkpointer is a worker thread that does not hold the process.
    const holding = setInterval(() => {}, 1000);
    await server.close();
    clearInterval(holding);
    app.close();
  }
}

/**
 * CATCH_UP send-purchase bills with the cards of customers across the chain, DESKS at a time;
 * each must be answered 201. Their bill ids carry the node's name: a hub measured on both
 * engines holds the first store's bills when the second sells at the same store.
 */
async function queueBills(storeUrl: string, scale: ChainScale, nodeName: string): Promise<void> {
  const bearer = await demoBearer(storeUrl);
  const url = `${storeUrl}/rest-api/enterprise-interface/v1.0/purchases/actions/send-purchase`;
  const paymentTime = new Date().toISOString();
  let next = 0;
  await Promise.all(
    Array.from({ length: DESKS }, async () => {
      while (next < CATCH_UP) {
        const i = next++;
        const bill = demoBill(i, `catch-up-${nodeName}-${i}`, paymentTime);
        const body = {
          store_id: DEMO_IDS.storeCentral,
          cashdesk_number: 1 + (i % DESKS),
          card_number: scaleCardNumber((i * 7_919) % scale.customers),
          bill,
        };
        const response = await fetch(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const text = await response.text();
        if (response.status !== 201) throw new Error(`send-purchase answered ${response.status}: ${text.slice(0, 300)}`);
      }
    }),
  );
}
