/**
 * What a stolen store server gives away (issue 20): after its bootstrap and a day of traffic,
 * a store's database file holds no user's unsalted `legacy_basic_md5` (the hub keeps it and
 * sends users without it, src/sync/protocol/scopes.ts), no customer's password hash, and no login
 * code: codes are made and used at the hub (DESIGN §5 "Credentials stay at the hub"), which keeps
 * each as its hash under a key beside its database (src/auth/node-key.ts), so that trying every
 * code does not reverse one. Read from the files, as a thief would.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, DEMO_IDS } from '../../../src/demo/demo.js';
import { runRound } from '../../../src/sync/store/agent.js';
import type { SyncParts } from '../../../src/sync/store/sync-parts.js';
import { createStoreSync } from '../../../src/root/store.js';
import { call, demoPosLogin, demoToken, startTestServer, tempDir, TestClock, type TestServer } from '../../support/server.js';
import { hourlyBasic, md5, sha256, utcHour } from '../../support/credentials.js';

const HOUR_MS = 3_600_000;
const BACK_OFFICE_PASSWORD = 'back-office-secret-1';

let clock: TestClock;
let hub: TestServer;
let store: TestServer;
let storeDir: string;
let storeSync: SyncParts;

beforeAll(async () => {
  clock = new TestClock();
  hub = await startTestServer({ config: { mode: 'hub' }, clock });
  await hub.app.services.users.create({
    login: 'back-office',
    password: BACK_OFFICE_PASSWORD,
    externalApplicationId: demoCredentials.external_application_id,
    legacyBasic: true,
    storeId: DEMO_IDS.storeCentral,
  });
  const credentials = hub.app.services.nodes.add('store-secrets', [DEMO_IDS.storeCentral]);
  storeDir = tempDir();
  store = await startTestServer({
    demo: false,
    clock,
    dataDir: storeDir,
    config: { 'hub.url': hub.url, 'node.name': credentials.node_name, 'node.secret': credentials.node_secret },
  });
  storeSync = createStoreSync(store.app.node, store.config, clock.now)!;
  expect(await runRound(storeSync, clock.now)).toMatchObject({ ok: true, bootstrapped: true });
});

afterAll(async () => {
  await storeSync?.client.close();
  await store?.close();
  await hub?.close();
  rmSync(storeDir, { recursive: true, force: true });
});

/** A POS at the store and a customer app: bills, and login codes asked for and used. */
async function hourOfTraffic(hour: number, pos: Record<string, string>): Promise<void> {
  const bill = `secrets-${hour}`;
  const sold = await call('POST', `${store.api('enterprise')}/purchases/actions/send-purchase`, {
    headers: pos,
    body: {
      store_id: DEMO_IDS.storeCentral,
      cashdesk_number: 1,
      card_number: demoCredentials.customer_card,
      bill: {
        bill_id: bill,
        bill_number: `N-${bill}`,
        payment_time: new Date(clock.now()).toISOString().slice(0, 19).replace('T', ' '),
        currency_id: 'CZK',
        total_price: '65',
        bill_items: [
          {
            plu_ids: [{ list_code: 'GLOBAL', code: '859000771' }],
            plu_name: 'Cappuccino',
            quantity: 1,
            price: 65,
            paid_amount: 65,
            bill_item_id: 1,
            vat_rate: 21,
          },
        ],
      },
    },
  });
  expect(sold.status).toBe(201);
  // The agent pushes the bill at once: the hub makes the logins below once it holds what the store queued before them.
  expect(await runRound(storeSync, clock.now)).toMatchObject({ ok: true, rejected: 0 });
  const app = await demoToken(store);
  const login = await call('POST', `${store.api('customer')}/tokens/${app.tokenId}/actions/login`, {
    headers: app.headers,
    body: { login_type: 'card', login_value: demoCredentials.customer_card, password: demoCredentials.customer_password },
  });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  const code = await call(
    'GET',
    `${store.api('customer')}/tokens/${app.tokenId}/actions/auth-token?external_application_id=${demoCredentials.external_application_id}&token_type=2`,
    { headers: app.headers },
  );
  expect(code.status, JSON.stringify(code.body)).toBe(200);
  if (hour % 2 === 0) {
    const other = await demoToken(store);
    const used = await call('POST', `${store.api('customer')}/tokens/${other.tokenId}/actions/authentication-token-login`, {
      headers: other.headers,
      body: { token: code.body.data.authentication_token, token_request_id: code.body.data.token_request_id },
    });
    expect(used.status, JSON.stringify(used.body)).toBe(200);
  }
  expect(await runRound(storeSync, clock.now)).toMatchObject({ ok: true, rejected: 0 });
}

