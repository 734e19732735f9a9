/**
 * What only SQLite has, reached from a `Db`: a store's database is always SQLite, and so is a
 * hub's that names no PostgreSQL. Code that needs SQLite's own calls (pragmas, its file, its
 * functions in JavaScript) asks for the connection here, so a hub on PostgreSQL that reaches
 * it fails saying what, instead of calling a method its engine lacks.
 */
import Database from 'better-sqlite3';
import type { Db, Statement } from './engine.js';
import type { SqliteDb } from './open.js';

export function isSqlite(db: Db): db is SqliteDb {
  return db instanceof Database;
}

/** The SQLite connection behind `db`; `what` names what needs it, for the error a PostgreSQL database gets. */
export function sqliteOnly(db: Db, what: string): SqliteDb {
  if (isSqlite(db)) return db;
  throw new Error(`${what} needs a SQLite database`);
}

/**
 * A statement of a code path that runs on SQLite alone, beside a twin path that prepares
 * PostgreSQL's own statements: the test suite's check that PostgreSQL takes every statement
 * (test/db/statement-parity.test.ts) knows it as SQLite's by this file on its stack.
 */
export function prepareOnSqlite<Params extends unknown[] = unknown[], Row = unknown>(db: SqliteDb, sql: string): Statement<Params, Row> {
  return db.prepare<Params, Row>(sql);
}
