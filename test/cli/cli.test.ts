import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/auth/secrets.js';
import { buildProgram } from '../../src/cli/main.js';
import { schemaVersion } from '../../src/db/migrate.js';
import { MIGRATIONS } from '../../src/db/migrations/index.js';
import { openDatabase } from '../../src/db/open.js';
import { DEMO_IDS, DEMO_PROGRAM as PROGRAM_FILE, demoCredentials } from '../../src/demo/demo.js';
import { databaseFile } from '../../src/root/node.js';
import { BIN, cliEnv, runCli, runCliJson } from '../support/cli.js';
import { basic, bearer, call, demoPosLogin, startTestServer, type TestServer } from '../support/server.js';
import { tempFolders } from '../support/temp-folders.js';

const { newFolder, removeFolders } = tempFolders('loyaltyd-cli-');
const servers: TestServer[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  removeFolders();
});

const HUB = { LOYALTYD_MODE: 'hub' };

/** A folder holding a hub's database with the demo chain, as `LOYALTYD_MODE=hub loyaltyd demo` makes it: its stores are there to serve. */
async function newHubFolder(): Promise<string> {
  const folder = newFolder();
  await runCliJson(['demo', '--data-dir', folder], HUB);
  return folder;
}

/** The store a node registered in these tests serves. */
const STORE = ['--store', DEMO_IDS.storeCentral];

/** Reads one value from the database of a data folder the CLI wrote. */
function queryOne(dataDir: string, sql: string, ...params: string[]): unknown {
  const db = openDatabase(databaseFile(dataDir));
  try {
    return db.prepare(sql).get(...params);
  } finally {
    db.close();
  }
}

const allNames = MIGRATIONS.map((migration) => `${String(migration.version).padStart(4, '0')}-${migration.name}`);
const COMMON = ['--data-dir', '--config', '--json'];

/** Every command line and the options its help must list. */
const HELP: Record<string, string[]> = {
  '': [
    '--version',
    '--help',
    'serve',
    'init',
    'migrate',
    'demo',
    'apps',
    'users',
    'api-users',
    'nodes',
    'sync',
    'held',
    'program',
    'import',
    'backup',
    'restore',
    'hub',
  ],
  serve: ['--mode', '--data-dir', '--port', '--host', '--config', '--hub-url', '--node-name', '--node-secret', '--demo', '--showcase'],
  init: COMMON,
  migrate: COMMON,
  demo: COMMON,
  apps: ['add'],
  'apps add': ['--name', ...COMMON],
  users: ['add'],
  'users add': ['--login', '--password', '--app', '--store', '--legacy-basic', ...COMMON],
  'api-users': ['add'],
  'api-users add': ['--name', ...COMMON],
  nodes: ['add', 'retire'],
  'nodes add': ['--name', '--store', ...COMMON],
  'nodes retire': ['--name', ...COMMON],
  sync: ['status', 'now', 'compact', 'checksum', 'conflicts'],
  'sync status': ['--mode', '--hub-url', '--node-name', '--node-secret', ...COMMON],
  held: ['list', 'release', 'void'],
  'held list': ['--limit', '--mode', ...COMMON],
  'held release': ['<command_id>', '--mode', ...COMMON],
  'held void': ['<command_id>', '--mode', ...COMMON],
  'sync now': ['--mode', '--hub-url', '--node-name', '--node-secret', ...COMMON],
  'sync compact': COMMON,
  'sync checksum': ['--all', ...COMMON],
  'sync conflicts': ['--limit', ...COMMON],
  program: ['load'],
  'program load': ['<file>', ...COMMON],
  import: ['<resource>', '<file>', '--batch-size', ...COMMON],
  backup: ['--to', ...COMMON],
  restore: ['--from', ...COMMON],
  hub: ['move-to-postgres', 'restored'],
  'hub move-to-postgres': COMMON,
  'hub restored': COMMON,
};

function commandLines(command: Command, prefix: string[] = []): string[] {
  return command.commands.flatMap((sub) => {
    const line = [...prefix, sub.name()];
    return [line.join(' '), ...commandLines(sub, line)];
  });
}

