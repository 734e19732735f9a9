/**
 * `loyaltyd held` on a real hub's data folder: a store node pushes two operations
 * the hub holds — 5000 points assigned by hand, past the node's daily limit, and points for a
 * customer the hub does not know — then the hub stops and the built CLI lists, releases and
 * voids them over the same SQLite file. At a store's folder every `held` command is refused.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaVersion } from '../../src/db/migrate.js';
import { openDatabase } from '../../src/db/open.js';
import { DEMO_IDS } from '../../src/demo/demo.js';
import { databaseFile } from '../../src/root/node.js';
import { PROTOCOL_VERSION } from '../../src/sync/protocol/protocol.js';
import { runCli, runCliJson } from '../support/cli.js';
import { basic, call, startTestServer, tempDir } from '../support/server.js';
import { hex } from '../support/ids.js';

const HUB = { LOYALTYD_MODE: 'hub' };
const EVA = DEMO_IDS.customerEva;
const POS_USER = `de${(0x101).toString(16).padStart(24, '0')}`;
const ORIGIN = 'abcd1234';

/** The id the first operation makes: its 5000-point record at the hub once released. */
const POINTS_ID = `${hex(Date.now(), 12)}00000000000041`;
const UNKNOWN_CUSTOMER = `${hex(Date.now(), 12)}00000000000077`;

let hubDir: string;
let storeDir: string;
let nodeId: string;

/** A store's points.assign as a store pushes it: the call it served, its as-of time and the id it made. */
function assignPoints(seq: number, commandId: string, customerId: string, amount: number, recordId: string) {
  return {
    seq,
    command_id: commandId,
    kind: 'points.assign',
    hlc: `${hex(Date.now(), 12)}-0000-${ORIGIN}`,
    operation: {
      call: {
        iface: 'enterprise',
        input: { params: {}, query: {}, body: { customer_id: customerId, amount } },
        principal: { kind: 'user', userId: POS_USER, scheme: 'bearer' },
      },
      as_of: Date.now(),
      ids: [recordId],
    },
  };
}

/** Reads from the database of a data folder, the CLI not running. */
function query(dataDir: string, sql: string, ...params: string[]): unknown[] {
  const db = openDatabase(databaseFile(dataDir));
  try {
    return db.prepare(sql).all(...params);
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  hubDir = tempDir('loyaltyd-held-hub-');
  storeDir = tempDir('loyaltyd-held-store-');
  const hub = await startTestServer({ config: { mode: 'hub' }, dataDir: hubDir });
  try {
    const node = hub.app.services.nodes.add('store-x', [DEMO_IDS.storeCentral]);
    nodeId = (hub.app.node.db.prepare('SELECT id FROM nodes WHERE name = ?').get('store-x') as { id: string }).id;
    const headers = {
      ...basic(node.node_name, node.node_secret),
      'x-loyaltyd-protocol': String(PROTOCOL_VERSION),
      'x-loyaltyd-schema': String(schemaVersion()),
    };
    const push = (command: ReturnType<typeof assignPoints>) =>
      call('POST', `${hub.url}/sync/v1/commands`, { headers, body: { generation: 'g1', commands: [command] } });
    const pastLimit = await push(assignPoints(1, 'held-1', EVA, 5000, POINTS_ID));
    expect(pastLimit.status).toBe(200);
    expect(pastLimit.body.results).toEqual([expect.objectContaining({ command_id: 'held-1', status: 'held' })]);
    // A second later, so the list's order is the order they were held in.
    hub.clock.advance(1000);
    const unknownCustomer = await push(assignPoints(2, 'held-2', UNKNOWN_CUSTOMER, 5, `${hex(Date.now(), 12)}00000000000042`));
    expect(unknownCustomer.body.results).toEqual([expect.objectContaining({ command_id: 'held-2', status: 'held' })]);
  } finally {
    await hub.close();
  }
  expect((await runCli(['init', '--data-dir', storeDir])).code).toBe(0);
});

afterAll(() => {
  for (const folder of [hubDir, storeDir]) if (folder) rmSync(folder, { recursive: true, force: true });
});

