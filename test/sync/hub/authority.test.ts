/**
 * The hub owns the truth (DESIGN §5 "Authority"): a store with a valid node secret pushes
 * commands (sync protocol 3), each the operation a till served, which the hub runs again
 * through the same feature code, writing its own rows. A push whose commands carry rows is
 * refused whole; an operation its node had no right to make is rejected and listed; one past
 * the node's limits is held, counted nowhere, until an operator releases it; a stamp from the
 * future is brought back to the hub's clock and the skew listed. A real hub, a real store, HTTP
 * between them.
 */
import { readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS, DEMO_PROGRAM, demoCredentials } from '../../../src/demo/demo.js';
import { sha256Hex } from '../../../src/auth/secrets.js';
import { schemaVersion } from '../../../src/db/migrate.js';
import { basePath } from '../../../src/http/interfaces.js';
import { runRound } from '../../../src/sync/store/agent.js';
import { PROTOCOL_VERSION, type ForwardedToken } from '../../../src/sync/protocol/protocol.js';
import type { SyncParts } from '../../../src/sync/store/sync-parts.js';
import { createFeedCompaction } from '../../../src/root/hub.js';
import { createStoreSync } from '../../../src/root/store.js';
import { basic, bearer, call, startTestServer, tempDir, TestClock, type TestServer } from '../../support/server.js';
import { hex } from '../../support/ids.js';
import { count } from '../../support/node-reads.js';
import { formatTimestamp } from '../../../src/core/time.js';

const EVA = DEMO_IDS.customerEva;
const PETR = DEMO_IDS.customerPetr;
const JANA = DEMO_IDS.customerJana;
/** The demo's POS user, of the central store. */
const POS_USER = `de${(0x101).toString(16).padStart(24, '0')}`;
const API_USER = `de${(0x103).toString(16).padStart(24, '0')}`;
const ORIGIN = 'a0717e01';
const DAY_MS = 86_400_000;
const YEAR_MS = 365 * DAY_MS;

let hub: TestServer;
let hubDir: string;
let store: TestServer;
let storeSync: SyncParts;
let pushing: { node_name: string; node_secret: string };
/** The airport's till, the user the airport's nodes' operations name as their caller. */
let tillUser: string;
let ids = 0;

const newId = () => `${hex(hub.clock.now(), 12)}${hex((ids += 1), 14)}`;
const stampAt = (ms: number) => `${hex(ms, 12)}-${hex(ids % 0xffff, 4)}-${ORIGIN}`;
/** The day of an instant in the hub's time zone. */
const dayOf = (ms: number) => formatTimestamp(ms, hub.config.time_zone).slice(0, 10);
const points = (server: TestServer, customerId: string) => server.app.node.balances.balancesAt(customerId, server.clock.now()).pointsMilli;

interface Options {
  at?: number;
  principal?: Record<string, unknown>;
  ids?: string[];
  params?: Record<string, string>;
  /** The stamps of the rows the store's call wrote. */
  stamps?: string[];
}

/** A command: the API call a store served, as its write path queues it (src/core/operations.ts). */
function operation(seq: number, kind: string, body: unknown, options: Options = {}) {
  const at = options.at ?? hub.clock.now();
  const principal = options.principal ?? { kind: 'user', userId: tillUser, scheme: 'bearer' };
  return {
    seq,
    command_id: `${kind}-${seq}-${ids}`,
    kind,
    hlc: stampAt(at),
    operation: {
      call: { iface: 'enterprise', input: { params: options.params ?? {}, query: {}, body }, principal },
      as_of: at,
      ids: options.ids ?? [newId()],
      ...(options.stamps ? { stamps: options.stamps } : {}),
    },
  };
}

/** A command as earlier protocols carried it: the rows it wrote, which no hub takes. */
function rows(seq: number, kind: string, changes: { entity: string; entity_id: string; op: string; row: Record<string, unknown> | null }[]) {
  const hlc = stampAt(hub.clock.now());
  return {
    seq,
    command_id: `${kind}-${seq}-${ids}`,
    kind,
    hlc,
    operation: { ids: [] },
    changes: changes.map((change) => ({
      ...change,
      hlc,
      row: change.row && { ...change.row, hlc, last_change: new Date(hub.clock.now()).toISOString() },
    })),
  };
}

/** The headers of a sync request of `node` in `protocol`. */
const syncHeaders = (node: { node_name: string; node_secret: string }, protocol = PROTOCOL_VERSION) => ({
  ...basic(node.node_name, node.node_secret),
  'x-loyaltyd-protocol': String(protocol),
  'x-loyaltyd-schema': String(schemaVersion()),
});

/** A push of the pushing node, as the hub answers it, whatever its status. */
const pushed = (generation: string, commands: unknown[], protocol = PROTOCOL_VERSION) =>
  call('POST', `${hub.url}/sync/v1/commands`, { headers: syncHeaders(pushing, protocol), body: { generation, commands } });

async function push(generation: string, commands: unknown[]) {
  const answer = await pushed(generation, commands);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as {
    results: { seq: number; status: string; reason: string | null; rows?: { entity: string; row: Record<string, unknown> }[] }[];
    clock_skew_ms?: number;
  };
}

