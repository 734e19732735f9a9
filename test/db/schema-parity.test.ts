/**
 * Both engines hold the same schema: SQLite migrated from empty by its migrations, PostgreSQL
 * from empty by its baseline and the `postgres` SQL of every later migration
 * (src/db/migrations/postgres/). Tables, columns with their types and NOT NULL, primary,
 * unique and foreign keys, and the other indexes with their keys are compared one by one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/engine.js';
import { migrate, schemaVersion } from '../../src/db/migrate.js';
import { MIGRATIONS } from '../../src/db/migrations/index.js';
import { BASELINE_VERSION } from '../../src/db/migrations/postgres/index.js';
import { openDatabase } from '../../src/db/open.js';
import { PostgresDb } from '../../src/db/postgres/postgres-db.js';
import { freshPostgresDatabase, type PostgresDatabase } from '../support/postgres.js';
import { schemaShape, type SchemaShape } from '../support/schema-shape.js';

const folder = mkdtempSync(join(tmpdir(), 'loyaltyd-parity-'));
let postgresDatabase: PostgresDatabase;
let sqlite: Db;
let postgres: Db;
let sqliteShape: SchemaShape;
let postgresShape: SchemaShape;

beforeAll(async () => {
  sqlite = openDatabase(join(folder, 'parity.sqlite'));
  migrate(sqlite);
  postgresDatabase = await freshPostgresDatabase();
  postgres = new PostgresDb(postgresDatabase.url);
  migrate(postgres);
  sqliteShape = schemaShape(sqlite);
  postgresShape = schemaShape(postgres);
});

afterAll(async () => {
  sqlite?.close();
  postgres?.close();
  await postgresDatabase?.drop();
  rmSync(folder, { recursive: true, force: true });
});

describe('the schema on SQLite and on PostgreSQL', () => {
  it('records the same migrations', () => {
    const versions = (db: Db) => db.prepare<[], number>('SELECT version FROM schema_migrations ORDER BY version').pluck().all();
    expect(versions(postgres)).toEqual(versions(sqlite));
    expect(versions(postgres).at(-1)).toBe(schemaVersion());
  });

  it('has the same tables', () => {
    expect(Object.keys(postgresShape).sort()).toEqual(Object.keys(sqliteShape).sort());
    expect(Object.keys(sqliteShape).length).toBeGreaterThan(60);
  });

  it('has the same columns, keys and indexes in every table', () => {
    const differing = Object.keys(sqliteShape).filter((table) => JSON.stringify(sqliteShape[table]) !== JSON.stringify(postgresShape[table]));
    expect(differing.map((table) => ({ table, sqlite: sqliteShape[table], postgres: postgresShape[table] }))).toEqual([]);
    expect(Object.values(sqliteShape).some((table) => table.foreignKeys.length > 0 && table.indexes.some((index) => index.includes('partial')))).toBe(
      true,
    );
  });

  it('gives every migration after the PostgreSQL baseline its PostgreSQL SQL', () => {
    expect(
      MIGRATIONS.filter((migration) => migration.version > BASELINE_VERSION && migration.postgres === undefined).map(
        (migration) => migration.version,
      ),
    ).toEqual([]);
  });
});