// The cases run in order over one hub folder: listed first, then released, then voided.
describe('loyaltyd held at the hub', () => {
  it('held list shows the operations still held, oldest first, with their node, kind and reason', async () => {
    const listed = await runCliJson(['held', 'list', '--data-dir', hubDir], HUB);
    expect(listed).toEqual({
      held: [
        {
          command_id: 'held-1',
          node_id: nodeId,
          node_name: 'store-x',
          kind: 'points.assign',
          reason: expect.stringMatching(/^5000 points given or taken by hand for customer .* past this node's limit$/),
          held_at: expect.any(String),
        },
        {
          command_id: 'held-2',
          node_id: nodeId,
          node_name: 'store-x',
          kind: 'points.assign',
          reason: expect.stringContaining('customer_id: not_found'),
          held_at: expect.any(String),
        },
      ],
    });
    expect(Date.parse(listed.held[1].held_at) - Date.parse(listed.held[0].held_at)).toBe(1000);

    const readable = await runCli(['held', 'list', '--mode', 'hub', '--data-dir', hubDir]);
    expect(readable.code).toBe(0);
    expect(readable.stdout.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^\S+ {2}held-1 {2}points\.assign {2}node store-x {2}5000 points given or taken by hand/),
      expect.stringMatching(/^\S+ {2}held-2 {2}points\.assign {2}node store-x {2}.*customer_id: not_found/),
    ]);
  });

  it("held release runs an operation again past its node's limit: its points count at the hub and it is no longer held", async () => {
    const pointRecord = `SELECT customer_id, kind, points_milli FROM point_records WHERE id = ?`;
    expect(query(hubDir, pointRecord, POINTS_ID)).toEqual([]);

    const released = await runCli(['held', 'release', 'held-1', '--data-dir', hubDir], HUB);
    expect(released).toMatchObject({ code: 0, stderr: '' });
    expect(released.stdout).toMatch(/^command_id {2}held-1\nstate {7}released\n$/);

    expect(query(hubDir, pointRecord, POINTS_ID)).toEqual([{ customer_id: EVA, kind: 'collection', points_milli: 5_000_000 }]);
    expect(query(hubDir, 'SELECT state, resolved_at IS NOT NULL AS resolved FROM held_commands WHERE command_id = ?', 'held-1')).toEqual([
      { state: 'released', resolved: 1 },
    ]);
    expect((await runCliJson(['held', 'list', '--data-dir', hubDir], HUB)).held.map((command: { command_id: string }) => command.command_id)).toEqual(
      ['held-2'],
    );

    const voided = await runCli(['held', 'void', 'held-1', '--data-dir', hubDir], HUB);
    expect(voided.code).toBe(1);
    expect(voided.stderr).toBe('loyaltyd: cannot void held-1: The command was released already\n');
    expect(query(hubDir, 'SELECT state FROM held_commands WHERE command_id = ?', 'held-1')).toEqual([{ state: 'released' }]);
  });

  it('held release of an operation the hub still cannot take exits non-zero saying why, and held void sets it aside for good', async () => {
    const refused = await runCli(['held', 'release', 'held-2', '--data-dir', hubDir], HUB);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^loyaltyd: cannot release held-2: The hub cannot take it: .*customer_id: not_found\n$/);
    expect(query(hubDir, 'SELECT state FROM held_commands WHERE command_id = ?', 'held-2')).toEqual([{ state: 'held' }]);

    const voided = await runCliJson(['held', 'void', 'held-2', '--data-dir', hubDir], HUB);
    expect(voided).toEqual({ command_id: 'held-2', state: 'voided' });
    expect(query(hubDir, 'SELECT state FROM held_commands WHERE command_id = ?', 'held-2')).toEqual([{ state: 'voided' }]);
    expect(query(hubDir, "SELECT entity_id FROM sync_conflicts WHERE kind = 'held_command' ORDER BY entity_id")).toEqual([
      { entity_id: 'held-1' },
      { entity_id: 'held-2' },
    ]);

    expect(await runCliJson(['held', 'list', '--data-dir', hubDir], HUB)).toEqual({ held: [] });
    const empty = await runCli(['held', 'list', '--data-dir', hubDir], HUB);
    expect(empty).toMatchObject({ code: 0, stdout: 'no held operations\n' });
  });

  it('held release of a command id the hub never held exits non-zero saying so', async () => {
    const unknown = await runCli(['held', 'release', 'no-such-command', '--data-dir', hubDir], HUB);
    expect(unknown).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'loyaltyd: cannot release no-such-command: the hub never held an operation with this command id\n',
    });
  });
});

describe('loyaltyd held at a store', () => {
  it.for([['list'], ['release', 'held-1'], ['void', 'held-1']])(
    'held %s says held operations are kept at the hub and exits non-zero',
    async (args) => {
      const result = await runCli(['held', ...args, '--data-dir', storeDir]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^loyaltyd: held operations are kept at the hub: run this on the hub's data folder in hub mode/);
    },
  );
});

describe('loyaltyd held --help', () => {
  it.for([
    ['held', ['list', 'release', 'void']],
    ['held list', ['--limit', '--mode', '--data-dir', '--config', '--json']],
    ['held release', ['<command_id>', '--mode', '--data-dir', '--config', '--json']],
    ['held void', ['<command_id>', '--mode', '--data-dir', '--config', '--json']],
  ] as const)('`loyaltyd %s --help` exits 0 and lists its options', async ([line, options]) => {
    const result = await runCli([...line.split(' '), '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Usage: loyaltyd ${line} `);
    for (const option of options) expect(result.stdout).toMatch(new RegExp(`(^|[\\s,])${option}(\\s|$)`, 'm'));
  });
});
