/**
 * What a store holds of the chain's credentials (DESIGN §4 and §5): after a bootstrap from its
 * hub its database file holds no customer's password hash and the POS users of its own stores
 * alone — no other store's, none of head office's — and the feed sends it no more; a store whose
 * database an earlier version made, with every store's users and the customers' hashes, forgets
 * them at the bootstrap its upgrade starts. Read from the files.
 */
import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src/db/open.js';
import { migrate } from '../../../src/db/migrate.js';
import { MIGRATIONS } from '../../../src/db/migrations/index.js';
import { DEMO_IDS, demoCredentials } from '../../../src/demo/demo.js';
import { databaseFile } from '../../../src/root/node.js';
import { createStoreSync } from '../../../src/root/store.js';
import { runRound } from '../../../src/sync/store/agent.js';
import type { SyncParts } from '../../../src/sync/store/sync-parts.js';
import { call, startTestServer, tempDir, type TestServer } from '../../support/server.js';

const PASSWORD = 'till-password-1';

let hub: TestServer;
const started: { server: TestServer; sync: SyncParts; dir: string }[] = [];

/** A store of a node serving Prague Central, on `dir` (a new folder unless given), not yet synced. */
async function centralStore(name: string, dir = tempDir()): Promise<{ server: TestServer; sync: SyncParts }> {
  const credentials = hub.app.services.nodes.add(name, [DEMO_IDS.storeCentral]);
  const server = await startTestServer({
    demo: false,
    dataDir: dir,
    config: { 'hub.url': hub.url, 'node.name': credentials.node_name, 'node.secret': credentials.node_secret },
  });
  const sync = createStoreSync(server.app.node, server.config, server.clock.now)!;
  started.push({ server, sync, dir });
  return { server, sync };
}

const addUser = (login: string, storeId: string | null) =>
  hub.app.services.users.create({
    login,
    password: PASSWORD,
    externalApplicationId: demoCredentials.external_application_id,
    legacyBasic: false,
    storeId,
  });