const AIRPORT_TILL = { login: 'till-airport', password: 'till-airport-password', storeId: DEMO_IDS.storeAirport };

/** The airport till's Bearer header at the honest store. */
async function airportTillLogin(): Promise<Record<string, string>> {
  const response = await call('POST', `${store.api('enterprise')}/users/actions/login`, {
    body: { user_external_application_id: demoCredentials.external_application_id, login: AIRPORT_TILL.login, password: AIRPORT_TILL.password },
  });
  expect(response.status).toBe(200);
  return bearer(response.body.data.bearer_token as string);
}

/** The node's pull reporting it has pushed everything: its contact with the hub, at the hub's time. */
async function contact() {
  const pulled = await call('GET', `${hub.url}/sync/v1/changes?after=0&limit=1&pushed_through=${stampAt(hub.clock.now())}`, {
    headers: {
      ...basic(pushing.node_name, pushing.node_secret),
      'x-loyaltyd-protocol': String(PROTOCOL_VERSION),
      'x-loyaltyd-schema': String(schemaVersion()),
    },
  });
  expect(pulled.status).toBe(200);
}

beforeAll(async () => {
  hubDir = tempDir();
  hub = await startTestServer({ config: { mode: 'hub' }, dataDir: hubDir });
  // The node pushing by hand serves the airport store only.
  pushing = hub.app.services.nodes.add('store-pushing', [DEMO_IDS.storeAirport]);
  const credentials = hub.app.services.nodes.add('store-honest', [DEMO_IDS.storeAirport]);
  // The demo's POS users are the central store's: the airport's till logs in as its own.
  ({ user_id: tillUser } = await hub.app.services.users.create({
    ...AIRPORT_TILL,
    externalApplicationId: demoCredentials.external_application_id,
    legacyBasic: false,
  }));
  // The store's clock stands where the hub's does, however long the hub took to start: the
  // stamps the tests make from the hub's clock are then ahead of every stamp the store made.
  store = await startTestServer({
    demo: false,
    clock: new TestClock(hub.clock.now()),
    config: { 'hub.url': hub.url, 'node.name': credentials.node_name, 'node.secret': credentials.node_secret },
  });
  storeSync = createStoreSync(store.app.node, store.config, store.clock.now)!;
  expect(await runRound(storeSync, store.clock.now)).toMatchObject({ ok: true, bootstrapped: true });
});

afterAll(async () => {
  await storeSync?.client.close();
  await store?.close();
  await hub?.close();
  rmSync(hubDir, { recursive: true, force: true });
});

