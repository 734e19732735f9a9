/**
 * What a store with a valid node secret reads at the hub (DESIGN §5: reads are the node's,
 * credentials stay at the hub): a history read it forwards is answered only for a caller the
 * hub knows to act at that node — a POS user of one of its stores, or a customer-app token in
 * the customer interface — and refused (403) for an anonymous or api-user caller, another
 * store's user, a head-office user, or a token in the enterprise interface; its snapshot and
 * feed carry no customer's password hash and no other store's users. Beside it an honest store
 * syncs and reads its history from the hub as before.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../../src/auth/secrets.js';
import { schemaVersion } from '../../../../src/db/migrate.js';
import { DEMO_IDS, demoCredentials } from '../../../../src/demo/demo.js';
import type { Principal } from '../../../../src/http/principal.js';
import { basePath } from '../../../../src/http/interfaces.js';
import { SOURCE_HEADER } from '../../../../src/http/history-reads.js';
import { createStoreSync } from '../../../../src/root/store.js';
import { PRINCIPAL_HEADER, PROTOCOL_VERSION, TOKEN_HEADER } from '../../../../src/sync/protocol/protocol.js';
import { runRound } from '../../../../src/sync/store/agent.js';
import type { SyncParts } from '../../../../src/sync/store/sync-parts.js';
import { expectError } from '../../../support/expect-error.js';
import { basic, call, demoPosLogin, startTestServer, tempDir, type TestServer } from '../../../support/server.js';

const enterprise = basePath('enterprise');
const customer = basePath('customer');

let hub: TestServer;
let honest: TestServer;
let honestDir: string;
let honestSync: SyncParts;
/** The hostile node: it serves the airport store; the honest one the central store, whose POS user the demo's is. */
let attacker: { node_name: string; node_secret: string };
const ids: Record<'pos' | 'airportUser' | 'headOffice' | 'apiUser', string> = { pos: '', airportUser: '', headOffice: '', apiUser: '' };
let janasToken: string;

const idOf = (sql: string, value: string) => hub.app.node.db.prepare<[string], string>(sql).pluck().get(value)!;

const syncHeaders = () => ({
  ...basic(attacker.node_name, attacker.node_secret),
  'x-loyaltyd-protocol': String(PROTOCOL_VERSION),
  'x-loyaltyd-schema': String(schemaVersion()),
});

/** A history read as the hostile store crafts it, naming whom it likes. */
const forwarded = (path: string, principal: Principal) =>
  call('GET', `${hub.url}/sync/v1/history${path}`, {
    headers: { ...syncHeaders(), [PRINCIPAL_HEADER]: Buffer.from(JSON.stringify(principal)).toString('base64url') },
  });

const user = (userId: string): Principal => ({ kind: 'user', userId, scheme: 'bearer' });

beforeAll(async () => {
  hub = await startTestServer({ config: { mode: 'hub' } });
  attacker = hub.app.services.nodes.add('store-hostile', [DEMO_IDS.storeAirport]);
  const app = demoCredentials.external_application_id;
  const newUser = (login: string, storeId: string | null) =>
    hub.app.services.users.create({ login, password: 'a-password-1', externalApplicationId: app, legacyBasic: false, storeId });
  ids.airportUser = (await newUser('till-airport', DEMO_IDS.storeAirport)).user_id;
  ids.headOffice = (await newUser('back-office', null)).user_id;
  ids.pos = idOf('SELECT id FROM users WHERE login = ?', demoCredentials.pos_login);
  ids.apiUser = idOf('SELECT id FROM api_users WHERE user_name = ?', demoCredentials.api_user);
  // Jana logged in by the hub for the attacker's own app: a session of that node (src/sync/store/hub-sessions.ts).
  const secret = 'a-token-of-the-attacker';
  janasToken = sha256Hex(secret);
  const forwardedToken = {
    id: janasToken,
    api_user_id: ids.apiUser,
    external_application_id: app,
    device: '{}',
    setup: '{}',
    push_token: null,
  };
  const login = await call('POST', `${hub.url}/sync/v1/sessions${customer}/tokens/${janasToken}/actions/login`, {
    headers: {
      ...syncHeaders(),
      [PRINCIPAL_HEADER]: Buffer.from(JSON.stringify({ kind: 'token', apiUserId: ids.apiUser, tokenId: janasToken, customerId: null })).toString(
        'base64url',
      ),
      [TOKEN_HEADER]: Buffer.from(JSON.stringify(forwardedToken)).toString('base64url'),
    },
    body: { login_type: 'email', login_value: demoCredentials.customer_email, password: demoCredentials.customer_password },
  });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  // A sale at the hub, so that a read answered shows the chain's purchases.
  const sold = await call('POST', `${hub.api('enterprise')}/points/actions/assign-points`, {
    headers: await demoPosLogin(hub),
    body: { customer_id: DEMO_IDS.customerEva, amount: 7 },
  });
  expect(sold.status).toBe(204);

  const credentials = hub.app.services.nodes.add('store-honest', [DEMO_IDS.storeCentral]);
  honestDir = tempDir();
  honest = await startTestServer({
    demo: false,
    dataDir: honestDir,
    config: { 'hub.url': hub.url, 'node.name': credentials.node_name, 'node.secret': credentials.node_secret },
  });
  honestSync = createStoreSync(honest.app.node, honest.config, honest.clock.now)!;
  expect(await runRound(honestSync, honest.clock.now)).toMatchObject({ ok: true, bootstrapped: true });
});

