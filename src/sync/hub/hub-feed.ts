/**
 * The hub's side of pulling: pages of the change feed, and snapshots of the current
 * replicated rows for bootstrap. A snapshot is read on its own read-only connection inside
 * one read transaction, so it is consistent at its feed position while the hub keeps
 * writing on its main connection.
 */
import Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import type { Writable } from 'node:stream';
import { msOfStamp } from '../../core/hlc.js';
import type { Db } from '../../db/open.js';
import type { ChangesRow } from '../../db/tables.generated.js';
import { cursorExpired } from '../../core/sync-errors.js';
import { FLOOR_KEY } from './feed-compaction.js';
import { feedIdReader } from './feed-identity.js';
import type { ChangesPage, SnapshotFormat, SnapshotHeader } from '../protocol/protocol.js';
import { hubOnlyColumns, reachesStores, withoutHubOnlyColumns } from '../protocol/scopes.js';
import { syncColumns } from '../column-codecs.js';

type ChangeRecord = Pick<ChangesRow, 'seq' | 'entity' | 'entity_id' | 'op' | 'row' | 'hlc'>;

/** What HubFeed is built from. */
export interface HubFeedOptions {
  db: Db;
  databaseFile: string;
  replicated: string[];
  schemaVersion: number;
  /** A stamp of the hub's clock, past every stamp the hub holds. */
  stamp: () => string;
}

export class HubFeed {
  private readonly page: Statement<[number, number], ChangeRecord>;
  private readonly lastSeq: Statement<[], { seq: number | null }>;
  private readonly floor: Statement<[], string | undefined>;
  private readonly feedId: () => string;
  private readonly replicatedSet: Set<string>;
  /** The tables whose rows a scoped store holds (src/sync/protocol/scopes.ts). */
  private readonly sharedSet: Set<string>;

  private readonly databaseFile: string;
  private readonly replicated: string[];
  private readonly schemaVersion: number;
  private readonly stamp: () => string;

  constructor(options: HubFeedOptions) {
    const { db, databaseFile, replicated, schemaVersion, stamp } = options;
    this.databaseFile = databaseFile;
    this.replicated = replicated;
    this.schemaVersion = schemaVersion;
    this.stamp = stamp;
    this.page = db.prepare('SELECT seq, entity, entity_id, op, row, hlc FROM changes WHERE seq > ? ORDER BY seq LIMIT ?');
    this.replicatedSet = new Set(replicated);
    this.sharedSet = new Set(replicated.filter(reachesStores));
    this.lastSeq = db.prepare('SELECT max(seq) AS seq FROM changes');
    this.floor = db.prepare<[], string | undefined>(`SELECT value FROM meta WHERE key = '${FLOOR_KEY}'`).pluck();
    this.feedId = feedIdReader(db);
  }

  /**
   * A page of the feed after `after`. Node-local changes (a bearer session: a feed written
   * before src/db/node-local.ts holds them), and for a scoped store other nodes' facts, are
   * skipped but counted in the cursor, so a store's lag reaches zero when it has all it
   * holds. Hub-only columns are sent empty.
   */
  changesAfter(after: number, limit: number, scoped: boolean): ChangesPage {
    const floor = Number(this.floor.get() ?? 0);
    if (after < floor) throw cursorExpired(after, floor);
    const records = this.page.all(after, limit + 1);
    const examined = records.slice(0, limit);
    const sent = scoped ? this.sharedSet : this.replicatedSet;
    const changes = examined
      .filter((record) => sent.has(record.entity))
      .map((record) => ({
        seq: record.seq,
        entity: record.entity,
        entity_id: record.entity_id,
        op: record.op,
        row: record.row === null ? null : withoutHubOnlyColumns(record.entity, syncColumns['changes.row'](record.row)),
        hlc: record.hlc,
      }));
    const last = changes[changes.length - 1];
    return {
      changes,
      cursor: examined[examined.length - 1]?.seq ?? after,
      last_seq: this.lastSeq.get()?.seq ?? 0,
      has_more: records.length > limit,
      hub_time: last ? new Date(msOfStamp(last.hlc)).toISOString() : new Date().toISOString(),
      feed_id: this.feedId(),
    };
  }

