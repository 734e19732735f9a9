/**
 * A snapshot as the hub reads it (src/sync/hub/hub-feed.ts): on a read-only connection of its
 * own, inside one read transaction, so it is consistent at its feed position while the hub
 * keeps writing. It runs on a snapshot thread of the daemon (src/sync/hub/snapshot-threads.ts)
 * or, in a CLI command or an in-process test, on the caller's thread.
 */
import { spelt, type Dialect } from '../../db/dialect.js';
import type { Db } from '../../db/engine.js';
import { inspectDatabase } from '../../db/open.js';
import type { SnapshotFormat, SnapshotHeader } from '../protocol/protocol.js';
import { heldByNodeSql, hubOnlyColumns, scopeOf } from '../protocol/scopes.js';
import { tableColumns } from '../replicated-tables.js';
import { feedIdReader } from './feed-identity.js';
import { PostgresDb } from '../../db/postgres/postgres-db.js';

/** Where a snapshot is read from: a SQLite hub's file, or a PostgreSQL hub's database, each on a connection of the snapshot's own. */
export type SnapshotSource = { file: string } | { url: string };

/** What one snapshot sends: the tables, in order, of the store that asks. */
export interface SnapshotOrder {
  source: SnapshotSource;
  schemaVersion: number;
  tables: string[];
  /** Where an interrupted snapshot continues: after this row of the first table. */
  afterId: string;
  format: SnapshotFormat;
  nodeThrough: string | undefined;
  /** The node that asks: of the `store` scope's tables it is sent the rows of the stores it serves. */
  nodeId: string;
}

/** What a snapshot's reading needs of the hub: a stamp of its clock, taken once the read transaction holds its rows, and the stream's next bytes. */
export interface SnapshotSink {
  stamp(): Promise<string>;
  send(bytes: Uint8Array): Promise<void>;
}

/** Rows a snapshot page reads in one statement: one call into SQLite per page rather than per row. */
const PAGE_ROWS = 2000;

/**
 * NDJSON: a header with the feed position, then the rows table by table, then `{end: true}`
 * so that a cut stream is never taken for a whole one. The `columns` header carries the hub's
 * clock, stamped after the transaction began and so past every row's stamp.
 */
export async function readSnapshot(order: SnapshotOrder, sink: SnapshotSink): Promise<void> {
  const reader = 'file' in order.source ? inspectDatabase(order.source.file) : new PostgresDb(order.source.url, { readonly: true });
  try {
    await readSnapshotFrom(reader, order, sink);
  } finally {
    reader.close();
  }
}

/**
 * A read transaction that sees one state of the database from its first read to its end:
 * SQLite's holds its snapshot of the file; PostgreSQL's takes one at its first statement when
 * repeatable.
 */
const READ_TRANSACTION: Record<Dialect, string> = { sqlite: 'BEGIN', postgres: 'BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY' };

/**
 * The snapshot of the database `reader` connects to, read in one read transaction that ends
 * with it: a hub on SQLite opens its file for it (`readSnapshot`), one on PostgreSQL gives a
 * connection of the snapshot's own.
 */
export async function readSnapshotFrom(reader: Db, order: SnapshotOrder, sink: SnapshotSink): Promise<void> {
  reader.prepare(spelt(reader, READ_TRANSACTION)).run();
  const columnsOf = tableColumns(reader);
  const position = reader.prepare<[], { seq: number | null }>('SELECT max(seq) AS seq FROM changes').get()?.seq ?? 0;
  const total = order.tables.reduce((sum, table) => sum + rowsHeld(reader, table, order.nodeId), 0);
  const header: SnapshotHeader = {
    position,
    schema_version: order.schemaVersion,
    total_rows: total,
    feed_id: feedIdReader(reader)(),
    ...(order.format === 'columns' ? { format: order.format, clock: await sink.stamp() } : {}),
    ...(order.nodeThrough === undefined ? {} : { node_through: order.nodeThrough }),
  };
  await sink.send(jsonLine(header));
  for (const [index, table] of order.tables.entries()) {
    const columns = columnsOf(table);
    if (order.format === 'columns') await sink.send(jsonLine({ table, columns }));
    const line = (dialect: Dialect) => lineOf(dialect, table, columns, order.format);
    for (const page of snapshotPages(reader, table, line, order.nodeId, index === 0 ? order.afterId : '')) await sink.send(page);
  }
  await sink.send(jsonLine({ end: true }));
  reader.prepare('COMMIT').run();
}

