/**
 * The hub's side of pulling: pages of the change feed, and snapshots of the current
 * replicated rows for bootstrap.
 */
import type { Statement } from '../../db/engine.js';
import type { Writable } from 'node:stream';
import { msOfStamp } from '../../core/hlc.js';
import { spelt, type Dialect } from '../../db/dialect.js';
import type { Db } from '../../db/open.js';
import { cursorExpired } from '../../core/sync-errors.js';
import { FLOOR_KEY } from './feed-compaction.js';
import { feedIdReader } from './feed-identity.js';
import type { SnapshotFormat } from '../protocol/protocol.js';
import { heldByNodeSql, hubOnlyColumns, reachesStores, scopeOf } from '../protocol/scopes.js';
import { readSnapshot, type SnapshotOrder, type SnapshotSource } from './snapshot-reading.js';
import type { SnapshotThreads } from './snapshot-threads.js';

/** What a page's statement reads: the seqs after one and up to another, at most `limit` changes, those `node` holds. */
interface PageRange {
  after: number;
  through: number;
  limit: number;
  node: string;
}

/** A page's changes as SQLite writes them: null text and last seq when there are none. */
interface PageRecord {
  text: string | null;
  changes: number;
  last: number | null;
}

/** What HubFeed is built from. */
export interface HubFeedOptions {
  db: Db;
  /** Where snapshots are read, each on a connection of its own. */
  snapshotSource: SnapshotSource;
  replicated: string[];
  schemaVersion: number;
  /** A stamp of the hub's clock, past every stamp the hub holds. */
  stamp: () => string;
  /** Where a serving hub reads its snapshots; without them, on the event loop. */
  threads?: SnapshotThreads;
}

/**
 * How many of the feed's seqs a page reads for each change it may send. A store holds no other
 * node's facts, which are most of a busy chain's feed: pages that read only as many seqs as
 * they may send would be nearly empty, one request for every few hundred seqs the chain adds. Left
 * in SQLite, a change a page skips costs a fraction of one it decodes (src/decisions/0094-pages-read-past-facts.md).
 */
const SEQS_PER_CHANGE = 20;
/** The most seqs one page reads: about a millisecond of the hub's event loop (0.9 ms on a feed of 500,000 changes). */
const MAX_SEQS_READ = 20_000;

export class HubFeed {
  /** The changes of the tables a store holds, in a range of seqs, as the JSON text of a page's changes. */
  private readonly page: Statement<[PageRange], PageRecord>;
  private readonly stampOf: Statement<[number], string>;
  private readonly lastSeq: Statement<[], { seq: number | null }>;
  private readonly floor: Statement<[], string | undefined>;
  /** The feed's identity (src/sync/hub/feed-identity.ts). */
  readonly feedId: () => string;
  /** The tables whose rows a store holds (src/sync/protocol/scopes.ts). */
  private readonly shared: string[];

  private readonly snapshotSource: SnapshotSource;
  private readonly schemaVersion: number;
  private readonly stamp: () => string;
  private readonly threads: SnapshotThreads | undefined;

  constructor(options: HubFeedOptions) {
    const { db, snapshotSource, replicated, schemaVersion, stamp, threads } = options;
    this.threads = threads;
    this.snapshotSource = snapshotSource;
    this.schemaVersion = schemaVersion;
    this.stamp = stamp;
    this.shared = replicated.filter(reachesStores);
    this.page = pageOf(db, this.shared);
    this.stampOf = db.prepare<[number], string>('SELECT hlc FROM changes WHERE seq = ?').pluck();
    this.lastSeq = db.prepare('SELECT max(seq) AS seq FROM changes');
    this.floor = db.prepare<[], string | undefined>(`SELECT value FROM meta WHERE key = '${FLOOR_KEY}'`).pluck();
    this.feedId = feedIdReader(db);
  }

  /**
   * A page of the feed after `after`, as its JSON text (a ChangesPage), and how many changes it
   * holds: at most `limit`, read from the next `limit` × SEQS_PER_CHANGE seqs (MAX_SEQS_READ at
   * most). Node-local changes (a bearer session: a feed written before src/db/node-local.ts holds
   * them), other nodes' facts and the users of stores `nodeId` does not serve (a store holds none,
   * src/sync/protocol/scopes.ts) are skipped but counted in the cursor, so a store's lag reaches zero when it has all it holds. SQLite writes
   * the changes' text, each row as the feed keeps it (src/decisions/0095-pages-from-feed-texts.md).
   */
  changesAfter(nodeId: string, after: number, limit: number): { text: string; changes: number } {
    const floor = Number(this.floor.get() ?? 0);
    if (after < floor) throw cursorExpired(after, floor);
    const lastSeq = this.lastSeq.get()?.seq ?? 0;
    const through = Math.max(after, Math.min(lastSeq, after + Math.min(limit * SEQS_PER_CHANGE, MAX_SEQS_READ)));
    const { text, changes, last } = this.page.get({ after, through, limit, node: nodeId })!;
    // A full page ends at its last change; one with room to spare read every seq up to `through`.
    const cursor = changes === limit ? last! : through;
    const hubTime = last === null ? new Date() : new Date(msOfStamp(this.stampOf.get(last)!));
    const page =
      `{"changes":[${text ?? ''}],"cursor":${cursor},"last_seq":${lastSeq},"has_more":${cursor < lastSeq},` +
      `"hub_time":${JSON.stringify(hubTime.toISOString())},"feed_id":${JSON.stringify(this.feedId())}}`;
    return { text: page, changes };
  }

