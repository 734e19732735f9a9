import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OLDER_CHANGES_SQL } from '../../src/db/change-feed.js';
import { migrate, schemaVersion } from '../../src/db/migrate.js';
import { MIGRATIONS } from '../../src/db/migrations/index.js';
import { openDatabase, type SqliteDb } from '../../src/db/open.js';
import type { Db } from '../../src/db/engine.js';
import { databaseFile, openNode } from '../../src/root/node.js';
import { runCli, runCliJson } from '../support/cli.js';
import { TestClock } from '../support/server.js';
import { tempFolders } from '../support/temp-folders.js';

const { newFolder, removeFolders } = tempFolders('loyaltyd-migrate-');
const databases: SqliteDb[] = [];

afterEach(() => {
  for (const db of databases.splice(0)) if (db.open) db.close();
  removeFolders();
});

function open(file: string): SqliteDb {
  const db = openDatabase(file);
  databases.push(db);
  return db;
}

const allNames = MIGRATIONS.map((migration) => `${String(migration.version).padStart(4, '0')}-${migration.name}`);

function recorded(db: Db): { version: number; name: string }[] {
  return db.prepare<[], { version: number; name: string }>('SELECT version, name FROM schema_migrations ORDER BY version').all();
}

describe('migrations', () => {
  it('apply every migration to a database in an empty folder and record each in schema_migrations', () => {
    const file = join(newFolder(), 'nested', 'loyaltyd.sqlite');
    const db = open(file);
    const result = migrate(db);

    expect(MIGRATIONS.length).toBeGreaterThan(0);
    expect(result.applied).toEqual(allNames);
    expect(result.version).toBe(schemaVersion());
    expect(recorded(db)).toEqual(MIGRATIONS.map(({ version, name }) => ({ version, name })));
    const tables = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table'")
      .all()
      .map((row) => row.name);
    expect(tables).toEqual(expect.arrayContaining(['meta', 'changes', 'outbox', 'external_applications', 'users', 'nodes']));
  });

  it('number migrations uniquely, in ascending order', () => {
    const versions = MIGRATIONS.map((migration) => migration.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
    expect(schemaVersion()).toBe(Math.max(...versions));
  });

  it('apply nothing when run again and keep the data', () => {
    const dataDir = newFolder();
    const clock = new TestClock();
    const first = openNode({ data_dir: dataDir, mode: 'store' }, clock.now);
    const id = first.newId();
    first.writes.write(null, (tx) => tx.insert('external_applications', { id, name: 'Kept', state: 1 }));
    const identity = first.identity;
    first.close();

    const second = openNode({ data_dir: dataDir, mode: 'store' }, clock.now);
    try {
      expect(second.migrations).toEqual({ applied: [], version: schemaVersion() });
      expect(second.db.prepare('SELECT name FROM external_applications WHERE id = ?').get(id)).toEqual({ name: 'Kept' });
      expect(recorded(second.db)).toHaveLength(MIGRATIONS.length);
      // The same database keeps its node id and generation.
      expect(second.identity.nodeId).toBe(identity.nodeId);
      expect(second.identity.generation).toBe(identity.generation);
    } finally {
      second.close();
    }
  });

  it('apply only the migrations a database has not had yet', () => {
    const db = open(join(newFolder(), 'loyaltyd.sqlite'));
    migrate(db);
    const next = schemaVersion() + 1;
    MIGRATIONS.push({ version: next, name: 'test-extra', sql: 'CREATE TABLE test_extra (id TEXT PRIMARY KEY) STRICT;' });
    try {
      const result = migrate(db);
      expect(result.applied).toEqual([`${String(next).padStart(4, '0')}-test-extra`]);
      expect(result.version).toBe(next);
      expect(recorded(db).at(-1)).toEqual({ version: next, name: 'test-extra' });
      expect(migrate(db).applied).toEqual([]);
    } finally {
      MIGRATIONS.pop();
    }
  });

  it('leave no trace of a migration that fails and apply it on the next run once fixed', () => {
    const db = open(join(newFolder(), 'loyaltyd.sqlite'));
    migrate(db);
    const next = schemaVersion() + 1;
    const broken = { version: next, name: 'test-broken', sql: 'CREATE TABLE test_half (id TEXT) STRICT; CREATE TABLE oops (' };
    MIGRATIONS.push(broken);
    try {
      expect(() => migrate(db)).toThrow();
      expect(recorded(db).map((row) => row.version)).not.toContain(next);
      expect(db.prepare("SELECT name FROM sqlite_schema WHERE name = 'test_half'").get()).toBeUndefined();
      broken.sql = 'CREATE TABLE test_half (id TEXT) STRICT;';
      expect(migrate(db).applied).toEqual([`${String(next).padStart(4, '0')}-test-broken`]);
    } finally {
      MIGRATIONS.pop();
    }
  });

  it('drop the indexes no query reads from a database an older release left, keeping its rows', () => {
    const db = open(join(newFolder(), 'loyaltyd.sqlite'));
    const indexes = db
      .prepare<[], string>("SELECT name FROM sqlite_schema WHERE name IN ('changes_by_entity', 'credit_records_by_customer') ORDER BY name")
      .pluck();
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version < 8),
    );
    db.prepare("INSERT INTO changes (entity, entity_id, op, row, hlc) VALUES ('purchases', 'p1', 'insert', '{}', '0001')").run();
    expect(indexes.all()).toEqual(['changes_by_entity', 'credit_records_by_customer']);
    expect(
      migrate(
        db,
        MIGRATIONS.filter((migration) => migration.version <= 8),
      ).applied,
    ).toEqual(['0008-drop-unread-indexes']);
    expect(indexes.all()).toEqual([]);
    expect(db.prepare('SELECT entity_id FROM changes').all()).toEqual([{ entity_id: 'p1' }]);
  });

  it('keep one change of each row the hub publishes again and again in the feed, the newest, and find its changes by an index', () => {
    const db = open(join(newFolder(), 'loyaltyd.sqlite'));
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version < 17),
    );
    const change = db.prepare("INSERT INTO changes (entity, entity_id, op, row, hlc) VALUES (?, ?, 'update', ?, '0001')");
    const written: [string, string, string][] = [
      ['customer_states', 'c1', 'old'],
      ['customer_states', 'c2', 'only'],
      ['customers', 'c1', 'kept'],
      ['recommendation_coverage', 'n1', 'old'],
      ['customer_states', 'c1', 'new'],
      ['customers', 'c1', 'newer'],
      ['recommendation_coverage', 'n1', 'new'],
    ];
    for (const [entity, id, row] of written) change.run(entity, id, row);
    expect(
      migrate(
        db,
        MIGRATIONS.filter((migration) => migration.version <= 17),
      ).applied,
    ).toEqual(['0017-newest-changes']);
    expect(db.prepare('SELECT entity, entity_id, row FROM changes ORDER BY seq').all()).toEqual([
      { entity: 'customer_states', entity_id: 'c2', row: 'only' },
      { entity: 'customers', entity_id: 'c1', row: 'kept' },
      { entity: 'customer_states', entity_id: 'c1', row: 'new' },
      { entity: 'customers', entity_id: 'c1', row: 'newer' },
      { entity: 'recommendation_coverage', entity_id: 'n1', row: 'new' },
    ]);
    // A publish deletes the row's older changes (src/db/change-feed.ts): by the index, not a scan of the feed.
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${OLDER_CHANGES_SQL}`).all('customer_states', 'c1') as { detail: string }[];
    expect(plan.map((step) => step.detail)).toEqual([expect.stringContaining('USING INDEX changes_published')]);
  });

  it('index purchase assignments by customer on a database an older release left, keeping them', () => {
    const db = open(join(newFolder(), 'loyaltyd.sqlite'));
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version < 18),
    );
    db.prepare("INSERT INTO customers (id, first_name, last_name, hlc, last_change) VALUES ('c1', 'Eva', 'Svobodova', '0001', '2026-11-01')").run();
    db.prepare(
      "INSERT INTO purchases (id, store_id, external_purchase_id, payment_time, total_price_minor, hlc, last_change) VALUES ('p1', 's1', 'B-1', '2026-11-01', 100, '0001', '2026-11-01')",
    ).run();
    db.prepare(
      "INSERT INTO purchase_assignments (id, purchase_id, customer_id, hlc, last_change) VALUES ('a1', 'p1', 'c1', '0002', '2026-11-02')",
    ).run();
    expect(
      migrate(
        db,
        MIGRATIONS.filter((migration) => migration.version <= 18),
      ).applied,
    ).toEqual(['0018-assignments-by-customer']);
    const plan = db.prepare('EXPLAIN QUERY PLAN SELECT purchase_id FROM purchase_assignments WHERE customer_id = ?').all('c1') as {
      detail: string;
    }[];
    expect(plan.map((step) => step.detail)).toEqual([expect.stringContaining('USING COVERING INDEX purchase_assignments_by_customer')]);
    expect(db.prepare('SELECT purchase_id FROM purchase_assignments WHERE customer_id = ?').all('c1')).toEqual([{ purchase_id: 'p1' }]);
  });

  it('index voucher applications by purchase on a database an older release left, keeping them', () => {
    const db = open(join(newFolder(), 'loyaltyd.sqlite'));
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version < 19),
    );
    db.pragma('foreign_keys = OFF');
    db.prepare(
      "INSERT INTO voucher_applications (id, voucher_id, store_id, purchase_id, applied_date, hlc, last_change) VALUES ('a1', 'v1', 's1', 'p1', '2026-11-01', '0001', '2026-11-01')",
    ).run();
    expect(
      migrate(
        db,
        MIGRATIONS.filter((migration) => migration.version <= 19),
      ).applied,
    ).toEqual(['0019-voucher-applications-by-purchase']);
    const plan = db.prepare('EXPLAIN QUERY PLAN SELECT voucher_id FROM voucher_applications WHERE purchase_id = ?').all('p1') as { detail: string }[];
    expect(plan.map((step) => step.detail)).toEqual([expect.stringContaining('USING INDEX voucher_applications_by_purchase')]);
    expect(db.prepare('SELECT voucher_id FROM voucher_applications WHERE purchase_id = ?').all('p1')).toEqual([{ voucher_id: 'v1' }]);
  });

  it('take operations on a database an older release left, keeping its pending commands and the command results', () => {
    const db = open(join(newFolder(), 'loyaltyd.sqlite'));
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version < 21),
    );
    db.prepare(
      "INSERT INTO outbox (command_id, generation, kind, payload, changes, hlc, created_at) VALUES ('c1', 'g', 'points.assign', '{}', '[]', '0001', '2026-11-01')",
    ).run();
    db.prepare(
      "INSERT INTO applied_commands (command_id, node_id, generation, seq, status, reason, applied_at) VALUES ('c0', 'n1', 'g', 1, 'rejected', 'no', '2026-11-01')",
    ).run();
    expect(
      migrate(
        db,
        MIGRATIONS.filter((migration) => migration.version <= 21),
      ).applied,
    ).toEqual(['0021-operations']);
    expect(db.prepare('SELECT command_id, operation FROM outbox').all()).toEqual([{ command_id: 'c1', operation: null }]);
    expect(db.prepare('SELECT command_id, status, reason, rows FROM applied_commands').all()).toEqual([
      { command_id: 'c0', status: 'rejected', reason: 'no', rows: null },
    ]);
    db.prepare(
      "INSERT INTO applied_commands (command_id, node_id, generation, seq, status, reason, applied_at) VALUES ('c2', 'n1', 'g', 2, 'held', 'past', '2026-11-01')",
    ).run();
    expect(db.prepare("SELECT value FROM meta WHERE key = 'protocol_2_since'").pluck().get()).toEqual(expect.any(String));
  });

  it('`loyaltyd init` creates the database, and a second init applies nothing and keeps its data', async () => {
    const dataDir = newFolder();
    const first = await runCliJson(['init', '--data-dir', dataDir]);
    expect(first).toEqual({ database: databaseFile(dataDir), schema_version: schemaVersion(), applied: allNames });
    expect(existsSync(databaseFile(dataDir))).toBe(true);

    const app = await runCliJson(['apps', 'add', '--name', 'Till', '--data-dir', dataDir]);
    const second = await runCliJson(['init', '--data-dir', dataDir]);
    expect(second).toEqual({ database: databaseFile(dataDir), schema_version: schemaVersion(), applied: [] });

    const db = open(databaseFile(dataDir));
    expect(db.prepare('SELECT name FROM external_applications WHERE id = ?').get(app.external_application_id)).toEqual({ name: 'Till' });
    expect(recorded(db)).toHaveLength(MIGRATIONS.length);
  });

  it('`loyaltyd init` without --json prints readable lines and exits 0', async () => {
    const dataDir = newFolder();
    const result = await runCli(['init', '--data-dir', dataDir]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^database\s+.*loyaltyd\.sqlite$/m);
    expect(result.stdout).toMatch(new RegExp(`^schema_version\\s+${schemaVersion()}$`, 'm'));
  });
});
