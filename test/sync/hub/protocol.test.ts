/**
 * Sync acceptance, real processes: the hub's sync endpoints speak only to registered nodes
 * with their secret, and only in its protocol version and its schema version or the one
 * before (DESIGN §5 "Versions"); a push that skips a seq is a protocol error; a node whose
 * clock runs ahead never fails a round, and the drift shows in `sync status`.
 */
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaVersion } from '../../../src/db/migrate.js';
import { DEMO_IDS, demoCredentials } from '../../../src/demo/demo.js';
import { MIGRATIONS } from '../../../src/db/migrations/index.js';
import { PROTOCOL_VERSION } from '../../../src/sync/protocol/protocol.js';
import { reachesStores } from '../../../src/sync/protocol/scopes.js';
import { Cluster, posLogin, type StoreProcess } from '../../support/cluster.js';
import { createEvent, updateCustomer } from '../../support/sync-writes.js';
import { waitFor } from '../../support/wait.js';
import { basic, call } from '../../support/server.js';

/** The demo POS user, the caller of the operations pushed by hand. */
const POS_USER = `de${(0x101).toString(16).padStart(24, '0')}`;

let cluster: Cluster;
let store: StoreProcess;

beforeAll(async () => {
  // The snapshot formats' test reads pairs of snapshots until one pair shares a feed position.
  cluster = await Cluster.start({ stores: ['kiosk', 'clock'], started: [], hubEnv: { LOYALTYD_SYNC_LIMITS__SNAPSHOTS_PER_NODE_MINUTE: '60' } });
  store = cluster.store('kiosk');
});

afterAll(async () => {
  await cluster?.close();
});

