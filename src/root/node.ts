/** A node's database and the clocks and id generator that stamp what it writes. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../core/clock.js';
import { type Config, syncsWithHub } from '../core/config.js';
import { migrate, schemaVersion, type MigrationResult } from '../db/migrate.js';
import { Durability } from '../db/durability.js';
import { sqliteOnly } from '../db/sqlite.js';
import { loadNodeIdentity, type NodeIdentity } from '../db/node-identity.js';
import { recordMode } from '../db/node-mode.js';
import { openDatabase, openReadOnlyDatabase, type Db } from '../db/open.js';
import { openPostgres } from '../db/postgres/open-postgres.js';
import { Statements } from '../db/statements.js';
import { TableVersions, type WriterSide } from '../db/table-versions.js';
import type { SharedCommits } from '../db/shared-commits.js';
import { WritePath } from '../db/write-path.js';
import { BalanceReader } from '../loyalty/balance-reader.js';
import { CustomerStates } from '../loyalty/customer-states.js';
import { Horizon } from '../loyalty/horizon.js';
import { forgetHubOnlyColumns } from '../sync/protocol/scopes.js';
import { ReplicatedApply } from '../sync/replicated-apply.js';
import { HybridLogicalClock } from '../core/hlc.js';
import { createIdGenerator, type IdGenerator } from '../core/ids.js';
import { Operations } from '../core/operations.js';
import { MODEL_INPUT } from '../features/recommendations/model-accumulators.repo.js';

export interface Node {
  db: Db;
  identity: NodeIdentity;
  migrations: MigrationResult;
  hlc: HybridLogicalClock;
  newId: IdGenerator;
  /** The API operation being served or replayed (src/core/operations.ts). */
  operations: Operations;
  writes: WritePath;
  /** When a commit is on disk: the WAL flusher of a serving node (src/db/durability.ts). */
  durability: Durability;
  /** Changes made on other nodes, applied with their stamps (src/sync/replicated-apply.ts). */
  replicated: ReplicatedApply;
  /** Every customer's balances (src/loyalty/balance-reader.ts). */
  balances: BalanceReader;
  /** The publisher of customer states: on the hub, and on a store without a hub; undefined on a store with one. */
  states: CustomerStates | undefined;
  close(): void;
}

export function databaseFile(dataDir: string): string {
  return join(dataDir, 'loyaltyd.sqlite');
}

/** Opens (creating if needed) and migrates the database in the data folder. */
const DEFAULT_OFFLINE_AGE_HOURS = 24;
const PUBLISH_BATCH = 1000;
/** The writer thread's page cache, in KiB as SQLite counts a negative cache_size: 4 MB. */
const WRITER_CACHE_KIB = -4096;

type NodeConfig = Pick<Config, 'data_dir' | 'mode'> & Partial<Pick<Config, 'hub' | 'offline' | 'database'>>;

/**
 * `commits`: on a store's writer thread, where it counts its commits for the event loop
 * (src/root/writer.ts). `serving`: the daemon, which alone may write a hub's PostgreSQL
 * database as its serving process (src/db/postgres/open-postgres.ts).
 */
