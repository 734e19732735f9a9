/**
 * The online backup against another connection that commits between its steps, as a serving
 * daemon does: SQLite starts such a copy again from its first page, so a copy that kept its
 * small steps would never end under a steady load.
 */
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backupDatabase, integrityProblems, isInUse } from '../../src/db/backup.js';
import { openDatabase } from '../../src/db/open.js';
import { tempDir } from '../support/server.js';

const folder = tempDir('loyaltyd-backup-');
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('backupDatabase', () => {
  it('finishes while another connection commits between every two of its steps, with the rows of one moment', async () => {
    const source = join(folder, 'source.sqlite');
    const db = openDatabase(source);
    db.exec('CREATE TABLE bills (id INTEGER PRIMARY KEY, body BLOB NOT NULL)');
    const insertAll = db.transaction((count: number) => {
      for (let i = 0; i < count; i += 1) db.prepare('INSERT INTO bills (body) VALUES (randomblob(3000))').run();
    });
    insertAll(2000);
    const writer = openDatabase(source);
    const write = writer.prepare('INSERT INTO bills (body) VALUES (randomblob(3000))');
    let steps = 0;
    let restarts = 0;
    let copiedBefore = 0;
    const target = join(folder, 'copy.sqlite');
    const pages = await backupDatabase(db, target, ({ copiedPages }) => {
      steps += 1;
      if (copiedBefore > 0 && copiedPages <= copiedBefore) restarts += 1;
      copiedBefore = copiedPages;
      write.run();
    });
    const written = (writer.prepare('SELECT count(*) AS n FROM bills').get() as { n: number }).n;
    writer.close();
    db.close();

    expect(steps).toBeGreaterThan(3);
    expect(restarts).toBeGreaterThan(0);
    expect(integrityProblems(target)).toEqual([]);
    const copy = new Database(target, { readonly: true });
    const copied = (copy.prepare('SELECT count(*) AS n FROM bills').get() as { n: number }).n;
    expect(copy.pragma('page_count', { simple: true })).toBe(pages);
    copy.close();
    expect(copied).toBeGreaterThan(2000);
    expect(copied).toBeLessThanOrEqual(written);
  }, 30_000);

  it('refuses a file that exists, and leaves it as it was', async () => {
    const db = openDatabase(join(folder, 'another.sqlite'));
    const existing = join(folder, 'existing.sqlite');
    const other = openDatabase(existing);
    other.exec('CREATE TABLE kept (x)');
    other.close();
    await expect(backupDatabase(db, existing)).rejects.toThrow('exists');
    db.close();
    expect(integrityProblems(existing)).toEqual([]);
    const kept = new Database(existing, { readonly: true });
    expect(kept.prepare("SELECT name FROM sqlite_master WHERE name = 'kept'").get()).toBeDefined();
    kept.close();
  });
});

describe('isInUse', () => {
  it('tells a database another connection holds open from one nothing holds', () => {
    const file = join(folder, 'held.sqlite');
    const holder = openDatabase(file);
    holder.exec('CREATE TABLE t (x)');
    expect(isInUse(file)).toBe(true);
    holder.close();
    expect(isInUse(file)).toBe(false);
    expect(isInUse(join(folder, 'absent.sqlite'))).toBe(false);
  });
});
