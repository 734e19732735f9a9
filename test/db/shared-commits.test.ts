/**
 * Table versions beside a writer thread (src/db/shared-commits.ts): two connections to one
 * file, one writing as the thread does and one reading as the event loop does. The reader's
 * version of a table moves once a commit that wrote it has ended, not with commits to other
 * tables, and not for a rolled-back write's later commit elsewhere; a commit of another process
 * reaches it when the writer notices it.
 */
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, openReadOnlyDatabase, type Db } from '../../src/db/open.js';
import { SharedCommits } from '../../src/db/shared-commits.js';
import { TableVersions } from '../../src/db/table-versions.js';
import { tempDir } from '../support/server.js';

const cleanups: (() => void)[] = [];

afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function pair() {
  const folder = tempDir('loyaltyd-shared-commits-');
  const file = `${folder}/scratch.sqlite`;
  const db = openDatabase(file);
  db.exec('CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE purchases (id INTEGER PRIMARY KEY, total INTEGER)');
  const readerDb = openReadOnlyDatabase(file);
  const memory = SharedCommits.memory();
  const writer = new TableVersions(db, { side: 'writer', commits: new SharedCommits(memory) });
  const reader = new TableVersions(readerDb, { side: 'reader', commits: new SharedCommits(memory) });
  cleanups.push(
    () => rmSync(folder, { recursive: true, force: true }),
    () => db.close(),
    () => readerDb.close(),
  );
  return { db, readerDb, writer, reader, file };
}

function insert(db: Db, versions: TableVersions, table: string): void {
  db.transaction(() => {
    db.prepare(`INSERT INTO ${table} DEFAULT VALUES`).run();
    versions.wrote(table);
  })();
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('table versions beside a writer thread', () => {
  it("moves a table's version at the reader once the writer's commit to it has ended, and not for another table's", async () => {
    const { db, writer, reader } = pair();
    const products = reader.tableVersion('products');
    const purchases = reader.tableVersion('purchases');
    insert(db, writer, 'purchases');
    // Counted after the commit, not inside the transaction.
    expect(reader.tableVersion('purchases')).toBe(purchases);
    await settled();
    expect(reader.tableVersion('purchases')).not.toBe(purchases);
    expect(reader.tableVersion('products')).toBe(products);
    insert(db, writer, 'products');
    await settled();
    expect(reader.tableVersion('products')).not.toBe(products);
  });

  it('keys the reads of one read transaction by the commits counted before its first statement', async () => {
    const { db, readerDb, writer, reader } = pair();
    const seen = reader.reading(() => {
      const before = reader.tableVersion('products');
      const count = readerDb.prepare('SELECT count(*) AS n FROM products').get() as { n: number };
      return { before, count: count.n };
    });
    insert(db, writer, 'products');
    await settled();
    const after = reader.reading(() => ({
      version: reader.tableVersion('products'),
      count: (readerDb.prepare('SELECT count(*) AS n FROM products').get() as { n: number }).n,
    }));
    expect(after.version).not.toBe(seen.before);
    expect(after.count).toBe(seen.count + 1);
  });

  it("moves every table's version at the reader once the writer notices another process's commit", () => {
    const { writer, reader, file } = pair();
    writer.noticeOtherProcesses();
    const products = reader.tableVersion('products');
    const other = openDatabase(file);
    other.prepare('INSERT INTO products DEFAULT VALUES').run();
    other.close();
    expect(reader.tableVersion('products')).toBe(products);
    writer.noticeOtherProcesses();
    expect(reader.tableVersion('products')).not.toBe(products);
  });
});
