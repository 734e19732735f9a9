/**
 * A snapshot as the hub reads it (src/sync/hub/hub-feed.ts): on a read-only connection of its
 * own, inside one read transaction, so it is consistent at its feed position while the hub
 * keeps writing. It runs on a snapshot thread of the daemon (src/sync/hub/snapshot-threads.ts)
 * or, in a CLI command or an in-process test, on the caller's thread.
 */
import { inspectDatabase, type SqliteDb } from '../../db/open.js';
import type { SnapshotFormat, SnapshotHeader } from '../protocol/protocol.js';
import { heldByNodeSql, hubOnlyColumns } from '../protocol/scopes.js';
import { feedIdReader } from './feed-identity.js';

/** What one snapshot sends: the tables, in order, of the store that asks. */
export interface SnapshotOrder {
  databaseFile: string;
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
  const reader = inspectDatabase(order.databaseFile);
  try {
    reader.prepare('BEGIN').run();
    const position = reader.prepare<[], { seq: number | null }>('SELECT max(seq) AS seq FROM changes').get()?.seq ?? 0;
    const held = (table: string) => heldByNodeSql(table, (column) => column);
    const total = order.tables.reduce(
      (sum, table) =>
        sum + (reader.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${held(table)}`).get({ node: order.nodeId }) as { n: number }).n,
      0,
    );
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
      const columns = reader.prepare<[string], string>('SELECT name FROM pragma_table_info(?)').pluck().all(table);
      if (order.format === 'columns') await sink.send(jsonLine({ table, columns }));
      const line = lineOf(table, columns, order.format);
      for (const page of snapshotPages(reader, table, line, order.nodeId, index === 0 ? order.afterId : '')) await sink.send(page);
    }
    await sink.send(jsonLine({ end: true }));
    reader.prepare('COMMIT').run();
  } finally {
    reader.close();
  }
}

function jsonLine(value: unknown): Buffer {
  return Buffer.from(`${JSON.stringify(value)}\n`);
}

/**
 * A row's snapshot line, written by SQLite (a third of the cost of JSON.stringify of the row
 * better-sqlite3 reads, for the same text): a snapshot of a million customers sends three
 * million rows. Hub-only columns are sent empty (src/sync/protocol/scopes.ts).
 */
function lineOf(table: string, columns: string[], format: SnapshotFormat): string {
  const hidden = hubOnlyColumns(table);
  const values = columns.map((column) => (hidden.includes(column) ? 'NULL' : column));
  if (format === 'columns') return `json_array(${values.join(', ')})`;
  return `json_object('entity', '${table}', 'row', json_object(${columns.map((column, i) => `'${column}', ${values[i]}`).join(', ')}))`;
}

/**
 * A table's lines after `fromId` in id order, of the rows `nodeId` holds, a page of them,
 * newline-ended, at a time, as the UTF-8 bytes the sink writes: a page read as text would be
 * decoded into a JavaScript string and encoded back, on a thread that reads half a gigabyte for a
 * million customers.
 */
function* snapshotPages(reader: SqliteDb, table: string, line: string, nodeId: string, fromId: string): Generator<Buffer> {
  const page = reader.prepare<[{ after: string; node: string }], { text: Buffer | null; last: string | null }>(
    `SELECT CAST(group_concat(line, char(10) ORDER BY id) || char(10) AS BLOB) AS text, max(id) AS last
     FROM (SELECT ${line} AS line, id FROM ${table} WHERE id > @after AND ${heldByNodeSql(table, (column) => column)} ORDER BY id LIMIT ${PAGE_ROWS})`,
  );
  for (let after = fromId; ;) {
    const { text, last } = page.get({ after, node: nodeId })!;
    if (text === null || last === null) return;
    yield text;
    after = last;
  }
}