function headers(overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const all: Record<string, string | undefined> = {
    ...basic(store.credentials.node_name, store.credentials.node_secret),
    'x-loyaltyd-protocol': String(PROTOCOL_VERSION),
    'x-loyaltyd-schema': String(schemaVersion()),
    ...overrides,
  };
  return Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

const changes = (requestHeaders: Record<string, string>) =>
  call('GET', `${cluster.hub.url}/sync/v1/changes?after=0&limit=5`, { headers: requestHeaders });

describe('the sync handshake', () => {
  it('a registered node with its secret, in the hub protocol and schema version, reads the change feed', async () => {
    const response = await changes(headers());
    expect(response.status).toBe(200);
    expect(response.body.changes).toHaveLength(5);
  });

  it('a pulled page comes gzipped to a store that accepts gzip, and as it is to one that does not (an earlier release)', async () => {
    const url = `${cluster.hub.url}/sync/v1/changes?after=0&limit=50`;
    const plain = await request(url, { headers: headers() });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const text = await plain.body.text();
    const zipped = await request(url, { headers: headers({ 'accept-encoding': 'gzip' }) });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    const bytes = Buffer.from(await zipped.body.arrayBuffer());
    expect(bytes.length).toBeLessThan(text.length / 2);
    // The hub's model builder appends to the feed at any moment, so the feed's head (last_seq) may
    // move between the two requests, and a page short of its limit may grow: the second page
    // begins with the first.
    type Page = { last_seq: number; changes: unknown[] };
    const plainPage = JSON.parse(text) as Page;
    const zippedPage = JSON.parse(gunzipSync(bytes).toString('utf8')) as Page;
    expect(plainPage.changes.length).toBeGreaterThan(0);
    expect(zippedPage.changes.slice(0, plainPage.changes.length)).toEqual(plainPage.changes);
    expect(zippedPage.last_seq).toBeGreaterThanOrEqual(plainPage.last_seq);
  });

  it("a store's page reads past the facts it does not hold, and its pages walk every change it holds once, in order", async () => {
    const hubPos = await posLogin(cluster.hub);
    const from = cluster.hub.count('SELECT max(seq) AS n FROM changes');
    // Facts made at the hub (origin scope: a store holds none of them), a customer changed now and then.
    for (let i = 0; i < 120; i += 1) {
      await createEvent(cluster.hub, hubPos, DEMO_IDS.customerEva, `walk-${i}`);
      if (i % 40 === 0) expect((await updateCustomer(cluster.hub, hubPos, DEMO_IDS.customerJana, { last_name: `Walk-${i}` })).status).toBe(204);
    }
    const head = cluster.hub.count('SELECT max(seq) AS n FROM changes');
    const held = cluster.hub
      .read((db) =>
        db
          .prepare<[number, number], { seq: number; entity: string }>('SELECT seq, entity FROM changes WHERE seq > ? AND seq <= ? ORDER BY seq')
          .all(from, head),
      )
      .filter((change) => reachesStores(change.entity))
      .map((change) => change.seq);
    expect(held.length).toBeGreaterThanOrEqual(3);
    const walk = async (schema: number) => {
      const walked: number[] = [];
      let pages = 0;
      for (let cursor = from; cursor < head; pages += 1) {
        const response = await call('GET', `${cluster.hub.url}/sync/v1/changes?after=${cursor}&limit=2`, {
          headers: headers({ 'x-loyaltyd-schema': String(schema) }),
        });
        expect(response.status).toBe(200);
        const page = response.body as { changes: { seq: number; entity: string }[]; cursor: number };
        expect(page.changes.length).toBeLessThanOrEqual(2);
        expect(page.cursor).toBeGreaterThan(cursor);
        walked.push(...page.changes.filter((change) => change.seq <= head).map((change) => change.seq));
        cursor = page.cursor;
      }
      return { walked, pages };
    };
    const { walked, pages } = await walk(schemaVersion());
    expect(walked).toEqual(held);
    // A page that read only as many seqs as it may send changes would take one for every two.
    expect(pages).toBeLessThan((head - from) / 4);
    // The oldest schema the hub serves: missing its last change of the replicated tables.
    const oldest = MIGRATIONS.filter((migration) => !migration.local).at(-1)!.version - 1;
    expect((await walk(oldest)).walked).toEqual(held);
  });

  it('a request in another protocol version answers 409 sync_version_mismatch_exception, on every sync endpoint', async () => {
    // Hub and stores upgrade together: the protocols before this one are refused as any other.
    for (const protocol of [String(PROTOCOL_VERSION + 1), '2', '1', '0', 'one', undefined]) {
      const response = await changes(headers({ 'x-loyaltyd-protocol': protocol }));
      expect(response.status, `protocol ${protocol}`).toBe(409);
      expect(response.body.error.exception).toBe('sync_version_mismatch_exception');
      expect(response.body.error.error_data).toMatchObject({ protocol: PROTOCOL_VERSION });
    }
    for (const protocol of [PROTOCOL_VERSION + 1, PROTOCOL_VERSION - 1]) {
      const wrong = headers({ 'x-loyaltyd-protocol': String(protocol) });
      expect((await call('GET', `${cluster.hub.url}/sync/v1/snapshot`, { headers: wrong })).status).toBe(409);
      expect((await call('POST', `${cluster.hub.url}/sync/v1/commands`, { headers: wrong, body: { generation: 'g', commands: [] } })).status).toBe(
        409,
      );
      expect((await call('POST', `${cluster.hub.url}/sync/v1/replay`, { headers: wrong, body: { commands: [] } })).status).toBe(409);
    }
  });

  it('the hub serves its own schema version and those missing at most one change of the replicated tables, and refuses others with 409', async () => {
    const replicatedChanges = MIGRATIONS.filter((migration) => !migration.local).map((migration) => migration.version);
    const [beforeLast, last] = replicatedChanges.slice(-2) as [number, number];
    // The one before the hub's; and one missing the last change of the replicated tables and every local migration since.
    for (const schema of [schemaVersion() - 1, last - 1]) {
      expect((await changes(headers({ 'x-loyaltyd-schema': String(schema) }))).status, `schema ${schema}`).toBe(200);
    }
    // A store ahead of the hub, and one missing the last two changes of the replicated tables.
    for (const schema of [schemaVersion() + 1, beforeLast - 1]) {
      const response = await changes(headers({ 'x-loyaltyd-schema': String(schema) }));
      expect(response.status, `schema ${schema}`).toBe(409);
      expect(response.body.error.exception).toBe('sync_version_mismatch_exception');
    }
  });

  it('a wrong node secret, an unknown node and no credentials answer 401', async () => {
    for (const authorization of [basic('kiosk', 'not-the-secret'), basic('nobody', store.credentials.node_secret), { authorization: undefined }]) {
      const response = await changes(headers(authorization));
      expect(response.status, JSON.stringify(authorization)).toBe(401);
    }
  });

  it('a push that skips a seq answers 409 sync_sequence_gap_exception and applies nothing', async () => {
    const command = { seq: 2, command_id: 'gap-command', kind: 'events.create', hlc: '000000000001-0000-test', operation: { ids: [] } };
    const response = await call('POST', `${cluster.hub.url}/sync/v1/commands`, {
      headers: headers(),
      body: { generation: 'gap-test', commands: [command] },
    });
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({ exception: 'sync_sequence_gap_exception', error_data: { expected_seq: 1, got_seq: 2 } });
    expect(cluster.hub.count('SELECT count(*) AS n FROM applied_commands')).toBe(0);
  });

  it('a replay of rows, of an earlier protocol or of this one, is refused and writes nothing, and a snapshot tells a store that never pushed that the hub holds none of it', async () => {
    const stamp = `${Date.now().toString(16).padStart(12, '0')}-0000-kioskreplay`;
    const storeRow = { id: 'de0000000000000000000000f1', hlc: stamp, last_change: new Date().toISOString() };
    const rows = { changes: [{ entity: 'stores', entity_id: storeRow.id, op: 'insert', row: storeRow, hlc: stamp }] };
    expect((await call('POST', `${cluster.hub.url}/sync/v1/replay`, { headers: headers(), body: rows })).status).toBe(400);
    const refused = await call('POST', `${cluster.hub.url}/sync/v1/replay`, { headers: headers({ 'x-loyaltyd-protocol': '1' }), body: rows });
    expect(refused.status).toBe(409);
    expect(refused.body.error.exception).toBe('sync_version_mismatch_exception');
    expect(cluster.hub.count('SELECT count(*) AS n FROM stores WHERE id = ?', storeRow.id)).toBe(0);
    const empty = await call('POST', `${cluster.hub.url}/sync/v1/replay`, { headers: headers(), body: { commands: [] } });
    expect(empty.status).toBe(400);
    const snapshot = await fetch(`${cluster.hub.url}/sync/v1/snapshot?format=columns`, { headers: headers() });
    const header = JSON.parse((await snapshot.text()).split('\n')[0]!) as Record<string, unknown>;
    expect(header.node_through).toBe('');
  });

  it('a store given a wrong node secret keeps serving, answers /health 503 with the reason, says in sync status the hub answered 401, and tells a POS it has no data yet', async () => {
    const impostor = store;
    impostor.serveArgs = ['--hub-url', cluster.hub.url, '--node-name', 'kiosk', '--node-secret', 'not-the-secret'];
    await impostor.start();
    await waitFor('a failed round', () => impostor.peekStatus().last_error !== null);
    const health = await call('GET', `${impostor.url}/health`);
    expect(health.status).toBe(503);
    expect(health.body.status).toBe('degraded');
    expect(health.body.reasons).toEqual([
      expect.stringMatching(
        /^never bootstrapped from its hub, so it holds no data yet: the hub refuses this node's name or secret \(it answered 401/,
      ),
    ]);
    const status = await impostor.syncStatus();
    expect(status).toMatchObject({ reachable: true, last_error_status: 401, last_error: expect.stringMatching(/^hub answered 401/) });
    expect(status.feed.cursor).toBeNull();
    const login = await call('POST', `${impostor.url}/rest-api/enterprise-interface/v1.0/users/actions/login`, {
      body: {
        user_external_application_id: demoCredentials.external_application_id,
        login: demoCredentials.pos_login,
        password: demoCredentials.pos_password,
      },
    });
    expect(login.status).toBe(503);
    expect(login.body.error).toMatchObject({
      exception: 'service_unavailable_exception',
      detail: expect.stringMatching(/^This store holds no data yet: it has not bootstrapped from its hub/),
    });
  });
});

/** Every number in a JSON value whose key mentions drift. */
function driftValues(value: unknown, key = ''): number[] {
  if (typeof value === 'number') return /drift/i.test(key) ? [value] : [];
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([inner, child]) => driftValues(child, `${key}.${inner}`));
  return [];
}