export function openNode(config: NodeConfig, clock: Clock, commits?: SharedCommits, serving = false): Node {
  const url = config.database?.url;
  const file = databaseFile(config.data_dir);
  const created = url === undefined && !existsSync(file);
  const db = url === undefined ? openDatabase(file) : openPostgres(url, { serving });
  try {
    const migrations = migrate(db);
    if (created || url !== undefined) recordMode(db, config.mode);
    // The writer thread's reads are its writes' own: the event loop's connection keeps the
    // cash desk's pages (src/db/open.ts), and this one an eighth of as many.
    if (commits) sqliteOnly(db, "a store's writer thread").pragma(`cache_size = ${WRITER_CACHE_KIB}`);
    return nodeOn(db, migrations, config, clock, commits && { side: 'writer', commits });
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * The event loop's node beside a writer thread (src/root/writer.ts), which opened the folder,
 * migrated it and holds its read-write connection: a read-only connection, with the same
 * parts, whose write path is never used (every write is the writer's) and which publishes no
 * customer state.
 */
export function openReadingNode(config: NodeConfig, clock: Clock, commits: SharedCommits): Node {
  const db = openReadOnlyDatabase(databaseFile(config.data_dir));
  try {
    return nodeOn(db, { applied: [], version: schemaVersion() }, config, clock, { side: 'reader', commits });
  } catch (error) {
    db.close();
    throw error;
  }
}

function nodeOn(db: Db, migrations: MigrationResult, config: NodeConfig, clock: Clock, writerSide: WriterSide | undefined): Node {
  const identity = loadNodeIdentity(db);
  const hlc = new HybridLogicalClock(identity.nodeId, clock, identity.lastStamp);
  const operations = new Operations(clock);
  const newId = operations.ids(createIdGenerator(clock));
  const statements = new Statements(db);
  const versions = new TableVersions(db, writerSide);
  const writes = new WritePath({
    db,
    statements,
    versions,
    hlc,
    newId,
    mode: config.mode,
    clock,
    keepsInFeed: feedTables(config),
    operations,
    operationsOnly: syncsWithHub(config),
  });
  const replicated = new ReplicatedApply(statements, versions, hlc);
  if (syncsWithHub(config) && !db.readonly) forgetHubOnlyColumns(db);
  return {
    db,
    identity,
    migrations,
    hlc,
    newId,
    operations,
    writes,
    durability: new Durability(db),
    replicated,
    balances: new BalanceReader(db),
    states: db.readonly ? undefined : statesPublisher(db, writes, hlc, config, clock),
    close: () => db.close(),
  };
}

/**
 * The tables whose local writes a node keeps in its change feed: every one on the hub; on a store
 * with no hub, what its recommendation model follows; none on a store with a hub.
 */
function feedTables(config: NodeConfig): (table: string) => boolean {
  if (config.mode === 'hub') return () => true;
  if (syncsWithHub(config)) return () => false;
  const followed = new Set(MODEL_INPUT);
  return (table) => followed.has(table);
}

/** The hub folds states up to its horizon, a store without a hub up to its newest stamp; a store with one publishes none. */
function statesPublisher(db: Db, writes: WritePath, hlc: HybridLogicalClock, config: NodeConfig, clock: Clock): CustomerStates | undefined {
  if (config.mode === 'hub') {
    const horizon = new Horizon(db, (config.offline?.max_age_hours ?? DEFAULT_OFFLINE_AGE_HOURS) * 3_600_000);
    return publishStates(db, writes, clock, 'hub', () => horizon.at(clock()).stamp);
  }
  return syncsWithHub(config) ? undefined : publishStates(db, writes, clock, 'store', () => hlc.now());
}

/**
 * Meta key: when the node last found every customer with records published. A hub's is one of
 * the marks by which a folder that recorded no mode is known as a hub's (src/db/node-mode.ts),
 * so a store's is another.
 */
const STATES_SWEPT: Record<Config['mode'], string> = { hub: 'customer_states.swept_at', store: 'customer_states.store_swept_at' };

/**
 * A node that publishes states (the hub, a store without a hub) publishes a customer's state in
 * every write that changes their records, and once for customers who have records and no state
 * yet (a node upgraded from a release that did not publish them). That sweep reads every
 * record's customer, which a year of a chain makes minutes, at every start of the daemon and
 * every CLI command: it runs until it finds none left, and not again.
 */
function publishStates(db: Db, writes: WritePath, clock: Clock, mode: Config['mode'], horizon: () => string): CustomerStates {
  const states = new CustomerStates(db, horizon);
  writes.onWrite((changes, tx) => states.publishTouched(tx, CustomerStates.touched(changes)));
  if (db.prepare('SELECT 1 FROM meta WHERE key = ?').get(STATES_SWEPT[mode]) === undefined) {
    for (let batch = states.unpublishedCustomers(PUBLISH_BATCH); batch.length > 0; batch = states.unpublishedCustomers(PUBLISH_BATCH)) {
      writes.write(null, (tx) => states.publish(tx, batch));
    }
    db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run(STATES_SWEPT[mode], new Date(clock()).toISOString());
  }
  return states;
}