describe('loyaltyd database commands', () => {
  it('init --json creates the database and lists every applied migration', async () => {
    const dataDir = newFolder();
    const result = await runCliJson(['init', '--data-dir', dataDir]);
    expect(result).toEqual({ database: databaseFile(dataDir), schema_version: schemaVersion(), applied: allNames });
  });

  it('migrate --json on a fresh folder applies everything, then nothing', async () => {
    const dataDir = newFolder();
    expect(await runCliJson(['migrate', '--data-dir', dataDir])).toMatchObject({ schema_version: schemaVersion(), applied: allNames });
    expect(await runCliJson(['migrate', '--data-dir', dataDir])).toEqual({
      database: databaseFile(dataDir),
      schema_version: schemaVersion(),
      applied: [],
    });
  });

  it('takes the data folder from LOYALTYD_DATA_DIR', async () => {
    const dataDir = newFolder();
    const result = await runCliJson(['init'], { LOYALTYD_DATA_DIR: dataDir });
    expect(result.database).toBe(databaseFile(dataDir));
  });

  it('demo --json prints the demo credentials', async () => {
    const dataDir = newFolder();
    expect(await runCliJson(['demo', '--data-dir', dataDir])).toEqual(demoCredentials);
    // Loading it again changes nothing and prints the same credentials.
    expect(await runCliJson(['demo', '--data-dir', dataDir])).toEqual(demoCredentials);
    expect(queryOne(dataDir, 'SELECT count(*) AS n FROM users WHERE login = ?', demoCredentials.pos_login)).toEqual({ n: 1 });
  });
});

