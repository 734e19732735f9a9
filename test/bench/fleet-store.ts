/**
 * One store of the fleet bench (fleet.bench.ts): a store daemon — the app, its HTTP server
 * and its sync parts — on a clock the bench moves, driven over IPC. Arguments: data folder,
 * hub URL, node name, node secret, the clock's start (ms), retention.local_days.
 *
 * Messages `{ id, op, … }`, each answered `{ id, result }` or `{ id, error }`:
 * - `advance { to }`: the clock moves to `to` and stands there;
 * - `run`: the clock runs on from where it stands, as a wall clock does (a store's clock
 *   moves between its bills; one standing still stamps them all in one millisecond);
 * - `round`: one sync round now (bootstrap if needed, push, pull, retention);
 * - `sell { bills }`: send-purchase of each bill over HTTP, four at a time; → answered, failed;
 * - `stats { customers, at }`: the database's used and file bytes, the bytes of each table
 *   with its indexes (SQLite's dbstat: its pages, and the rows' content in them), the outbox
 *   depth, and a digest of the customers' balances at `at`;
 * - `pending`: the outbox's pending commands as the pusher would push them now: each push's
 *   request text (test/support/outbox.ts `pendingPushes`).
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import pino from 'pino';
import { createApp } from '../../src/root/app.js';
import { loadConfig } from '../../src/core/config.js';
import { databaseFile } from '../../src/root/node.js';
import { startServer } from '../../src/root/server.js';
import { runRound } from '../../src/sync/store/agent.js';
import { createStoreSync } from '../../src/root/store.js';
import { pushRequestText } from '../../src/sync/protocol/protocol.js';
import { demoBearer } from '../support/cluster.js';
import { pendingPushes } from '../support/outbox.js';

const [dataDir, hubUrl, nodeName, nodeSecret, startMs, localDays] = process.argv.slice(2) as [string, string, string, string, string, string];
let now = Number(startMs);
/** When the clock runs: the wall clock's reading when it was set running. */
let runningSince: number | undefined;
const clock = () => (runningSince === undefined ? now : now + Date.now() - runningSince);
const config = loadConfig({
  env: {},
  overrides: {
    mode: 'store',
    data_dir: dataDir,
    'hub.url': hubUrl,
    'node.name': nodeName,
    'node.secret': nodeSecret,
    'retention.local_days': localDays,
    'offline.max_age_hours': 24 * 365,
    'log.level': 'silent',
  },
});
const app = createApp({ config, clock, log: pino({ level: 'silent' }) });
const sync = createStoreSync(app.node, config, clock)!;
const server = await startServer(app, '127.0.0.1', 0);

type Message =
  | { id: number; op: 'advance'; to: number }
  | { id: number; op: 'run' }
  | { id: number; op: 'round' }
  | { id: number; op: 'sell'; bills: unknown[] }
  | { id: number; op: 'stats'; customers: string[]; at: number }
  | { id: number; op: 'pending' };

async function handle(message: Message): Promise<unknown> {
  switch (message.op) {
    case 'advance':
      now = message.to;
      runningSince = undefined;
      return now;
    case 'run':
      runningSince = Date.now();
      return now;
    case 'round':
      return runRound(sync, clock);
    case 'sell':
      return sell(message.bills);
    case 'stats':
      return stats(message.customers, message.at);
    case 'pending':
      return pending();
  }
}

async function sell(bills: unknown[]): Promise<{ answered: number; failed: number; firstError?: string }> {
  // A POS logs in each shift: the clock moves by days between sales.
  const bearer = await demoBearer(server.url);
  const url = `${server.url}/rest-api/enterprise-interface/v1.0/purchases/actions/send-purchase`;
  let next = 0;
  const outcome: { answered: number; failed: number; firstError?: string } = { answered: 0, failed: 0 };
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < bills.length) {
        const bill = bills[next++];
        const response = await fetch(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
          body: JSON.stringify(bill),
        });
        const text = await response.text();
        if (response.status === 201) outcome.answered += 1;
        else {
          outcome.failed += 1;
          outcome.firstError ??= `${response.status} ${text.slice(0, 300)}`;
        }
      }
    }),
  );
  return outcome;
}

function stats(customers: string[], at: number) {
  const db = app.node.db;
  const pragma = (name: string) => db.prepare<[], number>(`PRAGMA ${name}`).pluck().get()!;
  const digest = createHash('sha256');
  for (const customer of customers) {
    const { pointsMilli, creditMinor } = app.node.balances.balancesAt(customer, at);
    digest.update(`${customer}:${pointsMilli}:${creditMinor}\n`);
  }
  return {
    usedBytes: (pragma('page_count') - pragma('freelist_count')) * pragma('page_size'),
    fileBytes: statSync(databaseFile(dataDir)).size,
    tables: Object.fromEntries(
      db
        .prepare<[], { name: string; bytes: number; payload: number }>(
          `SELECT coalesce(m.tbl_name, d.name) AS name, sum(d.pgsize) AS bytes, sum(d.payload) AS payload FROM dbstat d LEFT JOIN sqlite_schema m ON m.name = d.name GROUP BY 1`,
        )
        .all()
        .map((row) => [row.name, { bytes: row.bytes, payload: row.payload }]),
    ),
    outbox: db.prepare<[], number>("SELECT count(*) FROM outbox WHERE status = 'pending'").pluck().get()!,
    balances: digest.digest('hex'),
  };
}

function pending(): { text: string; commands: number }[] {
  const db = app.node.db;
  const generation = db.prepare<[], string>("SELECT value FROM meta WHERE key = 'generation'").pluck().get()!;
  return pendingPushes(db).map((batch) => ({
    text: pushRequestText(generation, batch),
    commands: batch.length,
  }));
}

process.on('message', (message: Message) => {
  handle(message).then(
    (result) => process.send!({ id: message.id, result }),
    (error: unknown) => process.send!({ id: message.id, error: (error as Error).message }),
  );
});
process.on('disconnect', () => {
  void server.close().then(async () => {
    await sync.client.close();
    app.close();
    process.exit(0);
  });
});
process.send!({ ready: server.url });