describe('a store pushing rows', () => {
  it('has every row-shaped push refused whole, 409, the same commands without their rows rejected, nothing of them anywhere, and the honest operation behind them applied', async () => {
    // A point record the honest store made: its rows travel as an operation the hub ran again.
    const assigned = await call('POST', `${store.api('enterprise')}/points/actions/assign-points`, {
      headers: await airportTillLogin(),
      body: { customer_id: EVA, amount: 50 },
    });
    expect(assigned.status).toBe(204);
    expect(await runRound(storeSync, store.clock.now)).toMatchObject({ ok: true, pushed: 1, rejected: 0, held: 0 });
    const made = store.app.node.db.prepare('SELECT id, points_milli FROM point_records WHERE customer_id = ? ORDER BY hlc DESC LIMIT 1').get(EVA) as {
      id: string;
      points_milli: number;
    };
    expect(count(hub, 'SELECT count(*) AS n FROM point_records WHERE id = ? AND points_milli = 50000', made.id)).toBe(1);
    const eva = () => hub.app.node.db.prepare('SELECT email, password_hash FROM customers WHERE id = ?').get(EVA);
    const evaBefore = eva();
    const balanceBefore = points(hub, EVA);

    const record = (id: string, milli: number) => ({
      id,
      customer_id: EVA,
      kind: 'collection',
      points_milli: milli,
      point_type_id: 'manual',
      partner_id: null,
      valid_to: null,
      purchase_id: null,
      linked_point_id: null,
      created_at: new Date().toISOString(),
      state: 1,
    });
    const voucher = newId();
    const user = newId();
    const token = sha256Hex('a-token-id-the-store-chose');
    const rowShaped = [
      rows(1, 'points.assign', [{ entity: 'point_records', entity_id: made.id, op: 'insert', row: record(made.id, 0) }]),
      rows(1, 'customers.update', [
        { entity: 'customers', entity_id: EVA, op: 'update', row: { id: EVA, email: 'attacker@evil.test', password_hash: 'scrypt$evil' } },
      ]),
      rows(1, 'points.assign', [{ entity: 'point_records', entity_id: newId(), op: 'insert', row: record(newId(), 1e12) }]),
      rows(1, 'vouchers.create', [
        {
          entity: 'vouchers',
          entity_id: voucher,
          op: 'insert',
          row: { id: voucher, customer_id: EVA, reward_id: null, code: 'MILLION', value_minor: 100_000_000, state: 1 },
        },
      ]),
      rows(1, 'users.create', [{ entity: 'users', entity_id: user, op: 'insert', row: { id: user, login: 'evil', password_hash: 'x', state: 1 } }]),
      rows(1, 'rewards.delete', [{ entity: 'rewards', entity_id: 'de000000000000000000000601', op: 'delete', row: null }]),
      rows(1, 'tokens.create', [
        {
          entity: 'tokens',
          entity_id: token,
          op: 'insert',
          row: { id: token, api_user_id: API_USER, external_application_id: DEMO_IDS.app, device: '{}', setup: '{}', customer_id: EVA, state: 1 },
        },
      ]),
      // The same record as an operation, claiming it wrote the record after the store that made it, and carrying its rows.
      {
        ...operation(1, 'points.assign', { customer_id: EVA, amount: 1 }, { ids: [made.id], stamps: [stampAt(hub.clock.now() + 1000)] }),
        changes: [],
      },
    ];
    // Each behind an honest command: a push is refused whole, whatever it carries besides.
    for (const command of rowShaped) {
      const refused = await pushed('row-shaped', [operation(1, 'points.assign', { customer_id: EVA, amount: 2 }), { ...command, seq: 2 }]);
      expect(refused.status, command.kind).toBe(409);
      expect(refused.body.error, command.kind).toMatchObject({ exception: 'sync_rows_refused_exception', error_data: { command_index: 1 } });
    }
    expect(count(hub, "SELECT count(*) AS n FROM applied_commands WHERE generation = 'row-shaped'")).toBe(0);

    // Without their rows, what is left of them is no operation the hub runs.
    const withoutRows = rowShaped.map(({ changes: _rows, ...command }, index) => ({
      ...command,
      seq: index + 1,
      command_id: `without-rows-${index}`,
    }));
    const results = (await push('row-shaped', [...withoutRows, operation(withoutRows.length + 1, 'points.assign', { customer_id: EVA, amount: 3 })]))
      .results;
    expect(results.map((result) => [result.seq, result.status, result.reason])).toEqual([
      [1, 'rejected', 'a points.assign command carries no call of it'],
      [2, 'rejected', 'a customers.update command carries no call of it'],
      [3, 'rejected', 'a points.assign command carries no call of it'],
      [4, 'rejected', 'a vouchers.create command carries no call of it'],
      [5, 'rejected', 'a store does not perform users.create'],
      [6, 'rejected', 'a store does not perform rewards.delete'],
      [7, 'rejected', 'a store does not perform tokens.create'],
      // Its id is another node's row.
      [8, 'rejected', expect.stringMatching(/^already_exists: point_records .* is an older row/)],
      [9, 'applied', null],
    ]);
    expect(count(hub, "SELECT count(*) AS n FROM applied_commands WHERE generation = 'row-shaped' AND status = 'rejected'")).toBe(8);

    expect(await runRound(storeSync, store.clock.now)).toMatchObject({ ok: true });
    for (const server of [hub, store]) {
      expect(
        count(server, 'SELECT count(*) AS n FROM point_records WHERE id = ? AND points_milli = 50000', made.id),
        'the record another store made',
      ).toBe(1);
      expect(count(server, 'SELECT count(*) AS n FROM point_records WHERE points_milli >= 1000000000')).toBe(0);
      expect(count(server, 'SELECT count(*) AS n FROM vouchers WHERE id = ?', voucher)).toBe(0);
      expect(count(server, "SELECT count(*) AS n FROM users WHERE login = 'evil'")).toBe(0);
      expect(count(server, "SELECT count(*) AS n FROM rewards WHERE id = 'de000000000000000000000601'")).toBe(1);
      expect(count(server, 'SELECT count(*) AS n FROM tokens WHERE id = ?', token)).toBe(0);
    }
    expect(eva()).toEqual(evaBefore);
    expect(points(hub, EVA)).toBe(balanceBefore + 3000);
    expect(points(store, EVA)).toBe(points(hub, EVA));
  });
});

describe('a store registering a customer', () => {
  it('registers her as an operation the hub runs again, without a password; one carrying a password or autologin is rejected', async () => {
    const emailOf = (seq: number) => `new${seq}@registered.example.com`;
    const registration = (seq: number, extra: Record<string, unknown> = {}) =>
      operation(seq, 'customers.create', { customer: { personal_information: { email: emailOf(seq), first_name: 'New' } }, ...extra });
    const offline = registration(1);
    const withPassword = registration(2, { password: 'A password 12345' });
    const autologin = registration(3, { autologin: true });
    const { results } = await push('registrations', [offline, withPassword, autologin]);
    expect(results.map((result) => [result.status, result.reason])).toEqual([
      ['applied', null],
      ['rejected', "a store's registration carries no password"],
      ['rejected', "a store's registration carries no password"],
    ]);
    const customer = (command: typeof offline) =>
      hub.app.node.db.prepare('SELECT email, password_hash FROM customers WHERE id = ?').get(command.operation.ids[0]) as
        { email: string; password_hash: string | null } | undefined;
    expect(customer(offline)).toEqual({ email: emailOf(1), password_hash: null });
    expect(customer(withPassword)).toBeUndefined();
    expect(customer(autologin)).toBeUndefined();
  });
});

