/**
 * The share of the hub's time one store's reads take (src/sync/hub/read-budget.ts), against a
 * hub on 127.0.0.1 on a clock the test moves, so that a node reading back to back spends its
 * budget: its pull or history read past it is answered 429 with the Retry-After that refills
 * it, once that has passed, and another node is served meanwhile. A node's reads asked at once
 * begin one a turn of the hub's loop, so that another node's read asked after them waits for
 * few. A store refused a history read answers it from its own data, and its round refused a
 * pull fails and succeeds once the budget refills.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaVersion } from '../../../src/db/migrate.js';
import { DEMO_IDS, demoCredentials } from '../../../src/demo/demo.js';
import { SOURCE_HEADER } from '../../../src/http/history-reads.js';
import { basePath } from '../../../src/http/interfaces.js';
import type { Principal } from '../../../src/http/principal.js';
import { PRINCIPAL_HEADER, PROTOCOL_HEADER, PROTOCOL_VERSION, SCHEMA_HEADER } from '../../../src/sync/protocol/protocol.js';
import { startInProcessCluster, type InProcessCluster, type InProcessStore } from '../../support/in-process-cluster.js';
import { basic, call, startTestServer, TestClock, type TestServer } from '../../support/server.js';

/** Milliseconds of the hub's time a node's reads take a second, and the most it saves. */
const RATE = 100;
const BUDGET = { 'sync_limits.reads_ms_per_second': RATE, 'sync_limits.reads_burst_ms': 20 };
/** Reads that spend 20 ms of the hub's time many times over. */
const PAST_BUDGET = 5000;

type Node = { node_name: string; node_secret: string };
type Answer = Awaited<ReturnType<typeof call>>;

/** Reads until the hub refuses one (the clock stands still, so nothing refills the budget); the refusal. */
async function spend(read: () => Promise<Answer>): Promise<Answer> {
  for (let reads = 0; reads < PAST_BUDGET; reads += 1) {
    const answer = await read();
    if (answer.status !== 200) return answer;
  }
  throw new Error(`${PAST_BUDGET} reads were all answered`);
}

const headersOf = (node: Node, extra: Record<string, string> = {}) => ({
  ...basic(node.node_name, node.node_secret),
  [PROTOCOL_HEADER]: String(PROTOCOL_VERSION),
  [SCHEMA_HEADER]: String(schemaVersion()),
  ...extra,
});

describe("a node's reads at the hub", () => {
  let hub: TestServer;
  const clock = new TestClock();
  let nodes = 0;
  const newNode = (): Node => hub.app.services.nodes.add(`read-budget-${(nodes += 1)}`, [DEMO_IDS.storeCentral]);
  let posUser: Principal;

  beforeAll(async () => {
    hub = await startTestServer({ clock, config: { mode: 'hub', ...BUDGET } });
    const userId = hub.app.node.db.prepare('SELECT id FROM users WHERE login = ?').pluck().get(demoCredentials.pos_login) as string;
    posUser = { kind: 'user', userId, scheme: 'bearer' };
  });
  afterAll(async () => {
    await hub?.close();
  });

  const pull = (node: Node) => call('GET', `${hub.url}/sync/v1/changes?after=0&limit=50`, { headers: headersOf(node) });
  const history = (node: Node) =>
    call('GET', `${hub.url}/sync/v1/history${basePath('enterprise')}/purchases`, {
      headers: headersOf(node, { [PRINCIPAL_HEADER]: Buffer.from(JSON.stringify(posUser)).toString('base64url') }),
    });

  it('are refused 429 once they took the budget, until the Retry-After refills it; another node is served meanwhile', async () => {
    const node = newNode();
    const asked = performance.now();
    const refused = await spend(() => pull(node));
    expect(performance.now() - asked).toBeGreaterThanOrEqual(990);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body.error).toMatchObject({
      exception: 'too_many_requests_exception',
      error_data: { work: 'read', limit: RATE, retry_after: 1 },
    });
    expect((await history(node)).status).toBe(429);
    expect((await pull(newNode())).status).toBe(200);
    clock.advance(1000);
    expect((await pull(node)).status).toBe(200);
  });

  it('count a history read as a pull', async () => {
    const node = newNode();
    const read = await history(node);
    expect(read.status).toBe(200);
    expect(read.body.data.purchases.length).toBeGreaterThan(0);
    expect((await spend(() => history(node))).status).toBe(429);
    expect((await pull(node)).status).toBe(429);
    clock.advance(1000);
    expect((await history(node)).status).toBe(200);
  });
});

describe("a node's reads asked at once", () => {
  let hub: TestServer;
  let nodes = 0;
  const newNode = (): Node => hub.app.services.nodes.add(`read-turns-${(nodes += 1)}`);

  beforeAll(async () => {
    hub = await startTestServer({ config: { mode: 'hub' } });
  });
  afterAll(async () => {
    await hub?.close();
  });

  /** A pull answered without gzip, so that its answer is written in the turn the hub reads the page. */
  const pull = (node: Node) =>
    call('GET', `${hub.url}/sync/v1/changes?after=0&limit=1000`, { headers: headersOf(node, { 'accept-encoding': 'identity' }) });

  it("begin one a turn of the hub's loop, so that another node's read asked after them is answered before most", async () => {
    const [flooding, other] = [newNode(), newNode()];
    const READS = 30;
    // The connections opened first, so that the reads below reach the hub in the order they are sent.
    await Promise.all(Array.from({ length: READS + 1 }, () => pull(newNode())));
    const answered: string[] = [];
    const noted = (name: string) => (answer: Answer) => {
      expect(answer.status).toBe(200);
      answered.push(name);
    };
    await Promise.all([...Array.from({ length: READS }, () => pull(flooding).then(noted('flooding'))), pull(other).then(noted('other'))]);
    expect(answered.indexOf('other')).toBeLessThan(READS / 3);
  });
});

describe('a store whose reads the hub refuses', () => {
  let cluster: InProcessCluster;
  let store: InProcessStore;
  const hubClock = new TestClock();

  beforeAll(async () => {
    cluster = await startInProcessCluster({ stores: 1, hubClock, hubConfig: BUDGET });
    [store] = cluster.stores as [InProcessStore];
    hubClock.advance(1000);
  });
  afterAll(() => cluster?.close());

  const purchases = () => call('GET', `${store.server.api('enterprise')}/purchases`, { headers: store.auth });
  /** The store's reads at the hub, as a store that reads back to back makes them. */
  const pull = () => call('GET', `${cluster.hub.url}/sync/v1/changes?after=0&limit=50`, { headers: headersOf(store.credentials) });

  it('answers a history read from its own data, and reads at the hub again once the budget refills', async () => {
    const first = await purchases();
    expect(first.status).toBe(200);
    expect(first.headers.get(SOURCE_HEADER)).toBe('hub');
    expect((await spend(pull)).status).toBe(429);
    const refused = await purchases();
    expect(refused.status).toBe(200);
    expect(refused.headers.get(SOURCE_HEADER)).toBe('local');
    expect(refused.body.data.purchases).toEqual([]);
    hubClock.advance(1000);
    expect((await purchases()).headers.get(SOURCE_HEADER)).toBe('hub');
  });

  it('fails a round whose pull is refused, and pulls once the budget refills', async () => {
    hubClock.advance(1000);
    expect((await cluster.round(store)).ok).toBe(true);
    expect((await spend(pull)).status).toBe(429);
    const refused = await cluster.round(store);
    expect(refused.ok).toBe(false);
    expect(refused.hubStatus).toBe(429);
    hubClock.advance(1000);
    expect((await cluster.round(store)).ok).toBe(true);
  });
});