/** The rows of `table` the node holds; `@node` is bound only where the condition names it, as PostgreSQL binds no parameter a statement lacks. */
function rowsHeld(reader: Db, table: string, nodeId: string): number {
  const count = reader.prepare<unknown[], number>(`SELECT count(*) AS n FROM ${table} WHERE ${heldByNodeSql(table, (column) => column)}`).pluck();
  return (scopeOf(table) === 'store' ? count.get({ node: nodeId }) : count.get())!;
}

function jsonLine(value: unknown): Buffer {
  return Buffer.from(`${JSON.stringify(value)}\n`);
}

/**
 * A row's snapshot line, written by the database (in SQLite a third of the cost of
 * JSON.stringify of the row better-sqlite3 reads, for the same text): a snapshot of a million
 * customers sends three million rows. Hub-only columns are sent empty
 * (src/sync/protocol/scopes.ts). PostgreSQL's JSON text has a space after each comma and
 * around each colon, which stores take as it comes: they parse every line, and keep or compare
 * no line's bytes (src/sync/store/snapshot-lines.ts).
 */
function lineOf(dialect: Dialect, table: string, columns: string[], format: SnapshotFormat): string {
  const hidden = hubOnlyColumns(table);
  const values = columns.map((column) => (hidden.includes(column) ? 'NULL' : column));
  const [array, object] = dialect === 'sqlite' ? ['json_array', 'json_object'] : ['json_build_array', 'json_build_object'];
  const line =
    format === 'columns'
      ? `${array}(${values.join(', ')})`
      : `${object}('entity', '${table}', 'row', ${object}(${columns.map((column, i) => `'${column}', ${values[i]}`).join(', ')}))`;
  return dialect === 'sqlite' ? line : `CAST(${line} AS text)`;
}

/**
 * A page of a table's lines, each ended by a newline, as bytes: SQLite's text cast to a blob,
 * PostgreSQL's converted to UTF-8 bytea, both read as a Buffer.
 */
const PAGE_TEXT: Record<Dialect, (lines: string) => string> = {
  sqlite: (lines) => `CAST(group_concat(${lines}, char(10) ORDER BY id) || char(10) AS BLOB)`,
  postgres: (lines) => `convert_to(string_agg(${lines}, chr(10) ORDER BY id) || chr(10), 'UTF8')`,
};

/**
 * A table's lines after `fromId` in id order, of the rows `nodeId` holds, a page of them,
 * newline-ended, at a time, as the UTF-8 bytes the sink writes: a page read as text would be
 * decoded into a JavaScript string and encoded back, on a thread that reads half a gigabyte for a
 * million customers.
 */
function* snapshotPages(reader: Db, table: string, line: (dialect: Dialect) => string, nodeId: string, fromId: string): Generator<Buffer> {
  const pageSql = (dialect: Dialect) =>
    `SELECT ${PAGE_TEXT[dialect]('line')} AS text, max(id) AS last
     FROM (SELECT ${line(dialect)} AS line, id FROM ${table} WHERE id > @after AND ${heldByNodeSql(table, (column) => column)} ORDER BY id LIMIT ${PAGE_ROWS}) AS page`;
  const page = reader.prepare<[{ after: string; node: string }], { text: Buffer | null; last: string | null }>(
    spelt(reader, { sqlite: pageSql('sqlite'), postgres: pageSql('postgres') }),
  );
  for (let after = fromId; ;) {
    const { text, last } = page.get({ after, node: nodeId })!;
    if (text === null || last === null) return;
    yield text;
    after = last;
  }
}
