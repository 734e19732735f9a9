/**
 * The hub's side of pulling: pages of the change feed, and snapshots of the current
 * replicated rows for bootstrap.
 */
import type { Statement } from 'better-sqlite3';
import type { Writable } from 'node:stream';
import { msOfStamp } from '../../core/hlc.js';
import type { Db } from '../../db/open.js';
import type { ChangesRow } from '../../db/tables.generated.js';
import { cursorExpired } from '../../core/sync-errors.js';
import { FLOOR_KEY } from './feed-compaction.js';
import { feedIdReader } from './feed-identity.js';
import type { SnapshotFormat } from '../protocol/protocol.js';
import { hubOnlyColumns, reachesStores, withoutHubOnlyColumns } from '../protocol/scopes.js';
import { readSnapshot, type SnapshotOrder } from './snapshot-reading.js';
import type { SnapshotThreads } from './snapshot-threads.js';
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
  /** The changes of the tables a store holds, in a range of seqs. */
  private readonly page: Statement<[number, number, number], ChangeRecord>;
  private readonly lastSeq: Statement<[], { seq: number | null }>;
  private readonly floor: Statement<[], string | undefined>;
  /** The feed's identity (src/sync/hub/feed-identity.ts). */
  readonly feedId: () => string;
  /** The tables whose rows a store holds (src/sync/protocol/scopes.ts). */
  private readonly shared: string[];

  private readonly databaseFile: string;
  private readonly schemaVersion: number;
  private readonly stamp: () => string;
  private readonly threads: SnapshotThreads | undefined;

  constructor(options: HubFeedOptions) {
    const { db, databaseFile, replicated, schemaVersion, stamp, threads } = options;
    this.threads = threads;
    this.databaseFile = databaseFile;
    this.schemaVersion = schemaVersion;
    this.stamp = stamp;
    this.shared = replicated.filter(reachesStores);
    this.page = pageOf(db, this.shared);
    this.lastSeq = db.prepare('SELECT max(seq) AS seq FROM changes');
    this.floor = db.prepare<[], string | undefined>(`SELECT value FROM meta WHERE key = '${FLOOR_KEY}'`).pluck();
    this.feedId = feedIdReader(db);
  }

  /**
   * A page of the feed after `after`, as its JSON text (a ChangesPage), and how many changes it
   * holds: at most `limit`, read from the next `limit` × SEQS_PER_CHANGE seqs (MAX_SEQS_READ at
   * most). Node-local changes (a bearer session: a feed written before src/db/node-local.ts holds
   * them) and other nodes' facts (a store holds none, src/sync/protocol/scopes.ts) are skipped but
   * counted in the cursor, so a store's lag reaches zero when it has all it holds. Each row is
   * sent as the feed keeps its JSON text, not parsed and written again for every store that
   * pulls it; a table with hub-only columns has its rows written again with them empty.
   */
  changesAfter(after: number, limit: number): { text: string; changes: number } {
    const floor = Number(this.floor.get() ?? 0);
    if (after < floor) throw cursorExpired(after, floor);
    const lastSeq = this.lastSeq.get()?.seq ?? 0;
    const through = Math.max(after, Math.min(lastSeq, after + Math.min(limit * SEQS_PER_CHANGE, MAX_SEQS_READ)));
    const records = this.page.all(after, through, limit + 1);
    const changes = records.slice(0, limit);
    const last = changes[changes.length - 1];
    const cursor = records.length > limit ? last!.seq : through;
    const hubTime = last ? new Date(msOfStamp(last.hlc)).toISOString() : new Date().toISOString();
    const text =
      `{"changes":[${changes.map(changeText).join(',')}],"cursor":${cursor},"last_seq":${lastSeq},"has_more":${cursor < lastSeq},` +
      `"hub_time":${JSON.stringify(hubTime)},"feed_id":${JSON.stringify(this.feedId())}}`;
    return { text, changes: changes.length };
  }

  /**
   * Streams NDJSON (src/sync/hub/snapshot-reading.ts). `resume` continues an interrupted
   * snapshot after the last row a store loaded. In the `columns` format (this version's stores
   * ask for it) each table opens with `{table, columns}` and each row is a JSON array of its
   * values, which a store hands to SQLite as they come; the header carries the hub's clock,
   * past every row's stamp. The `rows` format, `{entity, row}` a line, is what stores of the
   * previous version read (a hub serves stores one version behind it). The header also says
   * which of the asking store's commands the hub holds (`node_through`,
   * src/sync/store/replay.ts).
   */
  async writeSnapshot(
    out: Writable,
    resume: { entity: string; afterId: string } | undefined,
    format: SnapshotFormat,
    nodeThrough: string | undefined,
  ): Promise<void> {
    const tables = this.shared.slice(resume ? Math.max(0, this.shared.indexOf(resume.entity)) : 0);
    const order: SnapshotOrder = {
      databaseFile: this.databaseFile,
      schemaVersion: this.schemaVersion,
      tables,
      afterId: resume && tables[0] === resume.entity ? resume.afterId : '',
      format,
      nodeThrough,
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
 * The changes of `tables` after a seq and up to another, in order. The unary `+` keeps SQLite on
 * the seq's range: the feed's index by entity would read every change of the tables instead.
 */
function pageOf(db: Db, tables: string[]): Statement<[number, number, number], ChangeRecord> {
  const names = tables.map((table) => `'${table}'`).join(', ');
  return db.prepare(
    `SELECT seq, entity, entity_id, op, row, hlc FROM changes WHERE seq > ? AND seq <= ? AND +entity IN (${names}) ORDER BY seq LIMIT ?`,
  );
}

/** One change of a page as JSON text: a FeedChange, its row spliced in as the feed keeps it. */
function changeText({ seq, entity, entity_id, op, row, hlc }: ChangeRecord): string {
  const sent =
    row === null
      ? 'null'
      : hubOnlyColumns(entity).length === 0
        ? row
        : JSON.stringify(withoutHubOnlyColumns(entity, syncColumns['changes.row'](row)));
  return `{"seq":${seq},"entity":${JSON.stringify(entity)},"entity_id":${JSON.stringify(entity_id)},"op":${JSON.stringify(op)},"row":${sent},"hlc":${JSON.stringify(hlc)}}`;
}