describe('a store logging customer-app tokens in', () => {
  it('has its credential commands rejected: the store no longer queues them, and the hub holds no token they name', async () => {
    const secret = 'a-token-id-the-store-made';
    const id = sha256Hex(secret);
    const asToken = { kind: 'token', apiUserId: API_USER, tokenId: id, customerId: null };
    const customerCall = (seq: number, kind: string, params: Record<string, string>, body: unknown) => {
      const command = operation(seq, kind, body, { principal: asToken, params, ids: [] });
      return { ...command, operation: { ...command.operation, call: { ...command.operation.call, iface: 'customer' } } };
    };
    const login = { login_type: 'email', login_value: demoCredentials.customer_email, password: demoCredentials.customer_password };
    const { results } = await push('token-logins', [
      customerCall(1, 'tokens.create', {}, { device: {}, setup: {}, external_application_id: DEMO_IDS.app }),
      customerCall(2, 'tokens.login', { token_id: secret }, login),
      customerCall(3, 'tokens.update', { token_id: secret }, { setup: {} }),
      customerCall(4, 'auth-tokens.issue', { token_id: secret }, {}),
      customerCall(5, 'tokens.send-password-setup-email', { token_id: secret }, { email: demoCredentials.customer_email }),
    ]);
    expect(results.map((result) => [result.status, result.reason])).toEqual(
      ['tokens.create', 'tokens.login', 'tokens.update', 'auth-tokens.issue', 'tokens.send-password-setup-email'].map((kind) => [
        'rejected',
        `a store does not perform ${kind}`,
      ]),
    );
    expect(count(hub, 'SELECT count(*) AS n FROM tokens WHERE id = ?', id)).toBe(0);
    const read = await call('GET', `${hub.api('customer')}/points`, { headers: basic(demoCredentials.api_user, secret) });
    expect(read.status).toBe(401);
  });

  it("asked of the hub, is made there for the store's own token, sent without its secret, and for no other node's", async () => {
    const secret = 'a-token-id-the-store-holds';
    const tokenId = sha256Hex(secret);
    const forwarded: ForwardedToken = {
      id: tokenId,
      api_user_id: API_USER,
      external_application_id: DEMO_IDS.app,
      device: '{}',
      setup: '{}',
      push_token: null,
    };
    const encoded = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const ask = (principal: Record<string, unknown>, options: { token?: unknown; password?: string; node?: typeof pushing; path?: string } = {}) =>
      call('POST', `${hub.url}/sync/v1/sessions${basePath('customer')}/tokens/${options.path ?? secret}/actions/login`, {
        headers: {
          ...syncHeaders(options.node ?? pushing),
          'x-loyaltyd-principal': encoded(principal),
          ...(options.token === undefined ? {} : { 'x-loyaltyd-token': encoded(options.token) }),
        },
        body: { login_type: 'email', login_value: demoCredentials.customer_email, password: options.password ?? demoCredentials.customer_password },
      });
    const asToken = { kind: 'token', apiUserId: API_USER, tokenId, customerId: null };
    const sessionOf = () => hub.app.node.db.prepare('SELECT customer_id, node_id FROM tokens WHERE id = ?').get(tokenId);
    expect((await ask(asToken)).status, 'no token sent').toBe(400);
    expect((await ask(asToken, { token: { ...forwarded, id: sha256Hex('another') } })).status, "another token than the caller's").toBe(400);
    expect((await ask({ kind: 'anonymous' }, { token: forwarded })).status, 'an anonymous caller').toBe(403);
    const unknownApiUser = newId();
    expect(
      (await ask({ ...asToken, apiUserId: unknownApiUser }, { token: { ...forwarded, api_user_id: unknownApiUser } })).status,
      'an unknown api user',
    ).toBe(401);
    expect(sessionOf(), 'nothing kept of a refused call').toBeUndefined();
    expect((await ask(asToken, { token: forwarded, password: 'wrong password' })).status).toBe(401);
    const nodeOf = (name: string) => hub.app.node.db.prepare('SELECT id FROM nodes WHERE name = ?').pluck().get(name);
    expect(sessionOf()).toEqual({ customer_id: null, node_id: nodeOf(pushing.node_name) });
    const made = await ask(asToken, { token: forwarded });
    expect(made.body).toEqual({ data: { customer_id: JANA } });
    expect(sessionOf()).toEqual({ customer_id: JANA, node_id: nodeOf(pushing.node_name) });

    // Another node's token, and a token made at the hub, are no node's to log in.
    const other = hub.app.services.nodes.add('store-other', [DEMO_IDS.storeAirport]);
    const byOther = await ask(asToken, { token: forwarded, node: other });
    expect(byOther.status).toBe(403);
    const atHub = await call('POST', `${hub.api('customer')}/tokens`, {
      headers: basic(demoCredentials.api_user, ''),
      body: { device: { device_id: 'app' }, setup: { language_id: 'en' }, external_application_id: DEMO_IDS.app },
    });
    expect(atHub.status, JSON.stringify(atHub.body)).toBe(201);
    const hubSecret = atHub.body.data.token_id as string;
    const hubToken = { ...forwarded, id: sha256Hex(hubSecret) };
    const refused = await ask({ ...asToken, tokenId: hubToken.id }, { token: hubToken, path: hubSecret });
    expect(refused.status).toBe(403);
    expect(hub.app.node.db.prepare('SELECT customer_id FROM tokens WHERE id = ?').pluck().get(hubToken.id)).toBeNull();
  });
});

