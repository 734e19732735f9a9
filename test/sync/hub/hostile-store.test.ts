/**
 * A store with a valid node secret pushes crafted commands in protocol 1, which a hub serves
 * for `sync.protocol_1_days` after its upgrade under the row checks of that protocol
 * (src/sync/hub/command-policy.ts): each attack is rejected with a reason and listed at the hub,
 * nothing of it reaches the hub's tables or another store, and the honest command pushed
 * behind them still applies; the rows it replays as to a hub restored from a backup pass the
 * same checks. Protocol 2's operations: test/sync/hub/authority.test.ts.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/auth/secrets.js';
import { DEMO_IDS } from '../../../src/demo/demo.js';
import { schemaVersion } from '../../../src/db/migrate.js';
import { PASSWORD_SETUP_COMMAND } from '../../../src/features/tokens/password-setup.service.js';
import { runRound } from '../../../src/sync/store/agent.js';
import { ROW_PROTOCOL } from '../../../src/sync/protocol/protocol.js';
import type { SyncParts } from '../../../src/sync/store/sync-parts.js';
import { createStoreSync } from '../../../src/root/store.js';
import { basic, call, demoPosLogin, startTestServer, tempDir, type TestServer } from '../../support/server.js';
import { hex } from '../../support/ids.js';
import { count } from '../../support/node-reads.js';

const ATTACKER_ORIGIN = 'a77ac4e1';
const EVA = DEMO_IDS.customerEva;
const REWARD = 'de000000000000000000000601';

let hub: TestServer;
let hubDir: string;
let honest: TestServer;
let honestSync: SyncParts;
let attacker: { node_name: string; node_secret: string };

const stamp = (aheadMs = 0, origin = ATTACKER_ORIGIN) => `${hex(Date.now() + aheadMs, 12)}-0000-${origin}`;

interface Change {
  entity: string;
  entity_id: string;
  op: 'insert' | 'update' | 'delete';
  row: Record<string, unknown> | null;
}

function command(seq: number, kind: string, changes: Change[], hlc = stamp(), payload: unknown = {}) {
  return { seq, command_id: `hostile-${seq}`, kind, payload, hlc, changes: changes.map((change) => ({ ...change, hlc: change.row?.hlc ?? hlc })) };
}

function row(fields: Record<string, unknown>, hlc = stamp()): Record<string, unknown> {
  return { ...fields, hlc, last_change: new Date().toISOString() };
}

beforeAll(async () => {
  hubDir = tempDir();
  hub = await startTestServer({ config: { mode: 'hub' }, dataDir: hubDir });
  attacker = hub.app.services.nodes.add('store-hostile', [DEMO_IDS.storeAirport]);
  const credentials = hub.app.services.nodes.add('store-honest', [DEMO_IDS.storeCentral, DEMO_IDS.storeAirport]);
  honest = await startTestServer({
    demo: false,
    config: { 'hub.url': hub.url, 'node.name': credentials.node_name, 'node.secret': credentials.node_secret },
  });
  honestSync = createStoreSync(honest.app.node, honest.config, honest.clock.now)!;
  expect(await runRound(honestSync, honest.clock.now)).toMatchObject({ ok: true, bootstrapped: true });
});

afterAll(async () => {
  await honestSync?.client.close();
  await honest?.close();
  await hub?.close();
  rmSync(hubDir, { recursive: true, force: true });
});

describe('a hostile store speaking protocol 1', () => {
  it('has every crafted command rejected and listed, nothing of them anywhere, and its honest command behind them applied', async () => {
    const evaHash = (server: TestServer) =>
      (server.app.node.db.prepare('SELECT password_hash FROM customers WHERE id = ?').get(EVA) as { password_hash: string | null }).password_hash;
    const hashBefore = evaHash(hub);
    const honestOrigin = honest.app.node.identity.nodeId;
    // The honest store speaks first, so its origin is bound to it.
    const assigned = await call('POST', `${honest.api('enterprise')}/points/actions/assign-points`, {
      headers: await demoPosLogin(honest),
      body: { customer_id: EVA, amount: 1 },
    });
    expect(assigned.status).toBe(204);
    expect(await runRound(honestSync, honest.clock.now)).toMatchObject({ ok: true, pushed: 1, rejected: 0 });

    const secret = 'x'.repeat(43);
    const setupId = `${hex(Date.now(), 12)}00000000000091`;
    const points = (seq: number, id: string, hlc = stamp()) =>
      command(
        seq,
        'points.assign',
        [
          {
            entity: 'point_records',
            entity_id: id,
            op: 'insert',
            row: row(
              {
                id,
                customer_id: EVA,
                kind: 'collection',
                points_milli: 5000,
                point_type_id: 'manual',
                partner_id: null,
                valid_to: null,
                purchase_id: null,
                linked_point_id: null,
                created_at: new Date().toISOString(),
                state: 1,
              },
              hlc,
            ),
          },
        ],
        hlc,
      );
    const userId = `${hex(Date.now(), 12)}00000000000011`;
    const foreignBill = `${hex(Date.now(), 12)}00000000000101`;
    const foreignPoints = `${hex(Date.now(), 12)}00000000000102`;
    const forgedToken = sha256Hex('forged-token');
    const attacks = [
      command(1, 'users.create', [
        { entity: 'users', entity_id: userId, op: 'insert', row: row({ id: userId, login: 'evil', password_hash: 'x', state: 1 }) },
      ]),
      command(2, 'points.assign', [{ entity: 'customers', entity_id: EVA, op: 'update', row: row({ id: EVA, password_hash: 'scrypt$evil' }) }]),
      command(3, 'rewards.delete', [{ entity: 'rewards', entity_id: REWARD, op: 'delete', row: null }]),
      points(4, `${hex(Date.now(), 12)}00000000000041`, stamp(365 * 86_400_000)),
      points(5, `${hex(Date.now(), 12)}00000000000051`, stamp(0, honestOrigin)),
      command(
        6,
        PASSWORD_SETUP_COMMAND,
        [
          {
            entity: 'password_setup_requests',
            entity_id: setupId,
            op: 'insert',
            row: row({
              id: setupId,
              customer_id: EVA,
              email: 'attacker@evil.test',
              secret_hash: sha256Hex(secret),
              expires_at: new Date(Date.now() + 3_600_000).toISOString(),
              sent_at: null,
            }),
          },
        ],
        stamp(),
        { id: setupId, customer_id: EVA, email: 'attacker@evil.test', secret_hash: sha256Hex(secret), link: `http://evil.test/?token=${secret}` },
      ),
      command(7, 'points.assign', [{ entity: 'point_records', entity_id: 'x', op: 'insert', row: row({ id: 'x' }, 'zzzz') }], 'zzzz'),
      // A bill of a store this node does not serve, and the points it would earn Eva.
      command(8, 'purchases.send', [
        {
          entity: 'purchases',
          entity_id: foreignBill,
          op: 'insert',
          row: row({
            id: foreignBill,
            customer_id: EVA,
            store_id: DEMO_IDS.storeCentral,
            external_purchase_id: 'forged-1',
            payment_time: new Date().toISOString(),
            total_price_minor: 100_000,
          }),
        },
        ...points(0, foreignPoints).changes.map((change) => ({ ...change, row: { ...change.row, purchase_id: foreignBill } })),
      ]),
      command(9, 'tokens.create', [
        {
          entity: 'tokens',
          entity_id: forgedToken,
          op: 'insert',
          row: row({ id: forgedToken, external_application_id: 'x', device: '{}', setup: '{}', customer_id: EVA, state: 1 }),
        },
      ]),
    ];
    const honestId = `${hex(Date.now(), 12)}00000000000081`;
    const pushed = await call('POST', `${hub.url}/sync/v1/commands`, {
      headers: {
        ...basic(attacker.node_name, attacker.node_secret),
        'x-loyaltyd-protocol': String(ROW_PROTOCOL),
        'x-loyaltyd-schema': String(schemaVersion()),
      },
      body: { generation: 'hostile', commands: [...attacks, points(10, honestId)] },
    });
    expect(pushed.status).toBe(200);
    const results = pushed.body.results as { seq: number; status: string; reason: string | null }[];
    expect(results.map((result) => [result.seq, result.status])).toEqual([
      [1, 'rejected'],
      [2, 'rejected'],
      [3, 'rejected'],
      [4, 'rejected'],
      [5, 'rejected'],
      [6, 'rejected'],
      [7, 'rejected'],
      [8, 'rejected'],
      [9, 'rejected'],
      [10, 'applied'],
    ]);
    expect(results.map((result) => result.reason)).toEqual([
      'a store does not write users',
      'points.assign does not write customers',
      'a store does not write rewards',
      expect.stringMatching(/stamped 315\d{5} s ahead of the hub's clock \(at most 300 s\)/),
      expect.stringMatching(/^stamped as node .*, which another node speaks for$/),
      "the address is not the customer's",
      'the command has a malformed stamp',
      `purchases ${foreignBill} names store ${DEMO_IDS.storeCentral}, which this node does not serve`,
      'a token starts anonymous: the hub logs it in',
      null,
    ]);
    // Listed at the hub, as every rejection is.
    expect(count(hub, "SELECT count(*) AS n FROM applied_commands WHERE generation = 'hostile' AND status = 'rejected'")).toBe(9);

    expect(await runRound(honestSync, honest.clock.now)).toMatchObject({ ok: true });
    for (const server of [hub, honest]) {
      expect(count(server, "SELECT count(*) AS n FROM users WHERE login = 'evil'")).toBe(0);
      expect(count(server, 'SELECT count(*) AS n FROM rewards WHERE id = ?', REWARD)).toBe(1);
      expect(count(server, 'SELECT count(*) AS n FROM point_records WHERE id = ?', honestId)).toBe(server === hub ? 1 : 0);
      expect(count(server, 'SELECT count(*) AS n FROM point_records WHERE hlc > ?', stamp(3_600_000))).toBe(0);
      expect(count(server, 'SELECT count(*) AS n FROM purchases WHERE id = ?', foreignBill)).toBe(0);
      expect(count(server, 'SELECT count(*) AS n FROM point_records WHERE id = ?', foreignPoints)).toBe(0);
      expect(count(server, 'SELECT count(*) AS n FROM tokens WHERE id = ?', forgedToken)).toBe(0);
    }
    expect(evaHash(hub)).toBe(hashBefore);
    expect(count(hub, 'SELECT count(*) AS n FROM password_setup_requests WHERE id = ?', setupId)).toBe(0);
    // The honest points reach the honest store as Eva's balance.
    expect(honest.app.node.balances.balancesAt(EVA, Date.now()).pointsMilli).toBe(hub.app.node.balances.balancesAt(EVA, Date.now()).pointsMilli);
  });
});

describe('a hostile store replaying rows in protocol 1', () => {
  it("has a password-setup request to another address than the customer's refused as a push is, and one to hers applied", async () => {
    const origin = 'a77ac4e2';
    const setupRow = (id: string, email: string) => {
      const hlc = stamp(0, origin);
      const fields = {
        id,
        customer_id: EVA,
        email,
        secret_hash: sha256Hex(id),
        expires_at: new Date(Date.now() + 3_600_000).toISOString(),
        sent_at: null,
      };
      return { entity: 'password_setup_requests', entity_id: id, op: 'insert', row: row(fields, hlc), hlc };
    };
    const evaEmail = (hub.app.node.db.prepare('SELECT email FROM customers WHERE id = ?').get(EVA) as { email: string }).email;
    const forged = `${hex(Date.now(), 12)}00000000000092`;
    const honestRequest = `${hex(Date.now(), 12)}00000000000093`;
    const replayed = await call('POST', `${hub.url}/sync/v1/replay`, {
      headers: {
        ...basic(attacker.node_name, attacker.node_secret),
        'x-loyaltyd-protocol': String(ROW_PROTOCOL),
        'x-loyaltyd-schema': String(schemaVersion()),
      },
      body: { changes: [setupRow(forged, 'attacker@evil.test'), setupRow(honestRequest, evaEmail.toUpperCase())] },
    });
    expect(replayed.status).toBe(200);
    expect(replayed.body).toEqual({
      applied: 1,
      rejected: [{ entity: 'password_setup_requests', entity_id: forged, reason: "the address is not the customer's" }],
    });
    expect(count(hub, 'SELECT count(*) AS n FROM password_setup_requests WHERE id = ?', forged)).toBe(0);
    expect(count(hub, 'SELECT count(*) AS n FROM password_setup_requests WHERE id = ?', honestRequest)).toBe(1);
  });

  it('has the cancellation of a bill the hub does not hold refused as a push is', async () => {
    const hlc = stamp(0, 'a77ac4e3');
    const cancellation = `${hex(Date.now(), 12)}00000000000094`;
    const fields = {
      id: cancellation,
      customer_id: EVA,
      store_id: DEMO_IDS.storeAirport,
      external_purchase_id: 'cancels-nothing',
      bill_number: 'no-such-bill',
      payment_time: new Date().toISOString(),
      total_price_minor: -100,
      canceled: 1,
      cancels_purchase_id: null,
    };
    const replayed = await call('POST', `${hub.url}/sync/v1/replay`, {
      headers: {
        ...basic(attacker.node_name, attacker.node_secret),
        'x-loyaltyd-protocol': String(ROW_PROTOCOL),
        'x-loyaltyd-schema': String(schemaVersion()),
      },
      body: { changes: [{ entity: 'purchases', entity_id: cancellation, op: 'insert', row: row(fields, hlc), hlc }] },
    });
    expect(replayed.status).toBe(200);
    expect(replayed.body).toEqual({ applied: 0, rejected: [{ entity: 'purchases', entity_id: cancellation, reason: 'not_found' }] });
    expect(count(hub, 'SELECT count(*) AS n FROM purchases WHERE id = ?', cancellation)).toBe(0);
  });

  it("has a customer row carrying a password hash of other parameters than the hub writes refused, and the customer's hash unchanged", async () => {
    const hlc = stamp(0, 'a77ac4e4');
    const readHash = () =>
      (hub.app.node.db.prepare('SELECT password_hash FROM customers WHERE id = ?').get(EVA) as { password_hash: string | null }).password_hash;
    const before = readHash();
    const unbounded = `scrypt$16384$1$200000$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(32).toString('base64')}`;
    const replayed = await call('POST', `${hub.url}/sync/v1/replay`, {
      headers: {
        ...basic(attacker.node_name, attacker.node_secret),
        'x-loyaltyd-protocol': String(ROW_PROTOCOL),
        'x-loyaltyd-schema': String(schemaVersion()),
      },
      body: { changes: [{ entity: 'customers', entity_id: EVA, op: 'update', row: row({ id: EVA, password_hash: unbounded }, hlc), hlc }] },
    });
    expect(replayed.body).toEqual({
      applied: 0,
      rejected: [{ entity: 'customers', entity_id: EVA, reason: 'a password hash of other parameters than the hub writes' }],
    });
    expect(readHash()).toBe(before);
  });
});
