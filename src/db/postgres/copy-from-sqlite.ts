/**
 * A SQLite hub's database copied whole into an empty PostgreSQL one of the same schema version
 * (`loyaltyd hub move-to-postgres`): every table, in an order where each comes after the tables
 * it references, row for row, with the same ids, stamps and feed positions, so that a store that
 * followed the SQLite hub's feed follows the PostgreSQL hub's from where it was.
 *
 * The copy is one transaction: a move that fails leaves the target as empty as it found it. The
 * target's own triggers (ledgers, history, the catalogue's version) are off meanwhile, since the
 * rows they would derive are copied as the source holds them; foreign keys stay checked. Rows go
 * in statements of many rows each, a round trip for up to `BATCH_PARAMETERS` values, and each
 * identity column's sequence is set past the largest value copied.
 */
import type Database from 'better-sqlite3';
import { tablesInOrder } from '../table-order.js';
import type { PostgresDb } from './postgres-db.js';

/** Values a statement of the copy binds: well under PostgreSQL's 65,535, in statements of a few hundred rows. */
const BATCH_PARAMETERS = 16_000;

export interface CopyProgress {
  (copied: number, total: number, table: string): void;
}

/** Copies every row of `source` into `target`; the rows copied, by table. */
export function copyFromSqlite(source: Database.Database, target: PostgresDb, progress: CopyProgress): Record<string, number> {
  const tables = tablesInOrder(target).filter((table) => table !== 'schema_migrations');
  const counts = Object.fromEntries(tables.map((table) => [table, source.prepare<[], number>(`SELECT count(*) FROM "${table}"`).pluck().get()!]));
  const total = Object.values(counts).reduce((sum, rows) => sum + rows, 0);
  let copied = 0;
  target.transaction(() => {
    for (const table of tables) target.exec(`ALTER TABLE "${table}" DISABLE TRIGGER USER`);
    for (const table of [...tables].reverse()) target.exec(`DELETE FROM "${table}"`);
    for (const table of tables) {
      copied += copyTable(source, target, table, (rows) => progress(copied + rows, total, table));
    }
    for (const table of tables) target.exec(`ALTER TABLE "${table}" ENABLE TRIGGER USER`);
    restartIdentities(target);
  })();
  return counts;
}

function copyTable(source: Database.Database, target: PostgresDb, table: string, progress: (rows: number) => void): number {
  const columns = target
    .prepare<[string], string>(
      'SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position',
    )
    .pluck()
    .all(table);
  const listed = columns.map((column) => `"${column}"`).join(', ');
  const perBatch = Math.max(1, Math.floor(BATCH_PARAMETERS / columns.length));
  const row = `(${columns.map(() => '?').join(', ')})`;
  const insert = (rows: number) => target.prepare(`INSERT INTO "${table}" (${listed}) VALUES ${Array.from({ length: rows }, () => row).join(', ')}`);
  const full = insert(perBatch);
  let batch: unknown[] = [];
  let rows = 0;
  for (const values of source.prepare(`SELECT ${listed} FROM "${table}"`).raw().iterate() as IterableIterator<unknown[]>) {
    batch.push(...values);
    rows += 1;
    if (batch.length === perBatch * columns.length) {
      full.run(...batch);
      batch = [];
      progress(rows);
    }
  }
  if (batch.length > 0) insert(batch.length / columns.length).run(...batch);
  progress(rows);
  return rows;
}

/** Sets each identity column's sequence past the largest value the copy put in it. */
function restartIdentities(target: PostgresDb): void {
  const identities = target
    .prepare<[], { table_name: string; column_name: string }>(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES'",
    )
    .all();
  for (const { table_name: table, column_name: column } of identities) {
    target
      .prepare(`SELECT setval(pg_get_serial_sequence(?, ?), coalesce((SELECT max("${column}") FROM "${table}"), 0) + 1, false)`)
      .get(table, column);
  }
}