  /**
   * Streams NDJSON (src/sync/hub/snapshot-reading.ts). `resume` continues an interrupted
   * snapshot after the last row a store loaded. In the `columns` format (this version's stores
   * ask for it) each table opens with `{table, columns}` and each row is a JSON array of its
   * values, which a store hands to SQLite as they come; the header carries the hub's clock,
   * past every row's stamp. The `rows` format, `{entity, row}` a line, is what stores of the
   * previous version read (a hub serves stores one version behind it). The header also says
   * which of the asking store's commands the hub holds (`node_through`,
   * src/sync/store/replay.ts). Of the `store` scope's tables, the snapshot carries the rows of
   * the stores `nodeId` serves.
   */
  async writeSnapshot(
    out: Writable,
    nodeId: string,
    resume: { entity: string; afterId: string } | undefined,
    format: SnapshotFormat,
    nodeThrough: string | undefined,
  ): Promise<void> {
    const tables = this.shared.slice(resume ? Math.max(0, this.shared.indexOf(resume.entity)) : 0);
    const order: SnapshotOrder = {
      source: this.snapshotSource,
      schemaVersion: this.schemaVersion,
      tables,
      afterId: resume && tables[0] === resume.entity ? resume.afterId : '',
      format,
      nodeThrough,
      nodeId,
    };
    if (this.threads) return this.threads.write(out, order);
    await readSnapshot(order, { stamp: async () => this.stamp(), send: (bytes) => write(out, bytes) });
  }
}

/** Writes with backpressure: waits for the socket to drain rather than buffering a whole table. */
function write(out: Writable, bytes: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    if (out.destroyed) {
      reject(new Error('the snapshot reader went away'));
      return;
    }
    if (out.write(bytes)) {
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

/**
 * What a page's statement is spelt with on each engine. SQLite's JSON functions read a row's
 * text as it is. PostgreSQL keeps the text in a text column and reads it cast to json; a row
 * with a hub-only column emptied is written back as jsonb's text, its keys in jsonb's order and
 * spaced, which a store parses as it parses any page. The unary `+` keeps SQLite on the seq's
 * range: the feed's index by entity would read every change of the tables instead; PostgreSQL
 * has no such operator on text and its planner weighs the range itself.
 */
interface PageSpelling {
  /** A value as a JSON string's text. */
  quoted(value: string): string;
  /** A field of the row's text, as text. */
  field(column: string): string;
  /** The row's text with `columns` null where it holds them. */
  emptied(columns: readonly string[]): string;
  /** The feed's entity column, as the range condition names it. */
  entity: string;
}

const PAGE_SPELLINGS: Record<Dialect, PageSpelling> = {
  sqlite: {
    quoted: (value) => `json_quote(${value})`,
    field: (column) => `row ->> '${column}'`,
    emptied: (columns) => `json_replace(row, ${columns.map((column) => `'$.${column}', NULL`).join(', ')})`,
    entity: '+entity',
  },
  postgres: {
    quoted: (value) => `CAST(to_json(${value}) AS text)`,
    field: (column) => `CAST(row AS json) ->> '${column}'`,
    emptied: (columns) =>
      `CAST(${columns.reduce((json, column) => `jsonb_set(${json}, '{${column}}', 'null', false)`, 'CAST(row AS jsonb)')} AS text)`,
    entity: 'entity',
  },
};

/**
 * The changes of `tables` after a seq and up to another, at most a number of them, as the JSON
 * text of each FeedChange joined by commas in seq order, with their count and the last one's seq.
 * A row goes in as the feed keeps its text; a table's hub-only columns are sent empty. A change
 * of a `store` scope table is sent when its row names a store the node serves, or deletes it.
 */
function pageOf(db: Db, tables: string[]): Statement<[PageRange], PageRecord> {
  return db.prepare(spelt(db, { sqlite: pageSql('sqlite', tables), postgres: pageSql('postgres', tables) }));
}

function pageSql(dialect: Dialect, tables: string[]): string {
  const { quoted, field, emptied, entity } = PAGE_SPELLINGS[dialect];
  const names = tables.map((table) => `'${table}'`).join(', ');
  const hidden = tables.filter((table) => hubOnlyColumns(table).length > 0).map((table) => `WHEN '${table}' THEN ${emptied(hubOnlyColumns(table))}`);
  const row = hidden.length === 0 ? 'row' : `CASE entity ${hidden.join(' ')} ELSE row END`;
  const held = tables
    .filter((table) => scopeOf(table) === 'store')
    .map((table) => `AND (entity <> '${table}' OR op = 'delete' OR ${heldByNodeSql(table, field)})`)
    .join(' ');
  const change = `'{"seq":' || seq || ',"entity":' || ${quoted('entity')} || ',"entity_id":' || ${quoted('entity_id')} || ',"op":' || ${quoted('op')} || ',"row":' || coalesce(${row}, 'null') || ',"hlc":' || ${quoted('hlc')} || '}'`;
  return `SELECT string_agg(${change}, ',' ORDER BY seq) AS text, count(*) AS changes, max(seq) AS last
     FROM (SELECT seq, entity, entity_id, op, row, hlc FROM changes
           WHERE seq > @after AND seq <= @through AND ${entity} IN (${names}) ${held} ORDER BY seq LIMIT @limit) AS page`;
}