/** What a thief reads from a store's folder: a connection of its own to the database file. */
function fromFile<T>(dir: string, read: (db: Db) => T): T {
  const db = new Database(databaseFile(dir), { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

const logins = (db: Db) => db.prepare<[], string>('SELECT login FROM users ORDER BY login').pluck().all();
const customerHashes = (db: Db) => db.prepare<[], number>('SELECT count(*) FROM customers WHERE password_hash IS NOT NULL').pluck().get();

const login = (server: TestServer, user: string, password: string) =>
  call('POST', `${server.api('enterprise')}/users/actions/login`, {
    body: { user_external_application_id: demoCredentials.external_application_id, login: user, password },
  });

beforeAll(async () => {
  hub = await startTestServer({ config: { mode: 'hub' } });
  await addUser('till-airport', DEMO_IDS.storeAirport);
  await addUser('back-office', null);
});

afterAll(async () => {
  for (const { server, sync, dir } of started) {
    await sync.client.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  await hub?.close();
});

describe("a store's database after a bootstrap from its hub", () => {
  it("holds no customer's password hash and only its own stores' users, and the feed sends it no other", async () => {
    expect(customerHashes(hub.app.node.db)).toBeGreaterThan(0);
    const { server, sync } = await centralStore('store-central');
    expect(await runRound(sync, server.clock.now)).toMatchObject({ ok: true, bootstrapped: true });
    const dir = server.dataDir;
    expect(fromFile(dir, customerHashes)).toBe(0);
    expect(fromFile(dir, (db) => db.prepare<[], number>('SELECT count(*) FROM customers').pluck().get())).toBeGreaterThan(0);
    expect(fromFile(dir, logins)).toEqual([demoCredentials.pos_login, demoCredentials.legacy_basic_login].sort());

    // Made after the bootstrap: the feed carries the central store's user alone.
    await addUser('till-central-2', DEMO_IDS.storeCentral);
    await addUser('till-airport-2', DEMO_IDS.storeAirport);
    await addUser('back-office-2', null);
    expect(await runRound(sync, server.clock.now)).toMatchObject({ ok: true, bootstrapped: false });
    expect(fromFile(dir, logins)).toEqual([demoCredentials.pos_login, demoCredentials.legacy_basic_login, 'till-central-2'].sort());
    expect(fromFile(dir, customerHashes)).toBe(0);

    // So only its own stores' users log in at its tills.
    expect((await login(server, 'till-central-2', PASSWORD)).status).toBe(200);
    expect((await login(server, 'till-airport-2', PASSWORD)).status).toBe(401);
    expect((await login(server, 'back-office-2', PASSWORD)).status).toBe(401);
    expect((await login(hub, 'till-airport-2', PASSWORD)).status).toBe(200);
  });
});

describe('a store whose database the previous version made', () => {
  it("forgets the customers' password hashes and other stores' users at the bootstrap its upgrade starts", async () => {
    const dir = tempDir();
    // The previous version's store, bootstrapped: every store's users, head office's too, and the customers with their hashes.
    const old = openDatabase(databaseFile(dir));
    migrate(
      old,
      MIGRATIONS.filter((migration) => migration.version <= 28),
    );
    old.pragma('foreign_keys = OFF');
    for (const table of ['external_applications', 'stores', 'users', 'customers']) {
      const columns = old.prepare<[string], string>('SELECT name FROM pragma_table_info(?)').pluck().all(table);
      const insert = old.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((column) => `@${column}`).join(', ')})`);
      for (const row of hub.app.node.db.prepare<[], Record<string, unknown>>(`SELECT ${columns.join(', ')} FROM ${table}`).all()) insert.run(row);
    }
    old
      .prepare("INSERT INTO meta (key, value) VALUES ('mode', 'store'), ('sync.cursor', ?)")
      .run(String(hub.app.node.db.prepare<[], number>('SELECT max(seq) FROM changes').pluck().get()));
    expect(customerHashes(old)).toBeGreaterThan(0);
    expect(logins(old)).toContain('till-airport');
    expect(logins(old)).toContain('back-office');
    old.close();

    const { server, sync } = await centralStore('store-upgraded', dir);
    expect(fromFile(dir, (db) => db.prepare("SELECT value FROM meta WHERE key = 'sync.cursor'").get())).toBeUndefined();
    expect(await runRound(sync, server.clock.now)).toMatchObject({ ok: true, bootstrapped: true });
    expect(fromFile(dir, customerHashes)).toBe(0);
    const centralUsers = hub.app.node.db
      .prepare<[string], string>('SELECT login FROM users WHERE store_id = ? ORDER BY login')
      .pluck()
      .all(DEMO_IDS.storeCentral);
    expect(centralUsers).toContain(demoCredentials.pos_login);
    expect(fromFile(dir, logins)).toEqual(centralUsers);
    expect(fromFile(dir, (db) => db.prepare('SELECT DISTINCT store_id FROM users').pluck().all())).toEqual([DEMO_IDS.storeCentral]);
    expect((await login(server, 'till-airport', PASSWORD)).status).toBe(401);
  });

  it('without a hub keeps its customers’ password hashes and every user', async () => {
    const standalone = await startTestServer();
    try {
      await standalone.app.services.users.create({
        login: 'till-airport',
        password: PASSWORD,
        externalApplicationId: demoCredentials.external_application_id,
        legacyBasic: false,
        storeId: DEMO_IDS.storeAirport,
      });
      expect(fromFile(standalone.dataDir, customerHashes)).toBeGreaterThan(0);
      expect((await login(standalone, 'till-airport', PASSWORD)).status).toBe(200);
      expect((await login(standalone, demoCredentials.pos_login, demoCredentials.pos_password)).status).toBe(200);
    } finally {
      await standalone.close();
    }
  });
});
