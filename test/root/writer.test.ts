/**
 * A store with its writer thread (src/root/writer.ts), as `loyaltyd serve` runs it: the event
 * loop reads through a read-only connection, and every call that may write is answered by the
 * thread, which holds the read-write connection. A real server on 127.0.0.1 and a real file;
 * the thread runs on the system clock, as the daemon's does.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { loadConfig } from '../../src/core/config.js';
import { DEMO_IDS, demoCredentials } from '../../src/demo/demo.js';
import { basePath } from '../../src/http/interfaces.js';
import { createApp, type App } from '../../src/root/app.js';
import { databaseFile } from '../../src/root/node.js';
import { startServer, type RunningServer } from '../../src/root/server.js';
import { Writer } from '../../src/root/writer.js';
import { bearer, call, tempDir } from '../support/server.js';
import { makeLogUnsyncable } from '../support/unsyncable-log.js';

const PETR = DEMO_IDS.customerPetr;
const PETR_CARD = '2000000000024';

let folder: string;
let writer: Writer;
let app: App;
let server: RunningServer;
let pos: Record<string, string>;

const enterprise = (path: string) => `${server.url}${basePath('enterprise')}${path}`;

function bill(id: string) {
  return {
    store_id: DEMO_IDS.storeCentral,
    cashdesk_number: 1,
    card_number: PETR_CARD,
    bill: {
      bill_id: id,
      bill_number: `N-${id}`,
      payment_time: new Date().toISOString(),
      currency_id: 'CZK',
      total_price: '200',
      bill_items: [{ plu_ids: [{ list_code: 'GLOBAL', code: '859000769' }], quantity: 2, price: 100, paid_amount: 200, bill_item_id: 1 }],
    },
  };
}

const acceptPayment = { store_id: DEMO_IDS.storeCentral, cashdesk_number: 1, card_number: PETR_CARD, payment_type: 'S', bill: bill('priced').bill };

async function available(): Promise<number> {
  const overview = await call('GET', enterprise(`/wallet/actions/points-overview?customer_id=${PETR}`), { headers: pos });
  expect(overview.status).toBe(200);
  return overview.body.data.available_points as number;
}

beforeAll(async () => {
  folder = tempDir('loyaltyd-writer-');
  const config = loadConfig({ env: {}, overrides: { data_dir: folder, 'http.port': 0, 'log.level': 'silent' } });
  writer = await Writer.start({ config, syncAgent: false, demo: true, showcase: false });
  app = createApp({ config, clock: systemClock, log: pino({ level: 'silent' }), writer });
  server = await startServer(app, '127.0.0.1', 0);
  pos = await login();
});

async function login(): Promise<Record<string, string>> {
  const answer = await call('POST', enterprise('/users/actions/login'), {
    body: {
      user_external_application_id: demoCredentials.external_application_id,
      login: demoCredentials.pos_login,
      password: demoCredentials.pos_password,
    },
  });
  expect(answer.status).toBe(200);
  return bearer(answer.body.data.bearer_token as string);
}

afterAll(async () => {
  await server?.close();
  app?.close();
  await writer?.stop();
  rmSync(folder, { recursive: true, force: true });
});

describe('a store with a writer thread', () => {
  it('answers a bill on the thread and reads it at once on the event loop, whose connection only reads', async () => {
    const before = await available();
    const sent = await call('POST', enterprise('/purchases/actions/send-purchase'), { headers: pos, body: bill('writer-1') });
    expect(sent.status).toBe(201);
    // The overview, the list and the pricing of the next bill are the event loop's reads.
    expect(await available()).toBeGreaterThan(before);
    const purchases = await call('GET', enterprise(`/purchases?customer_id=${PETR}&count=1000`), { headers: pos });
    expect(purchases.body.data.purchases.map((purchase: { purchase_id: string }) => purchase.purchase_id)).toContain(sent.body.data.purchase_id);
    const priced = await call('POST', enterprise('/purchases/actions/accept-payment'), { headers: pos, body: acceptPayment });
    expect(priced.status).toBe(200);
    expect(app.node.db.readonly).toBe(true);
    expect(app.node.durability.changes()).toBe(0);
  });

  it('answers recommendations right after bills, from the model the thread builds and the bills it holds not yet', async () => {
    for (const id of ['recommended-1', 'recommended-2', 'recommended-3']) {
      expect((await call('POST', enterprise('/purchases/actions/send-purchase'), { headers: pos, body: bill(id) })).status).toBe(201);
      const recommended = await call('GET', enterprise(`/recommendation-engine/product/actions/combined?customer_id=${PETR}&count=3`), {
        headers: pos,
      });
      expect(recommended.status, JSON.stringify(recommended.body)).toBe(200);
      expect(recommended.body.data.recommended_products_list).toHaveLength(3);
    }
  });

  it('takes a login made on the thread at once on the event loop, whose session cache it had already filled', async () => {
    expect(await available()).toBeGreaterThan(0);
    const second = await login();
    const read = await call('GET', enterprise(`/wallet/actions/points-overview?customer_id=${PETR}`), { headers: second });
    expect(read.status).toBe(200);
  });

  it('refuses a body nested too deeply to be copied to the thread with a 400, and goes on answering', async () => {
    const depth = 20_000;
    const nested = await fetch(enterprise('/cards'), {
      method: 'POST',
      headers: { ...pos, 'content-type': 'application/json' },
      body: `{"card":${'['.repeat(depth)}${']'.repeat(depth)}}`,
    });
    expect(nested.status).toBe(400);
    const refusal = (await nested.json()) as { error: { exception: string; error_data: { invalid_params: { name: string }[] } } };
    expect(refusal.error.exception).toBe('invalid_params_exception');
    expect(refusal.error.error_data.invalid_params[0]!.name).toBe('body');
    expect((await call('POST', enterprise('/purchases/actions/send-purchase'), { headers: pos, body: bill('after-nested') })).status).toBe(201);
  });

  it("answers the thread's refusals in the API's error shape", async () => {
    const missing = await call('POST', enterprise('/purchases/actions/send-purchase'), {
      headers: pos,
      body: { ...bill('writer-2'), store_id: undefined },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.exception).toBe('invalid_params_exception');
    expect(missing.body.error.error_data.invalid_params.map((param: { name: string }) => param.name)).toContain('store_id');
    const again = await call('POST', enterprise('/purchases/actions/send-purchase'), { headers: pos, body: bill('writer-1') });
    expect(again.status).toBe(400);
    expect(again.body.error.error_data.invalid_params[0]).toMatchObject({ name: 'bill.bill_id', reason: 'already_exists', value: 'writer-1' });
  });

  it('keeps the answers of calls sent with an Idempotency-Key on the thread, a pricing among them', async () => {
    const headers = { ...pos, 'idempotency-key': 'writer-key-1' };
    const body = bill('writer-3');
    const first = await call('POST', enterprise('/purchases/actions/send-purchase'), { headers, body });
    const replay = await call('POST', enterprise('/purchases/actions/send-purchase'), { headers, body });
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    const priced = { ...pos, 'idempotency-key': 'writer-key-2' };
    const firstPrice = await call('POST', enterprise('/purchases/actions/accept-payment'), { headers: priced, body: acceptPayment });
    const otherBody = await call('POST', enterprise('/purchases/actions/accept-payment'), {
      headers: priced,
      body: { ...acceptPayment, max_points: '1' },
    });
    expect(firstPrice.status).toBe(200);
    expect(otherBody.status).toBe(422);
    const kept = app.node.db.prepare('SELECT count(*) AS n FROM idempotency_keys WHERE key IN (?, ?)').get('writer-key-1', 'writer-key-2') as {
      n: number;
    };
    expect(kept.n).toBe(2);
  });

  it.runIf(process.platform === 'linux')('runs the thread five nice levels below the event loop, on Linux', () => {
    const niceOf = (task: string) => Number(readFileSync(`/proc/${process.pid}/task/${task}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
    const eventLoop = niceOf(String(process.pid));
    expect(readdirSync(`/proc/${process.pid}/task`).map(niceOf)).toContain(Math.min(19, eventLoop + 5));
  });

  it("shows the thread's log flushes in /metrics", async () => {
    const metrics = await call('GET', `${server.url}/metrics`);
    const line = String(metrics.body)
      .split('\n')
      .find((text) => text.startsWith('loyaltyd_wal_flushes_total '));
    expect(Number(line?.split(' ')[1])).toBeGreaterThan(0);
  });

  it('answers 500 to a bill whose flush failed; then the thread syncs its own commits, and that bill sent again is stored once', async () => {
    const flushes = async () => {
      const metrics = String((await call('GET', `${server.url}/metrics`)).body);
      return Number(/^loyaltyd_wal_flushes_total (\d+)$/m.exec(metrics)![1]);
    };
    const send = (id: string) => call('POST', enterprise('/purchases/actions/send-purchase'), { headers: pos, body: bill(id) });
    expect((await send('flushed-1')).status).toBe(201);
    const restore = makeLogUnsyncable(`${databaseFile(folder)}-wal`);
    try {
      const failed = await send('flush-failed');
      expect(failed.status).toBe(500);
      expect(failed.body.error.exception).toBe('internal_server_error_exception');
    } finally {
      restore();
    }
    const flushed = await flushes();
    expect((await send('synced-itself')).status).toBe(201);
    const again = await send('flush-failed');
    expect(again.status).toBe(400);
    expect(again.body.error.error_data.invalid_params[0]).toMatchObject({ name: 'bill.bill_id', reason: 'already_exists' });
    expect(await flushes()).toBe(flushed);
  });

  it('is healthy while the thread probes its connection; once the thread stopped, /health says so and writes answer 503', async () => {
    const healthy = await call('GET', `${server.url}/health`);
    expect(healthy.status).toBe(200);
    expect(healthy.body.reasons).toEqual([]);
    await writer.stop();
    const degraded = await call('GET', `${server.url}/health`);
    expect(degraded.status).toBe(503);
    expect(degraded.body.reasons.join(' ')).toContain('writer thread stopped');
    const refused = await call('POST', enterprise('/purchases/actions/send-purchase'), { headers: pos, body: bill('writer-4') });
    expect(refused.status).toBe(503);
    expect(refused.body.error.exception).toBe('service_unavailable_exception');
    expect(await available()).toBeGreaterThan(0);
  });
});
