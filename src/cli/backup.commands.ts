/**
 * `loyaltyd backup` copies a node's database while its daemon serves (src/db/backup.ts);
 * `loyaltyd restore` puts a hub's backup back in place of its database.
 *
 * A restored hub has lost what it took after the backup, and its change feed goes on from
 * the backup's position, which the stores may have pulled past. So the restore gives the
 * feed a new identity: every store then bootstraps again from the restored hub (keeping its
 * own commands not yet pushed), and pushes its pending commands in a new generation, since
 * the hub no longer holds the commands it acknowledged after the backup (src/sync/store/pusher.ts).
 * A store is not restored: it is rebuilt from its hub.
 */
import type { Db } from '../db/open.js';
import type { Command } from 'commander';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { systemClock } from '../core/clock.js';
import { ConfigError, type Config } from '../core/config.js';
import { backupDatabase, integrityProblems, isInUse, replaceDatabase } from '../db/backup.js';
import { inspectDatabase, openDatabase } from '../db/open.js';
import { databaseFile, openNode } from '../root/node.js';
import { restartFeed } from '../sync/hub/feed-identity.js';
import { keepNodeRegistry, type KeptRegistry } from '../sync/hub/node-registry.js';
import { configFrom, print, type CommonOptions } from './context.js';
import { progressBar } from './progress.js';

interface BackupOptions extends CommonOptions {
  to: string;
}

interface RestoreOptions extends CommonOptions {
  from: string;
}

export function registerBackupCommands(program: Command): void {
  program
    .command('backup')
    .description('Copy the database to a new file while the daemon serves (SQLite online backup), then check the copy')
    .requiredOption('--to <file>', 'the backup file to write (must not exist)')
    .option('--data-dir <dir>', 'data folder (default ./data, or LOYALTYD_DATA_DIR)')
    .option('--config <file>', 'JSON config file')
    .option('--json', 'print the result as JSON')
    .action(async (options: BackupOptions) => {
      const config = configFrom(options);
      refuseOnPostgres(config, 'backed up');
      const source = databaseFile(config.data_dir);
      if (!existsSync(source)) throw new Error(`no database at ${source}`);
      const target = resolve(options.to);
      const started = performance.now();
      const db = openDatabase(source);
      const bar = options.json ? undefined : progressBar();
      try {
        const pages = await backupDatabase(db, target, ({ copiedPages, totalPages }) =>
          bar?.update(copiedPages, totalPages, `${copiedPages.toLocaleString('en')} of ${totalPages.toLocaleString('en')} pages`),
        );
        bar?.finish();
        print(
          {
            file: target,
            pages,
            bytes: statSync(target).size,
            ...positionOf(target),
            integrity: 'ok',
            seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
          },
          options.json,
        );
      } finally {
        db.close();
      }
    });

  program
    .command('restore')
    .description("Put a hub's backup in place of its database (the daemon stopped); its stores bootstrap again from it")
    .requiredOption('--from <file>', 'a file `loyaltyd backup` wrote')
    .option('--data-dir <dir>', 'data folder (default ./data, or LOYALTYD_DATA_DIR)')
    .option('--config <file>', 'JSON config file')
    .option('--json', 'print the result as JSON')
    .action(async (options: RestoreOptions) => {
      const config = configFrom(options, { mode: 'hub' });
      refuseOnPostgres(config, 'restored', ', then `loyaltyd hub restored` gives its feed a new identity');
      const backup = resolve(options.from);
      if (!existsSync(backup)) throw new Error(`no backup at ${backup}`);
      const problems = integrityProblems(backup);
      if (problems.length > 0) throw new Error(`${backup} fails its integrity check: ${problems.join('; ')}`);
      if (followsHub(backup))
        throw new Error(
          `${backup} is a store's database: a store is not restored but rebuilt from its hub (move its data folder aside and start it)`,
        );
      const target = databaseFile(config.data_dir);
      if (isInUse(target)) throw new Error(`${target} is in use: stop the daemon (and any loyaltyd command on this folder), then restore`);
      const aside = `${target}.before-restore-${new Date(systemClock()).toISOString().replace(/[:.]/g, '-')}`;
      const moved = await replaceDatabase(backup, target, aside);
      const node = openNode(config, systemClock);
      try {
        const feedId = restartFeed(node.db);
        const registry = registryAfterRestore(node.db, moved.includes(aside) ? aside : undefined);
        print(
          { database: target, restored_from: backup, ...positionOf(target), feed_id: feedId, moved_aside: moved, node_registry: registry },
          options.json,
        );
      } finally {
        node.close();
      }
    });
}

/**
 * The replaced database's registry of store nodes, kept in the restored one when it can be
 * read (src/sync/hub/node-registry.ts); else the backup's, which the operator is told to redo.
 */
function registryAfterRestore(db: Db, replaced: string | undefined): KeptRegistry | string {
  const redo = 'from the backup: add, bind and retire again the nodes changed after it';
  if (replaced === undefined) return redo;
  try {
    return keepNodeRegistry(db, replaced);
  } catch (error) {
    return `${redo} (the replaced database could not be read: ${(error as Error).message})`;
  }
}

/** What a database holds, for the operator to match a backup with a checksum. */
function positionOf(file: string): { schema_version: number; feed_position: number } {
  const db = inspectDatabase(file);
  try {
    return {
      schema_version: db.prepare<[], number | null>('SELECT max(version) FROM schema_migrations').pluck().get() ?? 0,
      feed_position: db.prepare<[], number | null>('SELECT max(seq) FROM changes').pluck().get() ?? 0,
    };
  } finally {
    db.close();
  }
}

/** Whether a database is a store's that followed a hub's feed. */
function followsHub(file: string): boolean {
  const db = inspectDatabase(file);
  try {
    return db.prepare("SELECT 1 FROM meta WHERE key IN ('sync.cursor', 'sync.snapshot_position')").get() !== undefined;
  } finally {
    db.close();
  }
}

/**
 * A hub on PostgreSQL is backed up and restored by PostgreSQL's own tools, which the IT team
 * runs: these commands copy a SQLite file.
 */
function refuseOnPostgres(config: Config, done: string, after = ''): void {
  if (config.database.url === undefined) return;
  throw new ConfigError(
    `this hub keeps its data in PostgreSQL (database.url): it is ${done} with pgBackRest (full and incremental backups, point-in-time restore) or pg_basebackup, not with loyaltyd${after}; see the README's "Hub on PostgreSQL"`,
  );
}
