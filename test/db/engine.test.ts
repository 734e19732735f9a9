/**
 * The `Db` both engines implement (src/db/engine.ts), the same cases on each: better-sqlite3 on
 * a file in a temp folder, and PostgreSQL in a database of the run's cluster
 * (test/support/postgres.ts). What the code relies on holds on both: integers come back as
 * numbers, text compares byte by byte, a transaction commits or rolls back whole, and an inner
 * one is a savepoint.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/engine.js';
import { openDatabase } from '../../src/db/open.js';
import { PostgresDb, PostgresError } from '../../src/db/postgres/postgres-db.js';
import { isUniqueViolation } from '../../src/db/constraint-errors.js';
import { freshPostgresDatabase, type PostgresDatabase } from '../support/postgres.js';

const SCHEMA = `
  CREATE TABLE items (id TEXT PRIMARY KEY, amount INTEGER NOT NULL, note TEXT, data BYTEA);
  CREATE TABLE totals (name TEXT PRIMARY KEY, total BIGINT NOT NULL)`;

interface Engine {
  name: string;
  open(): Promise<Db>;
  close(): Promise<void>;
}

const folder = mkdtempSync(join(tmpdir(), 'loyaltyd-engine-'));
let postgres: PostgresDatabase | undefined;
const opened: Db[] = [];

const ENGINES: Engine[] = [
  {
    name: 'SQLite',
    open: async () => openDatabase(join(folder, `${opened.length}.sqlite`)),
    close: async () => undefined,
  },
  {
    name: 'PostgreSQL',
    open: async () => {
      postgres ??= await freshPostgresDatabase();
      return new PostgresDb(postgres.url);
    },
    close: async () => postgres?.drop(),
  },
];

afterAll(async () => {
  for (const db of opened.splice(0)) db.close();
  for (const engine of ENGINES) await engine.close();
  rmSync(folder, { recursive: true, force: true });
});

describe.each(ENGINES)('a Db on $name', (engine) => {
  let db: Db;
  beforeAll(async () => {
    db = await engine.open();
    opened.push(db);
    // SQLite spells bytea as a blob; the other types are common ground.
    db.exec(engine.name === 'SQLite' ? SCHEMA.replace('BYTEA', 'BLOB') : SCHEMA);
  });

  it('inserts with positional parameters and counts the rows changed', () => {
    const insert = db.prepare<[string, number, string | null]>('INSERT INTO items (id, amount, note) VALUES (?, ?, ?)');
    expect(insert.run('a', 5, 'first').changes).toBe(1);
    expect(insert.run('B', -7, null).changes).toBe(1);
    expect(db.prepare('UPDATE items SET amount = amount + 1').run().changes).toBe(2);
  });

  it('reads integers, counts and sums as numbers, and NULL as null', () => {
    expect(db.prepare('SELECT id, amount, note FROM items WHERE id = ?').get('a')).toEqual({ id: 'a', amount: 6, note: 'first' });
    expect(db.prepare('SELECT note FROM items WHERE id = ?').get('B')).toEqual({ note: null });
    expect(db.prepare('SELECT count(*) AS n, sum(amount) AS total FROM items').get()).toEqual({ n: 2, total: 0 });
    expect(db.prepare<[string], number>('SELECT amount FROM items WHERE id = ?').get('missing')).toBeUndefined();
  });

  it('compares and sorts text byte by byte', () => {
    expect(db.prepare<[], string>('SELECT id FROM items ORDER BY id').pluck().all()).toEqual(['B', 'a']);
    expect(db.prepare<[string], number>('SELECT count(*) FROM items WHERE id > ?').pluck().get('Z')).toBe(1);
  });

  it('binds named parameters from one object, a name used twice', () => {
    const between = db
      .prepare<{ low: number; high: number }, string>('SELECT id FROM items WHERE amount >= @low AND amount <= @high AND @low <= @high ORDER BY id')
      .pluck();
    expect(between.all({ low: 0, high: 10 })).toEqual(['a']);
    expect(between.all({ low: 10, high: 0 })).toEqual([]);
  });

  it('leaves a ? inside a string literal alone', () => {
    expect(db.prepare<[string], string>("SELECT 'what?' || ? AS said").pluck().get('!')).toBe('what?!');
  });

  it('answers RETURNING rows, iterates and plucks', () => {
    expect(db.prepare('INSERT INTO totals (name, total) VALUES (?, ?) RETURNING name, total').get('points', 9_007_199_254_740_991)).toEqual({
      name: 'points',
      total: 9_007_199_254_740_991,
    });
    expect([...db.prepare<[], { id: string }>('SELECT id FROM items ORDER BY id').iterate()].map((row) => row.id)).toEqual(['B', 'a']);
  });

  it('upserts with ON CONFLICT … DO UPDATE and excluded', () => {
    const add = db.prepare('INSERT INTO totals (name, total) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET total = totals.total + excluded.total');
    add.run('credit', 100);
    add.run('credit', 250);
    expect(db.prepare<[string], number>('SELECT total FROM totals WHERE name = ?').pluck().get('credit')).toBe(350);
  });

  it('keeps bytes as a Buffer', () => {
    const bytes = Buffer.from([0, 1, 254, 255]);
    db.prepare('INSERT INTO items (id, amount, data) VALUES (?, ?, ?)').run('bytes', 0, bytes);
    expect(db.prepare<[string], Buffer>('SELECT data FROM items WHERE id = ?').pluck().get('bytes')).toEqual(bytes);
  });

  it('commits a transaction whole and rolls it back whole when it throws', () => {
    const insert = db.prepare('INSERT INTO items (id, amount) VALUES (?, ?)');
    const count = db.prepare<[], number>('SELECT count(*) FROM items').pluck();
    const before = count.get()!;
    db.transaction(() => {
      insert.run('t1', 1);
      insert.run('t2', 2);
    })();
    expect(count.get()).toBe(before + 2);
    expect(() =>
      db.transaction(() => {
        insert.run('t3', 3);
        expect(db.inTransaction).toBe(true);
        throw new Error('refused');
      })(),
    ).toThrow('refused');
    expect(db.inTransaction).toBe(false);
    expect(count.get()).toBe(before + 2);
  });

  it('runs an inner transaction as a savepoint: its failure undoes only its own rows', () => {
    const insert = db.prepare('INSERT INTO items (id, amount) VALUES (?, ?)');
    const ids = db.prepare<[], string>("SELECT id FROM items WHERE id LIKE 'n%' ORDER BY id").pluck();
    const outcome = db.transaction(() => {
      insert.run('n1', 1);
      try {
        db.transaction(() => {
          insert.run('n2', 2);
          insert.run('n1', 3);
        })();
      } catch (error) {
        return isUniqueViolation(error) ? 'duplicate' : 'other';
      }
      return 'none';
    })();
    expect(outcome).toBe('duplicate');
    expect(ids.all()).toEqual(['n1']);
  });

  it('names a unique key broken outside a transaction, and goes on', () => {
    const insert = db.prepare('INSERT INTO items (id, amount) VALUES (?, ?)');
    let refusal: unknown;
    try {
      insert.run('a', 1);
    } catch (error) {
      refusal = error;
    }
    expect(isUniqueViolation(refusal)).toBe(true);
    expect(db.prepare<[string], number>('SELECT amount FROM items WHERE id = ?').pluck().get('a')).toBe(6);
  });

  it('refuses a value it cannot bind, and a wrong count of parameters', () => {
    const insert = db.prepare('INSERT INTO items (id, amount) VALUES (?, ?)');
    expect(() => insert.run('x', true as unknown as number)).toThrow();
    expect(() => insert.run('x' as never)).toThrow();
    expect(db.prepare<[string], number>('SELECT count(*) FROM items WHERE id = ?').pluck().get('x')).toBe(0);
  });
});

describe('a Db on PostgreSQL alone', () => {
  it('says which constraint a refusal broke, with its SQLSTATE', async () => {
    const database = await freshPostgresDatabase();
    const db = new PostgresDb(database.url);
    try {
      db.exec('CREATE TABLE pairs (id TEXT PRIMARY KEY)');
      db.prepare('INSERT INTO pairs (id) VALUES (?)').run('x');
      const refusal = (() => {
        try {
          db.prepare('INSERT INTO pairs (id) VALUES (?)').run('x');
        } catch (error) {
          return error;
        }
      })();
      expect(refusal).toBeInstanceOf(PostgresError);
      expect(refusal).toMatchObject({ code: '23505', constraint: 'pairs_pkey' });
    } finally {
      db.close();
      await database.drop();
    }
  });

  it('opened read-only, refuses a write', async () => {
    const database = await freshPostgresDatabase();
    const writer = new PostgresDb(database.url);
    writer.exec('CREATE TABLE notes (id TEXT PRIMARY KEY)');
    const reader = new PostgresDb(database.url, { readonly: true });
    try {
      expect(reader.readonly).toBe(true);
      expect(() => reader.prepare('INSERT INTO notes (id) VALUES (?)').run('x')).toThrow(/read-only/);
      expect(reader.prepare('SELECT count(*) AS n FROM notes').get()).toEqual({ n: 0 });
    } finally {
      reader.close();
      writer.close();
      await database.drop();
    }
  });

  it('answers 503 when the server drops its connection, and connects again at the next statement', async () => {
    const database = await freshPostgresDatabase();
    const db = new PostgresDb(database.url);
    const admin = new PostgresDb(database.url);
    try {
      db.exec('CREATE TABLE beats (n BIGINT PRIMARY KEY)');
      const pid = db.prepare<[], number>('SELECT pg_backend_pid()').pluck().get()!;
      admin.prepare('SELECT pg_terminate_backend(?)').run(pid);
      let refusal: unknown;
      try {
        db.prepare('INSERT INTO beats (n) VALUES (?)').run(1);
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toMatchObject({ status: 503, headers: { 'Retry-After': '5' }, body: { exception: 'service_unavailable_exception' } });
      db.prepare('INSERT INTO beats (n) VALUES (?)').run(2);
      expect(db.prepare<[], number>('SELECT pg_backend_pid()').pluck().get()).not.toBe(pid);
      expect(admin.prepare<[], number>('SELECT n FROM beats').pluck().all()).toEqual([2]);
    } finally {
      db.close();
      admin.close();
      await database.drop();
    }
  });
});