afterAll(async () => {
  await honestSync?.client.close();
  await honest?.close();
  await hub?.close();
  rmSync(honestDir, { recursive: true, force: true });
});

describe("a hostile store's history reads at the hub", () => {
  it('for an anonymous caller answer 403, in either interface', async () => {
    expectError(await forwarded(`${enterprise}/purchases`, { kind: 'anonymous' }), 403, 'forbidden_exception');
    expectError(await forwarded(`${customer}/points`, { kind: 'anonymous' }), 403, 'forbidden_exception');
  });

  it('for an api user the hub holds as active answer 403, in either interface', async () => {
    expectError(await forwarded(`${enterprise}/purchases`, { kind: 'api-user', apiUserId: ids.apiUser }), 403, 'forbidden_exception');
    expectError(await forwarded(`${customer}/points`, { kind: 'api-user', apiUserId: ids.apiUser }), 403, 'forbidden_exception');
  });

  it("for another store's user, or a head-office user, answer 403", async () => {
    expectError(await forwarded(`${enterprise}/purchases`, user(ids.pos)), 403, 'forbidden_exception');
    expectError(await forwarded(`${enterprise}/points`, user(ids.headOffice)), 403, 'forbidden_exception');
  });

  it("for a customer-app token in the enterprise interface answer 403: it would read every customer's records", async () => {
    const principal: Principal = { kind: 'token', apiUserId: ids.apiUser, tokenId: janasToken, customerId: DEMO_IDS.customerJana };
    expectError(await forwarded(`${enterprise}/points`, principal), 403, 'forbidden_exception');
    const own = await forwarded(`${customer}/points`, principal);
    expect(own.status).toBe(200);
    expect(new Set(own.body.data.points.map((point: { customer_id: string }) => point.customer_id))).toEqual(new Set([DEMO_IDS.customerJana]));
  });

  it("for a user of its own store answer 200, and the honest store's POS reads its history from the hub", async () => {
    const own = await forwarded(`${enterprise}/points`, user(ids.airportUser));
    expect(own.status).toBe(200);
    expect(own.body.data.points.length).toBeGreaterThan(0);

    const read = await call('GET', `${honest.api('enterprise')}/points?customer_id=${DEMO_IDS.customerEva}`, { headers: await demoPosLogin(honest) });
    expect(read.status).toBe(200);
    expect(read.headers.get(SOURCE_HEADER)).toBe('hub');
    expect(read.body.data.points.length).toBeGreaterThan(0);
  });
});

describe("a hostile store's snapshot and feed", () => {
  it("carry no customer's password hash and the users of its own store alone", async () => {
    const snapshot = await fetch(`${hub.url}/sync/v1/snapshot?format=columns`, { headers: syncHeaders() });
    expect(snapshot.status).toBe(200);
    const rows: Record<string, Record<string, unknown>[]> = {};
    let columns: string[] = [];
    let table = '';
    for (const line of (await snapshot.text()).split('\n').filter(Boolean)) {
      const value = JSON.parse(line) as unknown;
      if (Array.isArray(value)) (rows[table] ??= []).push(Object.fromEntries(columns.map((column, index) => [column, value[index]])));
      else if (typeof value === 'object' && value !== null && 'table' in value) ({ table, columns } = value as { table: string; columns: string[] });
    }
    expect(rows.customers!.length).toBeGreaterThan(0);
    expect(rows.customers!.filter((row) => row.password_hash !== null)).toEqual([]);
    expect(rows.users!.map((row) => row.login)).toEqual(['till-airport']);

    const page = await call('GET', `${hub.url}/sync/v1/changes?after=0&limit=5000`, { headers: syncHeaders() });
    expect(page.status).toBe(200);
    const changes = page.body.changes as { entity: string; row: Record<string, unknown> | null }[];
    expect(changes.filter((change) => change.entity === 'customers').length).toBeGreaterThan(0);
    expect(changes.filter((change) => change.entity === 'customers' && change.row?.password_hash !== null)).toEqual([]);
    expect(changes.filter((change) => change.entity === 'users').map((change) => change.row?.login)).toEqual(['till-airport']);
  });
});