describe('a store pushing operations', () => {
  it('has an assign of a billion points and a bill of a million held, counted nowhere and listed, until the operator releases one', async () => {
    const petrBefore = points(hub, PETR);
    const janaBefore = points(hub, JANA);
    const beans = { plu_ids: [{ list_code: 'GLOBAL', code: '859000769' }], quantity: 10_000, price: 100, paid_amount: 1_000_000, bill_item_id: 1 };
    const bill = {
      store_id: DEMO_IDS.storeAirport,
      cashdesk_number: 1,
      card_number: demoCredentials.customer_card,
      bill: { bill_id: 'MILLION-1', payment_time: '2026-11-20 10:00:00', total_price: 1_000_000, bill_items: [beans], payment_recap: {} },
    };
    const { results } = await push('limits', [
      operation(1, 'points.assign', { customer_id: PETR, amount: 1e9 }),
      operation(2, 'purchases.send', bill),
    ]);
    expect(results.map((result) => [result.status, result.reason])).toEqual([
      ['held', expect.stringContaining('1000000000 points given or taken by hand')],
      ['held', expect.stringMatching(/^\d{6} points earned for customer/)],
    ]);
    expect(points(hub, PETR)).toBe(petrBefore);
    expect(points(hub, JANA)).toBe(janaBefore);
    expect(count(hub, "SELECT count(*) AS n FROM purchases WHERE external_purchase_id = 'MILLION-1'")).toBe(0);
    expect(hub.app.held!.list().map((held) => held.kind)).toEqual(['points.assign', 'purchases.send']);
    expect(count(hub, "SELECT count(*) AS n FROM sync_conflicts WHERE kind = 'held_command'")).toBeGreaterThanOrEqual(2);

    const [assign] = hub.app.held!.list();
    hub.app.held!.release(assign!.command_id);
    expect(points(hub, PETR)).toBe(petrBefore + 1e12);
    expect(hub.app.held!.list().map((held) => held.kind)).toEqual(['purchases.send']);
  });

  it('changes nothing for a customer update carrying a password, a password hash or the e-mail of another customer', async () => {
    const eva = () => hub.app.node.db.prepare('SELECT email, password_hash, first_name FROM customers WHERE id = ?').get(EVA);
    const before = eva();
    const { results } = await push('customers', [
      operation(
        1,
        'customers.update',
        { customer: { personal_information: { email: demoCredentials.customer_email } } },
        { params: { customer_id: EVA } },
      ),
      operation(
        2,
        'customers.update',
        { customer: { personal_information: {} }, password: 'A new password 12345', password_hash: 'scrypt$16384$8$1$evil' },
        { params: { customer_id: EVA } },
      ),
    ]);
    expect(results[0]).toMatchObject({ status: 'held', reason: expect.stringContaining('email: already_exists') });
    expect(results[1]!.status).toBe('applied');
    expect(eva()).toEqual(before);
  });

  it("applies a command stamped a year ahead at the hub's time with the skew listed, and one stamped a year back as a late fact", async () => {
    const now = hub.clock.now();
    const ahead = operation(1, 'points.assign', { customer_id: EVA, amount: 2 }, { at: now + YEAR_MS });
    const behind = operation(2, 'points.assign', { customer_id: EVA, amount: 4 }, { at: now - YEAR_MS });
    const answer = await push('clocks', [ahead, behind]);
    expect(answer.results.map((result) => result.status)).toEqual(['applied', 'applied']);
    expect(answer.clock_skew_ms).toBeGreaterThan(YEAR_MS - 60_000);
    const created = (id: string) => hub.app.node.db.prepare('SELECT created_at FROM point_records WHERE id = ?').pluck().get(id) as string;
    expect(Date.parse(created(ahead.operation.ids[0]!))).toBe(now);
    expect(Date.parse(created(behind.operation.ids[0]!))).toBe(now - YEAR_MS);
    const skew = hub.app.node.db
      .prepare("SELECT detail FROM sync_conflicts WHERE kind = 'clock_skew' AND entity_id = (SELECT id FROM nodes WHERE name = 'store-pushing')")
      .pluck()
      .get() as string;
    expect(JSON.parse(skew)).toMatchObject({ ahead_seconds: expect.any(Number) });
    expect(JSON.parse(skew).ahead_seconds).toBeGreaterThan(YEAR_MS / 1000 - 60);
    // Nothing the hub stamped is from the future.
    expect(count(hub, 'SELECT count(*) AS n FROM point_records WHERE hlc > ?', stampAt(now + 600_000))).toBe(0);
  });

  it("counts an operation claiming a day before its node's last contact on that day, so that days gone by give a customer no more than one day does", async () => {
    const now = hub.clock.now();
    // The node last reported to the hub yesterday.
    hub.clock.advance(-DAY_MS);
    await contact();
    hub.clock.advance(DAY_MS);
    const assign = (seq: number, daysAgo: number) =>
      operation(seq, 'points.assign', { customer_id: JANA, amount: 600 }, { at: now - daysAgo * DAY_MS });
    const before = points(hub, JANA);
    // A day's limit of points given by hand is 1,000: one assign of 600 a day passes, two do not.
    const days = await push('late-days', [assign(1, 0), assign(2, 1), assign(3, 10), assign(4, 9), assign(5, 8)]);
    expect(days.results.map((result) => result.status)).toEqual(['applied', 'applied', 'held', 'held', 'held']);
    expect(days.results[2]!.reason).toContain(
      `on ${dayOf(now - DAY_MS)} (made on ${dayOf(now - 10 * DAY_MS)}, counted on its node's last contact day)`,
    );
    expect(points(hub, JANA)).toBe(before + 1_200_000);
    // The compaction forgets the totals of the days before the node's last contact, never that day's.
    await createFeedCompaction(hub.app.node, hub.config, hub.clock.now).run();
    const again = await push('late-days', [assign(6, 30)]);
    expect(again.results.map((result) => result.status)).toEqual(['held']);
    expect(points(hub, JANA)).toBe(before + 1_200_000);
  });

  it('rejects an operation of a caller the hub does not know or of a store the node does not serve, and applies the one behind', async () => {
    const item = { plu_ids: [{ list_code: 'GLOBAL', code: '859000769' }], quantity: 1, price: 100, paid_amount: 100, bill_item_id: 1 };
    const bill = {
      store_id: DEMO_IDS.storeCentral,
      cashdesk_number: 1,
      bill: { bill_id: 'NOT-SERVED-1', payment_time: '2026-11-20 10:00:00', total_price: 100, bill_items: [item], payment_recap: {} },
    };
    const { results } = await push('rights', [
      operation(
        1,
        'points.assign',
        { customer_id: EVA, amount: 1 },
        { principal: { kind: 'user', userId: 'de00000000000000000000ffff', scheme: 'bearer' } },
      ),
      operation(2, 'purchases.send', bill),
      operation(3, 'users.create', { login: 'evil' }),
      operation(4, 'points.assign', { customer_id: EVA, amount: 1 }),
    ]);
    expect(results.map((result) => [result.status, result.reason])).toEqual([
      ['rejected', expect.stringContaining('its caller')],
      ['rejected', `the purchases.send names store ${DEMO_IDS.storeCentral}, which this node does not serve`],
      ['rejected', 'a store does not perform users.create'],
      ['applied', null],
    ]);
  });
});

