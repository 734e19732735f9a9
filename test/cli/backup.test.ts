/**
 * `loyaltyd backup` and `loyaltyd restore` on a real hub daemon with a real store syncing
 * with it (test/support/cluster.ts): a backup taken while both take bills holds the hub as it
 * was at one feed position, and a hub restored from it takes its store back — the store
 * bootstraps again from it and pushes what it queued meanwhile.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEWEST_ALONE } from '../../src/db/change-feed.js';
import { runCli, runCliJson } from '../support/cli.js';
import { hubAndStore, type Cluster, type StoreProcess, type TableChecksum } from '../support/cluster.js';
import { basic, call } from '../support/server.js';
import { DEMO_IDS } from '../../src/demo/demo.js';
import { schemaVersion } from '../../src/db/migrate.js';
import { PROTOCOL_VERSION } from '../../src/sync/protocol/protocol.js';
import { sendPurchase } from '../support/sync-writes.js';

const HUB = { LOYALTYD_MODE: 'hub' };

/**
 * The checksums `sync checksum` would have printed on the hub when its feed stood at
 * `position`, folded from the feed the hub holds afterwards: each row as the newest stamp
 * among its changes up to there left it, a delete taking it out. Not for the tables whose
 * older changes leave the feed (NEWEST_ALONE): see publishedRowsAtPosition.
 */
function checksumsAtPosition(hubFile: string, tables: string[], position: number): Record<string, TableChecksum> {
  const db = new Database(hubFile, { readonly: true, fileMustExist: true });
  try {
    const newest = db.prepare<[{ table: string; position: number }], { entity_id: string; hlc: string; op: string }>(
      `SELECT entity_id, hlc, op FROM changes c WHERE entity = @table AND seq <= @position
         AND hlc = (SELECT max(hlc) FROM changes d WHERE d.entity = c.entity AND d.entity_id = c.entity_id AND d.seq <= @position)
       GROUP BY entity_id ORDER BY entity_id`,
    );
    return Object.fromEntries(
      tables.map((table) => {
        const hash = createHash('sha256');
        let rows = 0;
        for (const change of newest.all({ table, position })) {
          if (change.op === 'delete') continue;
          hash.update(`${change.entity_id}:${change.hlc}\n`);
          rows += 1;
        }
        return [table, { rows, sha256: hash.digest('hex') }];
      }),
    );
  } finally {
    db.close();
  }
}

/** Bills at the hub and at the store, one after another on each, until `stop()`. */
function billLoad(cluster: Cluster, store: StoreProcess, hubAuth: Record<string, string>, storeAuth: Record<string, string>) {
  let running = true;
  let sent = 0;
  const lane = async (node: Cluster['hub'], auth: Record<string, string>, prefix: string) => {
    while (running) {
      await sendPurchase(node, auth, `${prefix}-${sent++}`);
    }
  };
  const lanes = Promise.all([lane(cluster.hub, hubAuth, 'hub-a'), lane(cluster.hub, hubAuth, 'hub-b'), lane(store, storeAuth, 'store')]);
  return {
    get sent() {
      return sent;
    },
    async stop() {
      running = false;
      await lanes;
    },
  };
}

/**
 * A table whose older changes leave the hub's feed as newer ones come (src/db/change-feed.ts),
 * as the feed afterwards knows it at `position`: the rows not changed since, with the stamp
 * they had there (`exact`; a deleted one has none), and the rows changed since, which stood
 * at an older stamp than their newest, or did not exist yet (`newer`).
 */
function publishedRowsAtPosition(
  hubFile: string,
  table: string,
  position: number,
): { exact: Map<string, string | undefined>; newer: Map<string, string> } {
  const db = new Database(hubFile, { readonly: true, fileMustExist: true });
  try {
    const changes = db
      .prepare<[string], { entity_id: string; seq: number; hlc: string; op: string }>('SELECT entity_id, seq, hlc, op FROM changes WHERE entity = ?')
      .all(table);
    const exact = new Map<string, string | undefined>();
    const newer = new Map<string, string>();
    for (const change of changes) {
      if (change.seq > position) newer.set(change.entity_id, change.hlc);
      else exact.set(change.entity_id, change.op === 'delete' ? undefined : change.hlc);
    }
    for (const id of newer.keys()) exact.delete(id);
    return { exact, newer };
  } finally {
    db.close();
  }
}