describe('loyaltyd admin commands', () => {
  it('apps add, then users add, give a user who logs in over HTTP with those credentials', async () => {
    const dataDir = newFolder();
    const app = await runCliJson(['apps', 'add', '--name', 'Till app', '--data-dir', dataDir]);
    expect(app.external_application_id).toMatch(/^[0-9a-f]{26}$/);
    const user = await runCliJson([
      'users',
      'add',
      '--login',
      'cashier',
      '--password',
      's3cret-till',
      '--app',
      app.external_application_id,
      '--data-dir',
      dataDir,
    ]);
    expect(user.user_id).toMatch(/^[0-9a-f]{26}$/);

    const server = await startTestServer({ dataDir, demo: false });
    servers.push(server);
    const login = await call('POST', `${server.api('enterprise')}/users/actions/login`, {
      body: { user_external_application_id: app.external_application_id, login: 'cashier', password: 's3cret-till' },
    });
    expect(login.status).toBe(200);
    expect(typeof login.body.data.bearer_token).toBe('string');

    const apps = await call('GET', `${server.api('enterprise')}/customer-external-applications`, { headers: bearer(login.body.data.bearer_token) });
    expect(apps.status).toBe(200);
    expect(apps.body.data.customer_external_applications.map((row: any) => row.name)).toEqual(['Till app']);

    const wrong = await call('POST', `${server.api('enterprise')}/users/actions/login`, {
      body: { user_external_application_id: app.external_application_id, login: 'cashier', password: 'not-the-password' },
    });
    expect(wrong.status).toBe(401);
  });

  it('users add --password - reads the password from standard input, so it is in no process list', async () => {
    const dataDir = newFolder();
    const app = await runCliJson(['apps', 'add', '--name', 'Till app', '--data-dir', dataDir]);
    const added = await runCli(
      ['users', 'add', '--login', 'quiet', '--password', '-', '--app', app.external_application_id, '--data-dir', dataDir, '--json'],
      {},
      'from-stdin-42\n',
    );
    expect(added.code, added.stderr).toBe(0);
    const server = await startTestServer({ dataDir, demo: false });
    servers.push(server);
    const login = await call('POST', `${server.api('enterprise')}/users/actions/login`, {
      body: { user_external_application_id: app.external_application_id, login: 'quiet', password: 'from-stdin-42' },
    });
    expect(login.status).toBe(200);
  });

  it('users add with an unknown app exits 1 and says which app is unknown', async () => {
    const dataDir = newFolder();
    const unknown = 'ffffffffffffffffffffffffff';
    const result = await runCli(['users', 'add', '--login', 'cashier', '--password', 'pw', '--app', unknown, '--data-dir', dataDir, '--json']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('app: not_found');
    expect(result.stderr).toContain(unknown);
    expect(queryOne(dataDir, 'SELECT count(*) AS n FROM users')).toEqual({ n: 0 });
  });

  it('users add with a login that exists exits 1 and names the login', async () => {
    const dataDir = newFolder();
    const app = await runCliJson(['apps', 'add', '--name', 'Till app', '--data-dir', dataDir]);
    const args = ['users', 'add', '--login', 'cashier', '--password', 'pw', '--app', app.external_application_id, '--data-dir', dataDir];
    expect((await runCli(args)).code).toBe(0);
    const again = await runCli(args);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('login: already_exists (cashier)');
  });

  it('users add without --password exits non-zero and names the missing option', async () => {
    const result = await runCli(['users', 'add', '--login', 'cashier', '--app', 'x', '--data-dir', newFolder()]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('--password');
  });

  it('api-users add --json prints a user name a customer app can create a token with', async () => {
    const dataDir = newFolder();
    const app = await runCliJson(['apps', 'add', '--name', 'Customer app', '--data-dir', dataDir]);
    const apiUser = await runCliJson(['api-users', 'add', '--name', 'mobile app', '--data-dir', dataDir]);
    expect(Object.keys(apiUser)).toEqual(['user_name']);
    expect(apiUser.user_name).toMatch(/^api-[0-9a-f]{24}$/);
    expect(queryOne(dataDir, 'SELECT name FROM api_users WHERE user_name = ?', apiUser.user_name)).toEqual({ name: 'mobile app' });

    const server = await startTestServer({ dataDir, demo: false });
    servers.push(server);
    const token = await call('POST', `${server.api('customer')}/tokens`, {
      headers: basic(apiUser.user_name, ''),
      body: { device: { device_id: 'cli-test' }, setup: { language_id: 'en' }, external_application_id: app.external_application_id },
    });
    expect(token.status).toBe(201);
  });

  it('nodes add --json prints the node name and a secret stored only as its hash', async () => {
    const dataDir = await newHubFolder();
    const node = await runCliJson(['nodes', 'add', '--name', 'store-brno', ...STORE, '--data-dir', dataDir]);
    expect(Object.keys(node).sort()).toEqual(['node_name', 'node_secret', 'store_ids']);
    expect(node.node_name).toBe('store-brno');
    expect(node.node_secret).toMatch(/^[0-9a-f]{64}$/);
    expect(node.store_ids).toEqual([DEMO_IDS.storeCentral]);
    expect(queryOne(dataDir, 'SELECT secret_hash FROM nodes WHERE name = ?', 'store-brno')).toEqual({ secret_hash: sha256Hex(node.node_secret) });
  });

  it('nodes add --store binds the node to the stores it serves, and refuses a store the chain does not have', async () => {
    const dataDir = newFolder();
    await runCliJson(['demo', '--data-dir', dataDir], HUB);
    const node = await runCliJson([
      'nodes',
      'add',
      '--name',
      'store-prague',
      '--store',
      DEMO_IDS.storeCentral,
      '--store',
      DEMO_IDS.storeAirport,
      '--data-dir',
      dataDir,
    ]);
    expect(node.store_ids).toEqual([DEMO_IDS.storeCentral, DEMO_IDS.storeAirport]);
    expect(queryOne(dataDir, 'SELECT count(*) AS n FROM node_stores s JOIN nodes n ON n.id = s.node_id WHERE n.name = ?', 'store-prague')).toEqual({
      n: 2,
    });
    const refused = await runCli([
      'nodes',
      'add',
      '--name',
      'store-nowhere',
      '--store',
      'ffffffffffffffffffffffffff',
      '--data-dir',
      dataDir,
      '--json',
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('store_id: not_found (ffffffffffffffffffffffffff)');
    expect(queryOne(dataDir, 'SELECT count(*) AS n FROM nodes WHERE name = ?', 'store-nowhere')).toEqual({ n: 0 });
  });

  it('nodes add without --store exits 2 naming the flag, and registers nothing', async () => {
    const dataDir = await newHubFolder();
    const result = await runCli(['nodes', 'add', '--name', 'store-nowhere', '--data-dir', dataDir, '--json']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('nodes add needs at least one --store <id>');
    expect(queryOne(dataDir, 'SELECT count(*) AS n FROM nodes')).toEqual({ n: 0 });
  });

  it('users add --store makes a user of that store, without it one of head office, and refuses a store the chain does not have', async () => {
    const dataDir = await newHubFolder();
    const add = (login: string, ...store: string[]) =>
      runCli(['users', 'add', '--login', login, '--password', 'pw', '--app', DEMO_IDS.app, ...store, '--data-dir', dataDir, '--json']);
    expect((await add('cashier-airport', '--store', DEMO_IDS.storeAirport)).code).toBe(0);
    expect((await add('back-office')).code).toBe(0);
    const storeOf = (login: string) => queryOne(dataDir, 'SELECT store_id FROM users WHERE login = ?', login);
    expect(storeOf('cashier-airport')).toEqual({ store_id: DEMO_IDS.storeAirport });
    expect(storeOf('back-office')).toEqual({ store_id: null });
    const refused = await add('cashier-nowhere', '--store', 'ffffffffffffffffffffffffff');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('store_id: not_found (ffffffffffffffffffffffffff)');
    expect(storeOf('cashier-nowhere')).toBeUndefined();
  });

  it('nodes add twice with the same name exits 1 and keeps the first secret', async () => {
    const dataDir = await newHubFolder();
    const first = await runCliJson(['nodes', 'add', '--name', 'store-brno', ...STORE, '--data-dir', dataDir]);
    const second = await runCli(['nodes', 'add', '--name', 'store-brno', ...STORE, '--data-dir', dataDir, '--json']);
    expect(second.code).toBe(1);
    expect(second.stdout).toBe('');
    expect(second.stderr).toContain('name: already_exists (store-brno)');
    expect(queryOne(dataDir, 'SELECT count(*) AS n, secret_hash FROM nodes')).toEqual({ n: 1, secret_hash: sha256Hex(first.node_secret) });
  });

  it("nodes retire turns a node's secret off for good, again without harm, and exits 1 naming a node the hub does not have", async () => {
    const dataDir = await newHubFolder();
    await runCliJson(['nodes', 'add', '--name', 'store-brno', ...STORE, '--data-dir', dataDir]);
    for (let n = 0; n < 2; n += 1)
      expect(await runCliJson(['nodes', 'retire', '--name', 'store-brno', '--data-dir', dataDir])).toEqual({
        node_name: 'store-brno',
        retired: true,
      });
    expect(queryOne(dataDir, 'SELECT state FROM nodes WHERE name = ?', 'store-brno')).toEqual({ state: 0 });
    const unknown = await runCli(['nodes', 'retire', '--name', 'store-nowhere', '--data-dir', dataDir, '--json']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('name: not_found (store-nowhere)');
  });

  it("nodes add refuses an empty folder and a store's, exiting 1 with what to do; a hub's folder needs no LOYALTYD_MODE", async () => {
    const empty = newFolder();
    const onEmpty = await runCli(['nodes', 'add', '--name', 'store-brno', ...STORE, '--data-dir', empty, '--json'], HUB);
    expect(onEmpty.code).toBe(1);
    expect(onEmpty.stdout).toBe('');
    expect(onEmpty.stderr).toContain(`loyaltyd: ${empty} holds no loyaltyd database; store nodes are registered at the hub`);
    expect(existsSync(databaseFile(empty))).toBe(false);

    const store = newFolder();
    await runCliJson(['init', '--data-dir', store]);
    const onStore = await runCli(['nodes', 'add', '--name', 'store-brno', ...STORE, '--data-dir', store, '--json'], HUB);
    expect(onStore.code).toBe(1);
    expect(onStore.stderr).toContain(`loyaltyd: ${store} holds a store's database, not a hub's`);
    expect(queryOne(store, 'SELECT count(*) AS n FROM nodes')).toEqual({ n: 0 });

    const hub = await newHubFolder();
    expect((await runCliJson(['nodes', 'add', '--name', 'store-brno', ...STORE, '--data-dir', hub])).node_name).toBe('store-brno');
    expect(queryOne(hub, "SELECT value FROM meta WHERE key = 'mode'")).toEqual({ value: 'hub' });
  });

  it("sync status refuses a hub's folder without --mode hub, and a store's with it, exiting 1", async () => {
    const hub = await newHubFolder();
    const store = newFolder();
    await runCliJson(['init', '--data-dir', store]);
    const asStore = await runCli(['sync', 'status', '--data-dir', hub, '--json']);
    expect(asStore.code).toBe(1);
    expect(asStore.stdout).toBe('');
    expect(asStore.stderr).toContain(`${hub} holds a hub's database, not a store's; for a hub's folder give --mode hub`);
    const asHub = await runCli(['sync', 'status', '--mode', 'hub', '--data-dir', store, '--json']);
    expect(asHub.code).toBe(1);
    expect(asHub.stderr).toContain(`${store} holds a store's database, not a hub's; for a store's folder leave out --mode hub`);
    expect((await runCliJson(['sync', 'status', '--mode', 'hub', '--data-dir', hub])).mode).toBe('hub');
    expect((await runCliJson(['sync', 'status', '--data-dir', store])).mode).toBe('store');
  });

  it('a folder an earlier release made, with no mode recorded, is known by what it holds when that is sure, else accepted', async () => {
    const hub = await newHubFolder();
    await runCliJson(['nodes', 'add', '--name', 'store-brno', ...STORE, '--data-dir', hub]);
    const unrecorded = newFolder();
    await runCliJson(['init', '--data-dir', unrecorded]);
    for (const folder of [hub, unrecorded]) {
      const db = openDatabase(databaseFile(folder));
      db.prepare("DELETE FROM meta WHERE key = 'mode'").run();
      db.close();
    }
    // The hub registered a store node: a hub's.
    expect((await runCli(['sync', 'status', '--data-dir', hub, '--json'])).code).toBe(1);
    expect((await runCli(['nodes', 'add', '--name', 'store-plzen', ...STORE, '--data-dir', hub, '--json'])).code).toBe(0);
    // Nothing says which: accepted, as before.
    expect((await runCli(['sync', 'status', '--data-dir', unrecorded, '--json'])).code).toBe(0);
    expect((await runCli(['sync', 'status', '--mode', 'hub', '--data-dir', unrecorded, '--json'])).code).toBe(0);
  });

  it('prints key: value lines without --json', async () => {
    const result = await runCli(['nodes', 'add', '--name', 'store-brno', ...STORE, '--data-dir', await newHubFolder()]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^node_name\s+store-brno$/m);
    expect(result.stdout).toMatch(/^node_secret\s+[0-9a-f]{64}$/m);
  });
});

describe('loyaltyd serve', () => {
  it('serve --port abc exits non-zero naming http.port', async () => {
    const result = await runCli(['serve', '--port', 'abc', '--data-dir', newFolder()]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('http.port');
  });

  it('serve with a hub but no node credentials exits 2 naming node.name, before it listens', async () => {
    const result = await runCli(['serve', '--port', '0', '--hub-url', 'http://127.0.0.1:9', '--data-dir', newFolder()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('node.name');
    expect(result.stdout).not.toContain('serving');
  });

  it('loading the demo or a program queues nothing for a hub: master data is never a store command', async () => {
    const folder = newFolder();
    await runCliJson(['demo', '--data-dir', folder]);
    await runCliJson(['program', 'load', PROGRAM_FILE, '--data-dir', folder]);
    const db = openDatabase(databaseFile(folder));
    try {
      expect(db.prepare("SELECT count(*) AS n FROM outbox WHERE status = 'pending'").get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });

  it('a program loaded from the command line while the daemon runs is what its next checkout call uses', async () => {
    // The daemon keeps the parsed rewards until the table may have changed; a load by another
    // process on the same folder must be noticed without a restart.
    const folder = newFolder();
    const server = await startTestServer({ dataDir: folder });
    servers.push(server);
    const auth = await demoPosLogin(server);
    const recommend = async () => {
      const response = await call('POST', `${server.api('enterprise')}/purchases/actions/recommended-best-rewards`, {
        headers: auth,
        body: {
          store_id: DEMO_IDS.storeCentral,
          cashdesk_number: '1',
          card_number: demoCredentials.customer_card,
          reward_list_type: 'C',
          bill: {
            bill_id: 'B-1',
            payment_time: '2026-11-20T14:00:00+00:00',
            total_price: '65',
            bill_items: [{ plu_ids: [{ list_code: 'GLOBAL', code: '859000771' }], quantity: 1, price: 65, paid_amount: 65, bill_item_id: 1 }],
          },
        },
      });
      expect(response.status).toBe(200);
      return response.body.data.recommended_best_rewards.map((reward: { name: string }) => reward.name);
    };
    expect(await recommend()).toContain('Free cappuccino');
    const program = JSON.parse(readFileSync(PROGRAM_FILE, 'utf8')) as { rewards: { code: string; name: string }[] };
    for (const reward of program.rewards) if (reward.code === 'FREE-CAPPUCCINO') reward.name = 'Cappuccino on the house';
    const file = join(folder, 'program.json');
    writeFileSync(file, JSON.stringify(program));
    await runCliJson(['program', 'load', file, '--data-dir', folder]);
    const names = await recommend();
    expect(names).toContain('Cappuccino on the house');
    expect(names).not.toContain('Free cappuccino');
  });

  it('serve with LOYALTYD_PORT=abc exits non-zero naming http.port', async () => {
    const result = await runCli(['serve', '--data-dir', newFolder()], { LOYALTYD_PORT: 'abc' });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('http.port');
  });

  it('serve --mode shop exits non-zero naming mode', async () => {
    const result = await runCli(['serve', '--mode', 'shop', '--data-dir', newFolder()]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/config key mode\b/);
  });

  it('serve answers /health on the port it prints and stops cleanly on SIGTERM', async () => {
    const dataDir = newFolder();
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir, '--mode', 'hub'], {
      env: cliEnv({ LOYALTYD_LOG_LEVEL: 'silent' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const match = /serving (http:\/\/\S+)/.exec(output);
          if (match) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`serve exited ${code} before listening: ${output}`)));
      });
      const health = await call('GET', `${url}/health`);
      expect(health.status).toBe(200);
      expect(health.body).toMatchObject({ status: 'ok', mode: 'hub', schema_version: schemaVersion() });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});

// Each help test starts its own process; they share nothing, so they run side by side.
describe.concurrent('loyaltyd help', () => {
  it('has a help entry for every command line the program defines', ({ expect }) => {
    expect(
      commandLines(buildProgram())
        .filter((line) => !line.endsWith('help'))
        .sort(),
    ).toEqual(
      Object.keys(HELP)
        .filter((line) => line !== '')
        .sort(),
    );
  });

  it.for(Object.entries(HELP).map(([line, options]) => [`loyaltyd ${line}`.trimEnd(), options] as const))(
    '`%s --help` exits 0 and lists its options',
    async ([usage, options], { expect }) => {
      const result = await runCli([...usage.split(' ').slice(1), '--help']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`Usage: ${usage} `);
      for (const option of options) expect(result.stdout).toMatch(new RegExp(`(^|[\\s,])${option}(\\s|$)`, 'm'));
    },
  );

  it('an unknown command exits non-zero and shows the usage', async ({ expect }) => {
    const result = await runCli(['no-such-command']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("unknown command 'no-such-command'");
    expect(result.stderr).toContain('Usage: loyaltyd');
  });
});