describe('a store whose sale the hub rejects', () => {
  it('keeps the sale readable as rejected, lists it on both sides, counts its points nowhere, and the command behind it applies', async () => {
    const auth = await airportTillLogin();
    const janaBefore = points(hub, JANA);
    // This store's node serves the airport store only; the till names the central one.
    const sold = await call('POST', `${store.api('enterprise')}/purchases/actions/send-purchase`, {
      headers: auth,
      body: {
        store_id: DEMO_IDS.storeCentral,
        cashdesk_number: 1,
        card_number: demoCredentials.customer_card,
        bill: {
          bill_id: 'WRONG-STORE-1',
          payment_time: '2026-11-20 10:00:00',
          total_price: 500,
          bill_items: [{ plu_ids: [{ list_code: 'GLOBAL', code: '859000769' }], quantity: 5, price: 100, paid_amount: 500, bill_item_id: 1 }],
          payment_recap: {},
        },
      },
    });
    expect(sold.status, JSON.stringify(sold.body)).toBe(201);
    expect(
      (await call('POST', `${store.api('enterprise')}/points/actions/assign-points`, { headers: auth, body: { customer_id: JANA, amount: 1 } }))
        .status,
    ).toBe(204);
    expect(await runRound(storeSync, store.clock.now)).toMatchObject({ ok: true, pushed: 2, rejected: 1, held: 0 });

    const purchaseId = sold.body.data.purchase_id as string;
    expect(count(store, 'SELECT count(*) AS n FROM purchases WHERE id = ?', purchaseId)).toBe(0);
    expect(count(store, 'SELECT count(*) AS n FROM point_records WHERE purchase_id = ?', purchaseId)).toBe(0);
    const unapplied = store.app.node.db
      .prepare('SELECT kind, status, reason, operation FROM unapplied_commands WHERE kind = ?')
      .get('purchases.send') as Record<string, string>;
    expect(unapplied).toMatchObject({ status: 'rejected', reason: expect.stringContaining('which this node does not serve') });
    expect(JSON.parse(unapplied.operation!).call.input.body.bill.bill_id).toBe('WRONG-STORE-1');
    expect(
      count(store, "SELECT count(*) AS n FROM sync_conflicts WHERE kind = 'rejected_command' AND entity = 'purchases' AND entity_id = ?", purchaseId),
    ).toBe(1);
    expect(
      count(hub, "SELECT count(*) AS n FROM applied_commands WHERE status = 'rejected' AND reason LIKE '%which this node does not serve'"),
    ).toBeGreaterThanOrEqual(1);
    expect(count(hub, 'SELECT count(*) AS n FROM purchases WHERE id = ?', purchaseId)).toBe(0);
    expect(points(hub, JANA)).toBe(janaBefore + 1000);
    expect(points(store, JANA)).toBe(points(hub, JANA));
  });
});

