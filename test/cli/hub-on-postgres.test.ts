/**
 * A hub told to keep its data in PostgreSQL (`database.url`) by the command line a head-office
 * IT team runs: it migrates an empty database and serves; a second serving hub on the same
 * database is refused before it writes; a store is refused the setting; the SQLite backup
 * commands name PostgreSQL's tools instead. Each test's database is its own, in the run's
 * private cluster (test/support/postgres.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresDb } from '../../src/db/postgres/postgres-db.js';
import { startHub } from '../support/cluster.js';
import { runCli, runCliJson } from '../support/cli.js';
import { freshPostgresDatabase } from '../support/postgres.js';
import { call } from '../support/server.js';

const folders: string[] = [];
const newFolder = () => {
  const folder = mkdtempSync(join(tmpdir(), 'loyaltyd-pg-cli-'));
  folders.push(folder);
  return folder;
};

afterAll(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('a hub on PostgreSQL, from the command line', () => {
  it('migrates an empty database, serves, and refuses a second serving hub on it', async () => {
    const database = await freshPostgresDatabase();
    const env = { LOYALTYD_DATABASE_URL: database.url };
    const hub = await startHub(newFolder(), env);
    try {
      const health = await call('GET', `${hub.url}/health`);
      expect(health.body).toMatchObject({ status: 'ok', reasons: [] });
      expect(health.status).toBe(200);
      const db = new PostgresDb(database.url, { readonly: true });
      try {
        expect(db.prepare<[], number>('SELECT max(version) FROM schema_migrations').pluck().get()).toBeGreaterThanOrEqual(31);
        expect(db.prepare<[string], string>('SELECT value FROM meta WHERE key = ?').pluck().get('mode')).toBe('hub');
      } finally {
        db.close();
      }
      const second = await runCli(['serve', '--mode', 'hub', '--port', '0', '--data-dir', newFolder()], env);
      expect(second.code).toBe(2);
      expect(second.stderr).toContain('another loyaltyd hub is writing to the PostgreSQL database');
      expect(second.stdout).not.toContain('serving');
    } finally {
      await hub.stop();
      await database.drop();
    }
  });

  it('a store given database.url exits 2 naming it', async () => {
    const result = await runCli(['serve', '--mode', 'store', '--port', '0', '--data-dir', newFolder()], {
      LOYALTYD_DATABASE_URL: 'postgres://loyaltyd@127.0.0.1:5432/loyaltyd',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('database.url');
    expect(result.stderr).toContain('a store keeps its data in SQLite');
  });

  it('a database.url holding a password exits 2 pointing to libpq’s password file', async () => {
    const result = await runCli(['serve', '--mode', 'hub', '--port', '0', '--data-dir', newFolder()], {
      LOYALTYD_DATABASE_URL: 'postgres://loyaltyd:secret@127.0.0.1:5432/loyaltyd',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('database.url');
    expect(result.stderr).toContain('password file');
    expect(result.stderr).not.toContain('secret');
  });

  it('backup and restore name pgBackRest, and touch nothing', async () => {
    const env = { LOYALTYD_DATABASE_URL: 'postgres://loyaltyd@127.0.0.1:9/loyaltyd', LOYALTYD_MODE: 'hub' };
    const folder = newFolder();
    const backup = await runCli(['backup', '--to', join(folder, 'copy.sqlite'), '--data-dir', folder], env);
    expect(backup.code).toBe(2);
    expect(backup.stderr).toContain('pgBackRest');
    const restore = await runCli(['restore', '--from', join(folder, 'copy.sqlite'), '--data-dir', folder], env);
    expect(restore.code).toBe(2);
    expect(restore.stderr).toContain('pgBackRest');
    expect(restore.stderr).toContain('loyaltyd hub restored');
  });

  it('`hub restored` renews the feed of a stopped hub on PostgreSQL, and refuses a serving one and a SQLite hub', async () => {
    const database = await freshPostgresDatabase();
    const env = { LOYALTYD_DATABASE_URL: database.url, LOYALTYD_MODE: 'hub' };
    const folder = newFolder();
    try {
      const hub = await startHub(folder, env);
      const whileServing = await runCli(['hub', 'restored', '--data-dir', folder], env);
      await hub.stop();
      expect(whileServing.code).toBe(2);
      expect(whileServing.stderr).toContain('another loyaltyd hub is writing');

      const renewed = await runCliJson(['hub', 'restored', '--data-dir', folder], env);
      expect(renewed).toMatchObject({ feed_id: expect.stringMatching(/^[0-9a-f]{16}$/), feed_position: expect.any(Number) });
      const db = new PostgresDb(database.url, { readonly: true });
      try {
        expect(db.prepare<[], string>("SELECT value FROM meta WHERE key = 'feed_id'").pluck().get()).toBe(renewed.feed_id);
      } finally {
        db.close();
      }

      const onSqlite = await runCli(['hub', 'restored', '--data-dir', newFolder()], { LOYALTYD_MODE: 'hub' });
      expect(onSqlite.code).toBe(2);
      expect(onSqlite.stderr).toContain('loyaltyd restore');
    } finally {
      await database.drop();
    }
  });
});