function rowsOf(file: string, table: string): Map<string, string> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return new Map(
      db
        .prepare<[], { id: string; hlc: string }>(`SELECT id, hlc FROM ${table}`)
        .all()
        .map((row) => [row.id, row.hlc]),
    );
  } finally {
    db.close();
  }
}

describe('loyaltyd backup and restore of a hub', () => {
  let cluster: Cluster;
  let store: StoreProcess;
  let hubAuth: Record<string, string>;
  let storeAuth: Record<string, string>;
  let backupFile: string;
  let backupPosition: number;

  beforeAll(async () => {
    ({ cluster, store, hubAuth, storeAuth } = await hubAndStore('prague-01'));
    backupFile = join(cluster.root, 'backups', 'hub.sqlite');
    mkdirSync(join(cluster.root, 'backups'));
  }, 60_000);
  afterAll(() => cluster?.close());

  it("backup, while the hub takes bills, writes a checked file whose sync checksum equals the hub's at the backup's feed position", async () => {
    const load = billLoad(cluster, store, hubAuth, storeAuth);
    try {
      while (load.sent < 30) await new Promise((resolve) => setTimeout(resolve, 20));
      const sentBefore = load.sent;
      const backup = await runCliJson(['backup', '--to', backupFile, '--data-dir', cluster.hub.dataDir], HUB);
      expect(load.sent).toBeGreaterThan(sentBefore);
      expect(backup).toMatchObject({ file: backupFile, integrity: 'ok', schema_version: expect.any(Number) });
      expect(backup.pages).toBeGreaterThan(0);
      backupPosition = backup.feed_position;
      expect(backupPosition).toBeGreaterThan(0);
      while (load.sent < sentBefore + 30) await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      await load.stop();
    }
    // The hub went on past the backup's position...
    const hubPosition = cluster.hub.read((db) => db.prepare<[], number>('SELECT max(seq) FROM changes').pluck().get()!);
    expect(hubPosition).toBeGreaterThan(backupPosition);

    // ... and the backup is the hub as it stood there.
    const restoredDir = join(cluster.root, 'backup-opened');
    mkdirSync(restoredDir);
    copyFileSync(backupFile, join(restoredDir, 'loyaltyd.sqlite'));
    const printed = (await runCliJson(['sync', 'checksum', '--data-dir', restoredDir], HUB)).tables as Record<string, TableChecksum>;
    const tables = Object.keys(cluster.hub.peekChecksum());
    expect(Object.keys(printed).sort()).toEqual([...tables].sort());
    const hubFile = join(cluster.hub.dataDir, 'loyaltyd.sqlite');
    const kept = tables.filter((table) => !NEWEST_ALONE.includes(table));
    expect(Object.fromEntries(kept.map((table) => [table, printed[table]]))).toEqual(checksumsAtPosition(hubFile, kept, backupPosition));
    let checkedExactly = 0;
    for (const table of tables.filter((table) => NEWEST_ALONE.includes(table))) {
      const { exact, newer } = publishedRowsAtPosition(hubFile, table, backupPosition);
      const held = rowsOf(join(restoredDir, 'loyaltyd.sqlite'), table);
      for (const [id, hlc] of exact) expect(held.get(id), `${table} ${id}`).toBe(hlc);
      for (const [id, hlc] of newer) if (held.has(id)) expect(held.get(id)! < hlc, `${table} ${id}`).toBe(true);
      expect(
        [...held.keys()].filter((id) => !exact.has(id) && !newer.has(id)),
        table,
      ).toEqual([]);
      checkedExactly += exact.size;
    }
    expect(checkedExactly).toBeGreaterThan(0);
    expect(printed).not.toEqual(cluster.hub.peekChecksum());
  }, 90_000);

  it('backup refuses to write over an existing file', async () => {
    const result = await runCli(['backup', '--to', backupFile, '--data-dir', cluster.hub.dataDir], HUB);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('exists');
  });

  it("restore refuses while the hub runs, and a store's database", async () => {
    const busy = await runCli(['restore', '--from', backupFile, '--data-dir', cluster.hub.dataDir, '--json'], HUB);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toContain('is in use: stop the daemon');

    const storeCopy = join(cluster.root, 'backups', 'store.sqlite');
    await runCliJson(['backup', '--to', storeCopy, '--data-dir', store.dataDir]);
    const fromStore = await runCli(['restore', '--from', storeCopy, '--data-dir', join(cluster.root, 'elsewhere'), '--json'], HUB);
    expect(fromStore.code).toBe(1);
    expect(fromStore.stderr).toContain("is a store's database");
  });

  it('restore brings the hub back to the backup, and the store bootstraps again from it and pushes what it queued meanwhile', async () => {
    const lostAtHub = await sendPurchase(cluster.hub, hubAuth, 'after-backup-at-hub');
    // A customer renamed at the hub after the backup: the store takes the name, and loses it with the hub.
    const lastNameAt = (node: Cluster['hub']) =>
      node.read((db) => db.prepare<[string], string>('SELECT last_name FROM customers WHERE id = ?').pluck().get(DEMO_IDS.customerPetr));
    const backedUpName = lastNameAt(cluster.hub);
    const rename = { customer: { personal_information: { last_name: 'Renamed-After-Backup' } } };
    expect(
      (await call('PUT', `${cluster.hub.api('enterprise')}/customers/${DEMO_IDS.customerPetr}`, { headers: hubAuth, body: rename })).status,
    ).toBe(204);
    // The operator adds a store node after the backup, and adds and retires another.
    const late = (await cluster.hub.cli(['nodes', 'add', '--name', 'late-01', '--store', DEMO_IDS.storeAirport])) as {
      node_name: string;
      node_secret: string;
    };
    const gone = (await cluster.hub.cli(['nodes', 'add', '--name', 'gone-01', '--store', DEMO_IDS.storeAirport])) as {
      node_name: string;
      node_secret: string;
    };
    await cluster.hub.cli(['nodes', 'retire', '--name', 'gone-01']);
    await cluster.waitConverged();
    expect(store.syncState('feed_id')).toBe('first');
    expect(lastNameAt(store)).toBe('Renamed-After-Backup');
    await cluster.hub.stop();
    const queued = await sendPurchase(store, storeAuth, 'while-hub-down');

    const restored = await runCliJson(['restore', '--from', backupFile, '--data-dir', cluster.hub.dataDir], HUB);
    expect(restored).toMatchObject({ feed_position: backupPosition, feed_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(restored.moved_aside).toHaveLength(1);
    expect(existsSync(restored.moved_aside[0])).toBe(true);
    expect(readdirSync(cluster.hub.dataDir)).toContain('loyaltyd.sqlite');
    // Every node serves a store: the cluster's store both demo stores, each added after the backup one.
    expect(restored.node_registry).toMatchObject({ nodes: 3, bindings: 4 });

    await cluster.hub.start();
    // Nodes added, bound and retired after the backup stay so.
    const feedAs = (node: { node_name: string; node_secret: string }) =>
      call('GET', `${cluster.hub.url}/sync/v1/changes?after=0&limit=1`, {
        headers: {
          ...basic(node.node_name, node.node_secret),
          'x-loyaltyd-protocol': String(PROTOCOL_VERSION),
          'x-loyaltyd-schema': String(schemaVersion()),
        },
      });
    expect((await feedAs(late)).status).toBe(200);
    expect((await feedAs(gone)).status).toBe(401);
    expect(cluster.hub.count("SELECT count(*) AS n FROM node_stores s JOIN nodes n ON n.id = s.node_id WHERE n.name = 'late-01'")).toBe(1);
    const after = await sendPurchase(store, storeAuth, 'after-restore');
    const { checksums } = await cluster.waitConverged({ timeoutMs: 90_000, viaCli: true });

    // The store found the feed's new identity and bootstrapped again, which takes it up.
    expect(store.syncState('feed_id')).toBe(restored.feed_id);
    expect(checksums).toEqual(cluster.hub.peekChecksum());
    expect([lastNameAt(cluster.hub), lastNameAt(store)]).toEqual([backedUpName, backedUpName]);
    const hubAt = (id: string) => call('GET', `${cluster.hub.api('enterprise')}/purchases/${id}`, { headers: hubAuth });
    expect((await hubAt(queued.id)).status).toBe(200);
    expect((await hubAt(after.id)).status).toBe(200);
    // What the hub took after the backup is gone from it: the backup is what came back.
    expect((await hubAt(lostAtHub.id)).status).toBe(404);
  }, 150_000);
});
