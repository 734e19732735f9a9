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
import type { ChangesPage, SnapshotFormat } from '../protocol/protocol.js';
import { reachesStores, withoutHubOnlyColumns } from '../protocol/scopes.js';
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

export class HubFeed {
  private readonly page: Statement<[number, number], ChangeRecord>;
  private readonly lastSeq: Statement<[], { seq: number | null }>;
  private readonly floor: Statement<[], string | undefined>;
  /** The feed's identity (src/sync/hub/feed-identity.ts). */
  readonly feedId: () => string;
  private readonly replicatedSet: Set<string>;
  /** The tables whose rows a scoped store holds (src/sync/protocol/scopes.ts). */
  private readonly sharedSet: Set<string>;

  private readonly databaseFile: string;
  private readonly replicated: string[];
  private readonly schemaVersion: number;
  private readonly stamp: () => string;
  private readonly threads: SnapshotThreads | undefined;

  constructor(options: HubFeedOptions) {
    const { db, databaseFile, replicated, schemaVersion, stamp, threads } = options;
    this.threads = threads;
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
    scoped: boolean,
    resume: { entity: string; afterId: string } | undefined,
    format: SnapshotFormat,
    nodeThrough: string | undefined,
  ): Promise<void> {
    const sent = scoped ? this.replicated.filter((table) => this.sharedSet.has(table)) : this.replicated;
    const tables = sent.slice(resume ? Math.max(0, sent.indexOf(resume.entity)) : 0);
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