describe('a chain whose hub and stores upgrade together', () => {
  it('has protocols 1 and 2 refused, 409, on every sync endpoint, and nothing of such a push or replay written', async () => {
    const record = { id: newId(), customer_id: PETR, kind: 'collection', points_milli: 1e9, point_type_id: 'manual', state: 1 };
    const before = points(hub, PETR);
    for (const protocol of [1, 2]) {
      const legacy = await pushed(`legacy-${protocol}`, [operation(1, 'points.assign', { customer_id: PETR, amount: 5 })], protocol);
      expect(legacy.status, `protocol ${protocol}`).toBe(409);
      expect(legacy.body.error).toMatchObject({ exception: 'sync_version_mismatch_exception', error_data: { protocol: PROTOCOL_VERSION } });
      const replayed = await call('POST', `${hub.url}/sync/v1/replay`, {
        headers: syncHeaders(pushing, protocol),
        body: { changes: [{ entity: 'point_records', entity_id: record.id, op: 'insert', row: record, hlc: stampAt(hub.clock.now()) }] },
      });
      expect(replayed.status, `protocol ${protocol}`).toBe(409);
      expect((await call('GET', `${hub.url}/sync/v1/changes?after=0`, { headers: syncHeaders(pushing, protocol) })).status).toBe(409);
      expect((await call('GET', `${hub.url}/sync/v1/snapshot`, { headers: syncHeaders(pushing, protocol) })).status).toBe(409);
    }
    expect(count(hub, "SELECT count(*) AS n FROM applied_commands WHERE generation LIKE 'legacy-%'")).toBe(0);
    expect(count(hub, 'SELECT count(*) AS n FROM point_records WHERE id = ?', record.id)).toBe(0);
    expect(points(hub, PETR)).toBe(before);
  });

  it('has the commands a store queued before its upgrade, without an operation or of a kind gone, answered rejected with the reason, and those behind them applied', async () => {
    const auth = await airportTillLogin();
    const before = points(hub, EVA);
    for (const amount of [1, 2, 4])
      expect(
        (await call('POST', `${store.api('enterprise')}/points/actions/assign-points`, { headers: auth, body: { customer_id: EVA, amount } })).status,
      ).toBe(204);
    // The first was queued by a version that wrote no operation; the second as a kind no store queues now.
    const [first, second] = store.app.node.db.prepare<[], number>("SELECT seq FROM outbox WHERE status = 'pending' ORDER BY seq").pluck().all();
    store.app.node.db.prepare('UPDATE outbox SET operation = NULL WHERE seq = ?').run(first);
    store.app.node.db.prepare("UPDATE outbox SET kind = 'tokens.update' WHERE seq = ?").run(second);
    expect(await runRound(storeSync, store.clock.now)).toMatchObject({ ok: true, pushed: 3, rejected: 2 });
    expect(points(hub, EVA)).toBe(before + 4000);
    const reasons = store.app.node.db
      .prepare<[], { kind: string; status: string; reason: string }>(
        "SELECT kind, status, reason FROM unapplied_commands WHERE kind IN ('points.assign', 'tokens.update') ORDER BY kind",
      )
      .all();
    expect(reasons).toEqual([
      { kind: 'points.assign', status: 'rejected', reason: 'a points.assign command carries no call of it' },
      { kind: 'tokens.update', status: 'rejected', reason: 'a store does not perform tokens.update' },
    ]);
    expect(await runRound(storeSync, store.clock.now)).toMatchObject({ ok: true, pushed: 0 });
    expect(points(store, EVA)).toBe(points(hub, EVA));
  });
});

describe("the limits' totals", () => {
  it("are forgotten by the hub's compaction once they are of days before their node's last contact", async () => {
    const totals = (nodeName: string) =>
      count(hub, 'SELECT count(*) AS n FROM node_customer_days WHERE node_id = (SELECT id FROM nodes WHERE name = ?)', nodeName) +
      count(hub, 'SELECT count(*) AS n FROM node_days WHERE node_id = (SELECT id FROM nodes WHERE name = ?)', nodeName);
    expect(totals('store-pushing')).toBeGreaterThan(0);
    expect(totals('store-honest')).toBeGreaterThan(0);
    const compaction = createFeedCompaction(hub.app.node, hub.config, hub.clock.now);
    // The operations stamped a year back and days back were counted on their node's last contact day: nothing goes yet.
    expect((await compaction.run()).limit_days_deleted).toBe(0);
    // Two days on, each node may still count on the days from its last contact: nothing goes.
    hub.clock.advance(2 * DAY_MS);
    expect((await compaction.run()).limit_days_deleted).toBe(0);
    // Once a node is heard from again, its days before go; the other's stay until it is.
    await contact();
    expect((await compaction.run()).limit_days_deleted).toBeGreaterThan(0);
    expect(totals('store-pushing')).toBe(0);
    expect(totals('store-honest')).toBeGreaterThan(0);
    store.clock.advance(2 * DAY_MS);
    expect(await runRound(storeSync, store.clock.now)).toMatchObject({ ok: true });
    expect((await compaction.run()).limit_days_deleted).toBeGreaterThan(0);
    expect(totals('store-honest')).toBe(0);
  });
});

