/** A node's database and the clocks and id generator that stamp what it writes. */
import { join } from 'node:path';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import { migrate, type MigrationResult } from './db/migrate.js';
import { loadNodeIdentity, type NodeIdentity } from './db/node-identity.js';
import { openDatabase, type Db } from './db/open.js';
import { WritePath } from './db/write-path.js';
import { HybridLogicalClock } from './sync/hlc.js';
import { createIdGenerator, type IdGenerator } from './sync/ids.js';

export interface Node {
  db: Db;
  identity: NodeIdentity;
  migrations: MigrationResult;
  hlc: HybridLogicalClock;
  newId: IdGenerator;
  writes: WritePath;
  close(): void;
}

export function databaseFile(dataDir: string): string {
  return join(dataDir, 'loyaltyd.sqlite');
}

/** Opens (creating if needed) and migrates the database in the data folder. */
export function openNode(config: Pick<Config, 'data_dir' | 'mode'> & Partial<Pick<Config, 'hub'>>, clock: Clock): Node {
  const db = openDatabase(databaseFile(config.data_dir));
  try {
    const migrations = migrate(db);
    const identity = loadNodeIdentity(db);
    const hlc = new HybridLogicalClock(identity.nodeId, clock, identity.lastStamp);
    const newId = createIdGenerator(clock);
    const writes = new WritePath(db, hlc, newId, config.mode, clock, config.mode === 'hub' || !config.hub?.url);
    return { db, identity, migrations, hlc, newId, writes, close: () => db.close() };
  } catch (error) {
    db.close();
    throw error;
  }
}
