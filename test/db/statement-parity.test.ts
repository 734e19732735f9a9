/**
 * Every statement the suite prepares on SQLite is one PostgreSQL takes too, in its own words
 * where the code spells a fragment for each engine, or is SQLite's own by where it runs. The
 * suite's test processes log each SQL text they prepare with the files of src/ it came through
 * and its PostgreSQL words (test/support/statement-log.ts); this file runs after them and
 * prepares each on a PostgreSQL database the migrations made. A statement whose code runs only on
 * SQLite (a store's sync agent, SQLite's backups and log) is SQLite's own; one prepared by a
 * test itself, with no file of src/ on its stack, or on a table or column a test made, is not
 * the product's and is left out.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import { openDatabase } from '../../src/db/open.js';
import { numberPlaceholders } from '../../src/db/postgres/placeholders.js';
import { PostgresDb } from '../../src/db/postgres/postgres-db.js';
import { freshPostgresDatabase, type PostgresDatabase } from '../support/postgres.js';
import type { LoggedStatement } from '../support/statement-log.js';

/**
 * Where code runs on SQLite alone: a store's side of the sync; SQLite's own file, log and
 * backups; and the statements of a path whose twin prepares PostgreSQL's own (`prepareOnSqlite`).
 */
const SQLITE_ONLY = [
  'src/sync/store/',
  'src/db/sqlite.ts',
  'src/db/backup.ts',
  'src/db/checkpointer.ts',
  'src/db/checkpoint-worker.ts',
  'src/db/durability.ts',
  'src/cli/backup.commands.ts',
  'src/cli/data-folder.ts',
];

/** Each statement logged in PostgreSQL's words (its twins put in), with every source any process logged it from. */
function loggedStatements(): Map<string, Set<string>> {
  const folder = inject('statementLogDir');
  const statements = new Map<string, Set<string>>();
  if (folder === undefined) return statements;
  for (const file of readdirSync(folder)) {
    for (const line of readFileSync(join(folder, file), 'utf8').split('\n')) {
      if (line === '') continue;
      const { sql, postgres, sources } = JSON.parse(line) as LoggedStatement;
      const text = postgres ?? sql;
      const known = statements.get(text) ?? statements.set(text, new Set()).get(text)!;
      for (const source of sources) known.add(source);
    }
  }
  return statements;
}

/** Files every statement passes through: a refusal names the code beyond them. */
const PLUMBING = ['src/db/statements.ts', 'src/db/list-query.ts', 'src/db/write-path.ts'];

const isSqliteOnly = (sources: Set<string>) => [...sources].some((source) => SQLITE_ONLY.some((place) => source.startsWith(place)));

/**
 * PostgreSQL parses and plans a query or a write without running it (PREPARE); other
 * statements (an index, a table's CREATE) it runs, in a transaction it rolls back.
 */
function takenBy(db: PostgresDb, sql: string): void {
  if (/^\s*(SELECT|INSERT|UPDATE|DELETE|WITH|VALUES)\b/i.test(sql)) {
    db.exec(`PREPARE parity AS ${numberPlaceholders(sql).text}`);
    db.exec('DEALLOCATE parity');
    return;
  }
  db.exec('BEGIN');
  try {
    db.exec(sql);
  } finally {
    db.exec('ROLLBACK');
  }
}

/** A temporary table the code makes for its session: made here for this session too, so the statements that read it can be prepared. */
const isTemporaryTable = (sql: string) => /^\s*CREATE TEMP(ORARY)? TABLE/i.test(sql);

/** The tables the migrations make, and their columns: a statement on any other is on one a test made for itself. */
function migratedSchema(): { tables: Set<string>; columns: Set<string> } {
  const folder = mkdtempSync(join(tmpdir(), 'loyaltyd-parity-'));
  const sqlite = openDatabase(join(folder, 'tables.sqlite'));
  try {
    migrate(sqlite);
    const tables = sqlite.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
    const columns = sqlite
      .prepare<[], string>("SELECT p.name FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table'")
      .pluck()
      .all();
    return { tables: new Set(tables), columns: new Set(columns) };
  } finally {
    sqlite.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Whether PostgreSQL refused `error` for a table or column the migrations do not make. */
function namesWhatATestMade(error: unknown, schema: { tables: Set<string>; columns: Set<string> }): boolean {
  const message = (error as Error).message;
  const table = /relation "(\w+)" does not exist/.exec(message)?.[1];
  const column = /column "(?:\w+\.)?(\w+)"(?: of relation "\w+")? does not exist/.exec(message)?.[1];
  return (table !== undefined && !schema.tables.has(table)) || (column !== undefined && !schema.columns.has(column));
}

let database: PostgresDatabase;
let postgres: PostgresDb;

beforeAll(async () => {
  database = await freshPostgresDatabase();
  postgres = new PostgresDb(database.url);
  migrate(postgres);
});

afterAll(async () => {
  postgres?.close();
  await database?.drop();
});

describe('the statements the suite prepared', () => {
  it('are each taken by PostgreSQL, but for those of code that runs on SQLite alone', () => {
    const logged = loggedStatements();
    expect(logged.size, 'no statement was logged: this file reads what the rest of the suite prepared, run it with the suite').toBeGreaterThan(0);
    const refused: string[] = [];
    const schema = migratedSchema();
    let checked = 0;
    const ofTheProduct = [...logged].filter(([, sources]) => sources.size > 0 && !isSqliteOnly(sources));
    for (const [sql] of ofTheProduct.filter(([text]) => isTemporaryTable(text))) postgres.exec(sql);
    for (const [sql, sources] of ofTheProduct) {
      if (isTemporaryTable(sql)) continue;
      checked += 1;
      try {
        takenBy(postgres, sql);
      } catch (error) {
        if (namesWhatATestMade(error, schema)) continue;
        const from = [...sources].filter((source) => !PLUMBING.includes(source)).slice(0, 3);
        refused.push(
          `${(error as Error).message.split('\n')[0]!.replace(/ \(in: .*$/, '')}\n    ${sql.replace(/\s+/g, ' ').slice(0, 300)}\n    from ${from.join(', ')}`,
        );
      }
    }
    expect(checked).toBeGreaterThan(0);
    expect(refused).toEqual([]);
  });
});