  /**
   * Streams NDJSON: a header with the feed position, then the rows table by table, then
   * `{end: true}` so that a cut stream is never taken for a whole one. `resume` continues an
   * interrupted snapshot after the last row a store loaded. In the `columns` format (this
   * version's stores ask for it) each table opens with `{table, columns}` and each row is a
   * JSON array of its values, which a store hands to SQLite as they come; the header carries
   * the hub's clock, past every row's stamp. The `rows` format, `{entity, row}` a line, is
   * what stores of the previous version read (a hub serves stores one version behind it).
   * The header also says which of the asking store's commands the hub holds (`node_through`,
   * src/sync/store/replay.ts).
   */
  async writeSnapshot(
    out: Writable,
    scoped: boolean,
    resume: { entity: string; afterId: string } | undefined,
    format: SnapshotFormat,
    nodeThrough: string | undefined,
  ): Promise<void> {
    const reader = new Database(this.databaseFile, { readonly: true, fileMustExist: true });
    try {
      reader.prepare('BEGIN').run();
      const position = reader.prepare<[], { seq: number | null }>('SELECT max(seq) AS seq FROM changes').get()?.seq ?? 0;
      const sent = scoped ? this.replicated.filter((table) => this.sharedSet.has(table)) : this.replicated;
      const start = resume ? Math.max(0, sent.indexOf(resume.entity)) : 0;
      const tables = sent.slice(start);
      const total = tables.reduce((sum, table) => sum + (reader.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n, 0);
      const header: SnapshotHeader = {
        position,
        schema_version: this.schemaVersion,
        total_rows: total,
        feed_id: feedIdReader(reader)(),
        ...(format === 'columns' ? { format, clock: this.stamp() } : {}),
        ...(nodeThrough === undefined ? {} : { node_through: nodeThrough }),
      };
      await write(out, `${JSON.stringify(header)}\n`);
      for (const table of tables) {
        const columns = reader.prepare<[string], string>('SELECT name FROM pragma_table_info(?)').pluck().all(table);
        if (format === 'columns') await write(out, `${JSON.stringify({ table, columns })}\n`);
        const fromId = resume && table === resume.entity ? resume.afterId : '';
        for (const page of snapshotPages(reader, table, lineOf(table, columns, format), fromId)) await write(out, page);
      }
      await write(out, `${JSON.stringify({ end: true })}\n`);
      reader.prepare('COMMIT').run();
    } finally {
      reader.close();
    }
  }
}

/** Rows a snapshot page reads in one statement: one call into SQLite per page rather than per row. */
const PAGE_ROWS = 2000;

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

/** A table's lines after `fromId` in id order, a page of them, newline-ended, at a time. */
function* snapshotPages(reader: Database.Database, table: string, line: string, fromId: string): Generator<string> {
  const page = reader.prepare<[string], { text: string | null; last: string | null }>(
    `SELECT group_concat(line, char(10) ORDER BY id) || char(10) AS text, max(id) AS last
     FROM (SELECT ${line} AS line, id FROM ${table} WHERE id > ? ORDER BY id LIMIT ${PAGE_ROWS})`,
  );
  for (let after = fromId; ;) {
    const { text, last } = page.get(after)!;
    if (text === null || last === null) return;
    yield text;
    after = last;
  }
}

/** Writes with backpressure: waits for the socket to drain rather than buffering a whole table. */
function write(out: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (out.destroyed) {
      reject(new Error('the snapshot reader went away'));
      return;
    }
    if (out.write(text)) {
      resolve();
      return;
    }
    const onDrain = () => {
      out.off('close', onClose);
      resolve();
    };
    const onClose = () => {
      out.off('drain', onDrain);
      reject(new Error('the snapshot reader went away'));
    };
    out.once('drain', onDrain);
    out.once('close', onClose);
  });
}
