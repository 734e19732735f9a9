/**
 * The hub applies a push's operations with their writes joining the push's transaction, and
 * when one fails half-way applies the push again with a savepoint for each
 * (src/sync/hub/hub-commands.ts): the answer and what the hub keeps are those of every command
 * in its own savepoint. A command id the hub holds already is answered from its result to the
 * node that pushed it, and refused to another. A real hub, pushes over HTTP.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../../src/demo/demo.js';
import { schemaVersion } from '../../../src/db/migrate.js';
import { PROTOCOL_VERSION } from '../../../src/sync/protocol/protocol.js';
import { basic, call, startTestServer, tempDir, type TestServer } from '../../support/server.js';
import { hex } from '../../support/ids.js';
import { count } from '../../support/node-reads.js';

const EVA = DEMO_IDS.customerEva;
const PETR = DEMO_IDS.customerPetr;
/** The demo's POS user, of the central store, which the nodes here serve. */
const POS_USER = `de${(0x101).toString(16).padStart(24, '0')}`;

let hub: TestServer;
let hubDir: string;
let commandIds = 0;

const points = (customerId: string) => hub.app.node.balances.balancesAt(customerId, hub.clock.now()).pointsMilli;

/** A points.assign as a store's write path queues it: the call, its caller and the id it made, stamped in the node's origin. */
function assign(seq: number, origin: string, customerId: string, amount: number) {
  const at = hub.clock.now();
  const id = hub.app.node.newId();
  return {
    seq,
    command_id: `assign-${origin}-${seq}-${(commandIds += 1)}`,
    kind: 'points.assign',
    hlc: `${hex(at, 12)}-${hex(seq, 4)}-${origin}`,
    operation: {
      call: {
        iface: 'enterprise',
        input: { params: {}, query: {}, body: { customer_id: customerId, amount } },
        principal: { kind: 'user', userId: POS_USER, scheme: 'bearer' },
      },
      as_of: at,
      ids: [id],
    },
  };
}

async function push(node: { node_name: string; node_secret: string }, commands: unknown[], generation = 'g1') {
  const pushed = await call('POST', `${hub.url}/sync/v1/commands`, {
    headers: {
      ...basic(node.node_name, node.node_secret),
      'x-loyaltyd-protocol': String(PROTOCOL_VERSION),
      'x-loyaltyd-schema': String(schemaVersion()),
    },
    body: { generation, commands },
  });
  expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
  return (pushed.body as { results: { seq: number; status: string; reason: string | null }[] }).results;
}

const nodeId = (name: string) => hub.app.node.db.prepare<[string], string>('SELECT id FROM nodes WHERE name = ?').pluck().get(name)!;

beforeAll(async () => {
  hubDir = tempDir();
  hub = await startTestServer({ config: { mode: 'hub' }, dataDir: hubDir });
});

afterAll(async () => {
  await hub?.close();
  rmSync(hubDir, { recursive: true, force: true });
});