describe('clocks', () => {
  // Up to sync.max_clock_skew_seconds (300) ahead a fast clock is a clock, further a stamp from
  // the future that would win every last-writer-wins comparison: the hub brings it back to its
  // own time and lists the skew (src/sync/hub/hub-operations.ts).
  it('a change stamped four minutes ahead (a node whose clock runs fast) is applied everywhere, rounds keep succeeding, and sync status reports the drift; one an hour ahead is applied at the hub\'s time and the skew listed (DESIGN §5 "Clocks")', async () => {
    const observer = cluster.store('clock');
    await observer.start();
    await cluster.waitBootstrapped(observer);
    const ahead = Date.now() + 240_000;
    // A customer registered at a till: master data, which reaches every store (src/sync/protocol/scopes.ts).
    const registration = (seq: number, at: number) => {
      const hlc = (counter: number) => `${at.toString(16).padStart(12, '0')}-${counter.toString(16).padStart(4, '0')}-fa57c10c`;
      return {
        seq,
        command_id: `fast-clock-${seq}`,
        kind: 'customers.create',
        hlc: hlc(0),
        operation: {
          call: {
            iface: 'enterprise',
            input: { params: {}, query: {}, body: { customer: { personal_information: { first_name: 'Fast', last_name: `Clock ${seq}` } } } },
            principal: { kind: 'user', userId: POS_USER, scheme: 'bearer' },
          },
          as_of: at,
          ids: [`${at.toString(16).padStart(12, '0')}0000000000000${seq}`],
          stamps: [0, 1, 2, 3].map(hlc),
        },
      };
    };
    type Rows = { entity: string; entity_id: string; hlc: string; row: { hlc: string; last_change: string } }[];
    const customerRow = (rows: Rows, id: string) => rows.find((row) => row.entity === 'customers' && row.entity_id === id)!;
    const command = registration(1, ahead);
    const id = command.operation.ids[0]!;
    const pushed = await call('POST', `${cluster.hub.url}/sync/v1/commands`, {
      headers: headers(),
      body: { generation: 'fast-clock', commands: [command] },
    });
    expect(pushed.status).toBe(200);
    expect(pushed.body.results).toMatchObject([{ command_id: 'fast-clock-1', seq: 1, status: 'applied', reason: null }]);
    // The store's stamp, four minutes ahead, is a clock's: the hub's row keeps it.
    expect(customerRow(pushed.body.results[0].rows as Rows, id).hlc).toBe(command.hlc);
    expect(cluster.hub.count('SELECT count(*) AS n FROM customers WHERE id = ? AND hlc = ?', id, command.hlc)).toBe(1);
    const tooFast = registration(2, Date.now() + 3_600_000);
    const late = { id: tooFast.operation.ids[0]! };
    const broughtBack = await call('POST', `${cluster.hub.url}/sync/v1/commands`, {
      headers: headers(),
      body: { generation: 'fast-clock', commands: [tooFast] },
    });
    expect(broughtBack.body.results).toEqual([
      {
        command_id: 'fast-clock-2',
        seq: 2,
        status: 'applied',
        reason: null,
        rows: expect.arrayContaining([expect.objectContaining({ entity: 'customers', entity_id: late.id })]),
      },
    ]);
    expect(broughtBack.body.clock_skew_ms).toBeGreaterThan(3_500_000);
    const taken = customerRow(broughtBack.body.results[0].rows as Rows, late.id);
    // The hub's clock, which took the first command's stamp four minutes ahead as a clock's.
    expect(parseInt(taken.hlc.slice(0, 12), 16)).toBeLessThanOrEqual(Date.now() + 300_000);
    expect(taken.hlc.slice(18)).toBe('fa57c10c');
    expect(taken.row.hlc).toBe(taken.hlc);
    expect(cluster.hub.count('SELECT count(*) AS n FROM customers WHERE id = ? AND hlc = ?', late.id, taken.hlc)).toBe(1);
    expect(
      cluster.hub.count(
        "SELECT count(*) AS n FROM sync_conflicts WHERE kind = 'clock_skew' AND entity_id = (SELECT id FROM nodes WHERE name = 'kiosk')",
      ),
    ).toBe(1);

    await waitFor('the stamp from the future to reach the store', () => observer.count('SELECT count(*) AS n FROM customers WHERE id = ?', id) === 1);
    const pulledAt = Date.now();
    await waitFor('another round', () => Date.parse(observer.peekStatus().last_success_at ?? '') > pulledAt);
    const status = await observer.syncStatus();
    expect(status).toMatchObject({ reachable: true, last_error: null });
    const drift = driftValues(status);
    expect(drift.length, `no drift in sync status: ${JSON.stringify(status)}`).toBeGreaterThan(0);
    expect(Math.max(...drift)).toBeGreaterThan(0);
  }, 30_000);
});