describe("a store's database file", () => {
  it('after its bootstrap and a day of traffic holds no legacy_basic_md5, no password hash of a customer and no login code', async () => {
    let pos: Record<string, string> = {};
    for (let hour = 0; hour < 24; hour += 1) {
      // A shift logs in every six hours, within the Bearer token's seven.
      if (hour % 6 === 0) pos = await demoPosLogin(store);
      await hourOfTraffic(hour, pos);
      clock.advance(HOUR_MS);
    }
    // The hub still answers the hourly scheme; the store, which never holds the hash, does not.
    const backOffice = hourlyBasic('back-office', BACK_OFFICE_PASSWORD, utcHour(clock.now()));
    expect((await call('GET', `${hub.api('enterprise')}/customer-external-applications`, { headers: backOffice })).status).toBe(200);
    expect((await call('GET', `${store.api('enterprise')}/customer-external-applications`, { headers: backOffice })).status).toBe(401);

    const file = join(storeDir, 'loyaltyd.sqlite');
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      expect((db.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n).toBeGreaterThanOrEqual(3);
      expect((db.prepare('SELECT count(*) AS n FROM users WHERE legacy_basic_md5 IS NOT NULL').get() as { n: number }).n).toBe(0);
      expect(db.prepare('SELECT count(*) FROM auth_tokens').pluck().get()).toBe(0);
      expect(db.prepare('SELECT count(*) FROM customers WHERE password_hash IS NOT NULL').pluck().get()).toBe(0);
      const codes = hub.app.node.db.prepare('SELECT value_hash FROM auth_tokens').pluck().all() as string[];
      expect(codes.length).toBe(24);
      const held = new Set(codes);
      for (let code = 0; code < 1_000_000; code += 1) {
        if (held.has(sha256(String(code).padStart(6, '0')))) throw new Error(`code ${code} found by trying every code`);
      }
    } finally {
      db.close();
    }
    // Nor anywhere in its pages, the log or freed space included.
    for (const path of [file, `${file}-wal`].filter(existsSync)) {
      const bytes = readFileSync(path).toString('latin1');
      expect(bytes.includes(md5(BACK_OFFICE_PASSWORD))).toBe(false);
      expect(bytes.includes(md5(demoCredentials.pos_password))).toBe(false);
    }
  });

  it('is sent a user the hub makes after its bootstrap without the legacy_basic_md5 the hub keeps', async () => {
    const password = 'back-office-secret-2';
    await hub.app.services.users.create({
      login: 'back-office-2',
      password,
      externalApplicationId: demoCredentials.external_application_id,
      legacyBasic: true,
      storeId: DEMO_IDS.storeCentral,
    });
    expect(await runRound(storeSync, clock.now)).toMatchObject({ ok: true, bootstrapped: false });
    const md5At = (server: TestServer) =>
      (
        server.app.node.db.prepare('SELECT legacy_basic_md5 AS md5 FROM users WHERE login = ?').get('back-office-2') as
          { md5: string | null } | undefined
      )?.md5;
    expect(md5At(hub)).toBe(md5(password));
    expect(md5At(store)).toBeNull();
  });

  it('of a store that held legacy_basic_md5 before it was joined to a hub no longer holds it', async () => {
    const dir = tempDir();
    try {
      const standalone = await startTestServer({ dataDir: dir, clock });
      expect((standalone.app.node.db.prepare('SELECT count(*) AS n FROM users WHERE legacy_basic_md5 IS NOT NULL').get() as { n: number }).n).toBe(1);
      await standalone.close();
      const credentials = hub.app.services.nodes.add('store-joined');
      const joined = await startTestServer({
        demo: false,
        dataDir: dir,
        clock,
        config: { 'hub.url': hub.url, 'node.name': credentials.node_name, 'node.secret': credentials.node_secret },
      });
      expect((joined.app.node.db.prepare('SELECT count(*) AS n FROM users WHERE legacy_basic_md5 IS NOT NULL').get() as { n: number }).n).toBe(0);
      await joined.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