describe("a push whose operation fails after it wrote (held past the node's limits)", () => {
  it('is answered and kept as with a savepoint for each: the others applied once, nothing of the held one, the limits counting the applied alone', async () => {
    const node = hub.app.services.nodes.add('store-first-push', [DEMO_IDS.storeCentral]);
    const origin = 'b0a7f001';
    const evaBefore = points(EVA);
    const petrBefore = points(PETR);
    const feedBefore = count(hub, 'SELECT coalesce(max(seq), 0) AS n FROM changes');
    const commands = [assign(1, origin, EVA, 5), assign(2, origin, PETR, 1e9), assign(3, origin, EVA, 7), assign(4, origin, PETR, 3)];

    const results = await push(node, commands);

    expect(results.map((result) => [result.seq, result.status])).toEqual([
      [1, 'applied'],
      [2, 'held'],
      [3, 'applied'],
      [4, 'applied'],
    ]);
    expect(results[1]!.reason).toContain('1000000000 points given or taken by hand');
    expect(points(EVA) - evaBefore).toBe(12_000);
    expect(points(PETR) - petrBefore).toBe(3_000);
    const madeBy = (command: (typeof commands)[number]) =>
      count(hub, 'SELECT count(*) AS n FROM point_records WHERE id = ?', command.operation.ids[0]!);
    expect(commands.map(madeBy)).toEqual([1, 0, 1, 1]);
    // Each applied record entered the feed once; the held one's never.
    const fed = (command: (typeof commands)[number]) =>
      count(
        hub,
        "SELECT count(*) AS n FROM changes WHERE seq > ? AND entity = 'point_records' AND entity_id = ?",
        feedBefore,
        command.operation.ids[0]!,
      );
    expect(commands.map(fed)).toEqual([1, 0, 1, 1]);
    const day = (customerId: string) =>
      hub.app.node.db
        .prepare<[string, string], number>('SELECT manual_milli FROM node_customer_days WHERE node_id = ? AND customer_id = ?')
        .pluck()
        .get(nodeId(node.node_name), customerId);
    expect(day(EVA)).toBe(12_000);
    expect(day(PETR)).toBe(3_000);
    expect(hub.app.held!.list().map((held) => held.command_id)).toEqual([commands[1]!.command_id]);
    expect(count(hub, 'SELECT count(*) AS n FROM applied_commands WHERE node_id = ?', nodeId(node.node_name))).toBe(4);
    // The node's first push bound its origin to it, though the first attempt that bound it was taken back.
    expect(hub.app.node.db.prepare('SELECT node_id FROM sync_node_origins WHERE origin = ?').pluck().get(origin)).toBe(nodeId(node.node_name));
    const other = hub.app.services.nodes.add('store-other', [DEMO_IDS.storeCentral]);
    expect((await push(other, [assign(1, origin, EVA, 1)]))[0]).toMatchObject({
      status: 'rejected',
      reason: expect.stringContaining('another node speaks for'),
    });
  });

  it('answered again, gives the same results without applying anything twice', async () => {
    const node = hub.app.services.nodes.add('store-pushing-again', [DEMO_IDS.storeCentral]);
    const origin = 'b0a7f002';
    const commands = [assign(1, origin, EVA, 2), assign(2, origin, PETR, 1e9), assign(3, origin, EVA, 4)];
    const first = await push(node, commands);
    const evaAfter = points(EVA);
    expect(await push(node, commands)).toEqual(first);
    expect(points(EVA)).toBe(evaAfter);
    expect(first.map((result) => result.status)).toEqual(['applied', 'held', 'applied']);
  });
});

describe('a command id the hub holds already', () => {
  it("pushed again by its node at a new seq is answered from its result and applied once; another node's push of it is refused, and answered nothing of the first", async () => {
    const owner = hub.app.services.nodes.add('store-id-owner', [DEMO_IDS.storeCentral]);
    const command = assign(1, 'b0a7f003', EVA, 6);
    const [first] = await push(owner, [command]);
    expect(first).toMatchObject({ command_id: command.command_id, status: 'applied' });
    const evaAfter = points(EVA);
    // Its answer lost, the store went on in a new generation, where the command is the first.
    expect((await push(owner, [command], 'g2'))[0]).toMatchObject({ command_id: command.command_id, seq: 1, status: 'applied' });
    expect(points(EVA)).toBe(evaAfter);

    const borrower = hub.app.services.nodes.add('store-id-borrower', [DEMO_IDS.storeCentral]);
    const petrBefore = points(PETR);
    const borrowed = { ...assign(1, 'b0a7f004', PETR, 1), command_id: command.command_id };
    const refused = await push(borrower, [borrowed]);
    expect(refused).toEqual([{ command_id: command.command_id, seq: 1, status: 'rejected', reason: 'command_id_of_another_node' }]);
    // Sent again, as a store whose answer was lost sends it: refused again, not answered the first's result.
    expect(await push(borrower, [borrowed])).toEqual(refused);
    expect(points(PETR)).toBe(petrBefore);
    expect(
      count(hub, 'SELECT count(*) AS n FROM applied_commands WHERE command_id = ? AND node_id = ?', command.command_id, nodeId(owner.node_name)),
    ).toBe(1);
  });
});