describe('an operation the hub runs again', () => {
  it('is judged by the program in force at its as-of time', async () => {
    const judging = await startTestServer({ config: { mode: 'hub' } });
    try {
      const node = judging.app.services.nodes.add('store-late', [DEMO_IDS.storeCentral]);
      const central = { principal: { kind: 'user', userId: POS_USER, scheme: 'bearer' } };
      const loadedAt = judging.clock.now();
      judging.clock.advance(3_600_000);
      // An hour after the demo program, one whose points are valid 30 days instead of 365.
      const program = JSON.parse(readFileSync(DEMO_PROGRAM, 'utf8')) as Record<string, unknown>;
      judging.app.services.program.load({ ...program, point_validity_days: 30 });
      judging.clock.advance(3_600_000);
      const before = operation(1, 'points.assign', { customer_id: EVA, amount: 5 }, { ...central, at: loadedAt + 1_800_000 });
      const after = operation(2, 'points.assign', { customer_id: EVA, amount: 5 }, { ...central, at: loadedAt + 5_400_000 });
      const pushed = await call('POST', `${judging.url}/sync/v1/commands`, {
        headers: {
          ...basic(node.node_name, node.node_secret),
          'x-loyaltyd-protocol': String(PROTOCOL_VERSION),
          'x-loyaltyd-schema': String(schemaVersion()),
        },
        body: { generation: 'late', commands: [before, after] },
      });
      expect(pushed.body.results.map((result: { status: string }) => result.status)).toEqual(['applied', 'applied']);
      const validDays = (command: typeof before) => {
        const validTo = judging.app.node.db
          .prepare('SELECT valid_to FROM point_records WHERE id = ?')
          .pluck()
          .get(command.operation.ids[0]) as string;
        return Math.floor((Date.parse(validTo) - command.operation.as_of) / 86_400_000);
      };
      expect(validDays(before)).toBe(365);
      expect(validDays(after)).toBe(30);
    } finally {
      await judging.close();
    }
  });
});

describe('a store sending commands again to a restored hub', () => {
  const replay = (body: unknown) =>
    call('POST', `${hub.url}/sync/v1/replay`, {
      headers: {
        ...basic(pushing.node_name, pushing.node_secret),
        'x-loyaltyd-protocol': String(PROTOCOL_VERSION),
        'x-loyaltyd-schema': String(schemaVersion()),
      },
      body,
    });

  it('sends operations, never rows, and has them judged as a push: past the limits held, a record it names and the hub lacks waiting', async () => {
    const record = {
      id: newId(),
      customer_id: PETR,
      kind: 'collection',
      points_milli: 1e12,
      point_type_id: 'manual',
      partner_id: null,
      valid_to: null,
      purchase_id: null,
      linked_point_id: null,
      created_at: new Date().toISOString(),
      state: 1,
    };
    const change = { entity: 'point_records', entity_id: record.id, op: 'insert', row: record, hlc: stampAt(hub.clock.now()) };
    const rowsOnly = await replay({ changes: [change] });
    expect(rowsOnly.status).toBe(400);
    const carrying = await replay({ commands: [{ ...operation(1, 'points.assign', { customer_id: PETR, amount: 1 }), changes: [change] }] });
    expect(carrying.status).toBe(409);
    expect(carrying.body.error.exception).toBe('sync_rows_refused_exception');
    expect(count(hub, 'SELECT count(*) AS n FROM point_records WHERE id = ?', record.id)).toBe(0);
    const before = points(hub, PETR);
    const billion = operation(1, 'points.assign', { customer_id: PETR, amount: 1e9 });
    const unknown = operation(2, 'points.assign', { customer_id: newId(), amount: 5 });
    const answered = await replay({ commands: [billion, unknown] });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    expect(answered.body.results.map((result: { status: string }) => result.status)).toEqual(['held', 'waiting']);
    expect(points(hub, PETR)).toBe(before);
    expect((await replay({ commands: [billion] })).body.results[0]).toMatchObject({ status: 'held' });
    expect((await replay({ commands: [unknown], final: true })).body.results[0]).toMatchObject({ status: 'held' });
    expect(count(hub, 'SELECT count(*) AS n FROM held_commands WHERE command_id IN (?, ?)', billion.command_id, unknown.command_id)).toBe(2);
  });
});