describe('the snapshot formats', () => {
  const read = async (query: string) => {
    const response = await fetch(`${cluster.hub.url}/sync/v1/snapshot${query}`, { headers: headers() });
    expect(response.status).toBe(200);
    return (await response.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown> | unknown[]);
  };

  it("sends this version's stores the columns format, the previous version's the rows format, with the same rows", async () => {
    // The hub may publish between the two reads (its customer states, its recommendation model):
    // the pair compared is one read at the same feed position.
    const [[rowsHeader, ...rowLines], [columnsHeader, ...columnLines]] = await waitFor('both formats read at one feed position', async () => {
      const rows = (await read('')) as [Record<string, unknown>, ...Record<string, unknown>[]];
      const columns = (await read('?format=columns')) as [Record<string, unknown>, ...(Record<string, unknown> | unknown[])[]];
      return rows[0].position === columns[0].position && ([rows, columns] as const);
    });
    expect(rowsHeader.format).toBeUndefined();
    expect(columnsHeader).toMatchObject({
      format: 'columns',
      position: rowsHeader.position,
      total_rows: rowsHeader.total_rows,
      feed_id: rowsHeader.feed_id,
    });
    expect(rowLines.pop()).toEqual({ end: true });
    expect(columnLines.pop()).toEqual({ end: true });
    let table: { table: string; columns: string[] } | undefined;
    const rebuilt: { entity: string; row: Record<string, unknown> }[] = [];
    for (const line of columnLines) {
      if (!Array.isArray(line)) table = line as typeof table;
      else rebuilt.push({ entity: table!.table, row: Object.fromEntries(table!.columns.map((column, index) => [column, line[index]])) });
    }
    expect(rebuilt.length).toBe(rowsHeader.total_rows);
    expect(rebuilt).toEqual(rowLines);
    // The header's clock is past every row's stamp: the store observes it once for them all.
    const clock = String(columnsHeader.clock);
    expect(rebuilt.filter(({ row }) => !(String(row.hlc) <= clock))).toEqual([]);
  });
});
