/**
 * `loyaltyd hub …`: what an operator does to a hub's database beside serving it.
 *
 * `hub move-to-postgres` copies a SQLite hub's database into the PostgreSQL database its config
 * names (`database.url`), with the daemon stopped: every table whole, with its ids, stamps and
 * feed positions (src/db/postgres/copy-from-sqlite.ts), so that the stores keep following the
 * feed they followed. Before the copy commits, each table's rows are counted and the replicated
 * ones compared whole with the file's (`sync checksum --all`); the file is then renamed aside,
 * so that no hub serves it again.
 *
 * `hub restored` is the step after PostgreSQL's own tools (pgBackRest, or a base backup and its
 * archive) put an older copy of a hub's database in place: as `loyaltyd restore` does for a
 * SQLite hub, it gives the change feed a new identity, so that every store, whose cursor may name
 * changes the restored hub numbers again, bootstraps once and sends back what the hub lost
 * (src/sync/hub/feed-identity.ts). It runs with the daemon stopped: it takes the serving hub's
 * lock, which a running hub holds.
 */
import type { Command } from 'commander';
import { existsSync, renameSync } from 'node:fs';
import { systemClock } from '../core/clock.js';
import { ConfigError, type Config } from '../core/config.js';
import { isInUse } from '../db/backup.js';
import { migrate } from '../db/migrate.js';
import { folderMode } from '../db/node-mode.js';
import { openDatabase } from '../db/open.js';
import { copyFromSqlite } from '../db/postgres/copy-from-sqlite.js';
import { openPostgres } from '../db/postgres/open-postgres.js';
import { databaseFile, openNode } from '../root/node.js';
import { restartFeed } from '../sync/hub/feed-identity.js';
import { checksumTables } from '../sync/protocol/checksum.js';
import { commonOptions, configFrom, print, type CommonOptions } from './context.js';
import { progressBar } from './progress.js';

/** Tables that hold a hub's data once it has served: a target holding rows in any is not empty. */
const HUB_DATA = ['nodes', 'changes', 'customers', 'applied_commands'];

export function registerHubCommands(program: Command): void {
  const hub = program.command('hub').description("A hub's database on PostgreSQL: moving a SQLite hub there, the step after a restore");
  commonOptions(hub.command('restored'))
    .description("After PostgreSQL's tools restored the hub's database (the daemon stopped): a new feed identity, so every store bootstraps again")
    .action((options: CommonOptions) => {
      const config = configFrom(options, { mode: 'hub' });
      if (config.database.url === undefined)
        throw new ConfigError('this hub keeps its data in a SQLite file: `loyaltyd restore` puts its backup back and renews the feed itself');
      const node = openNode(config, systemClock, undefined, true);
      try {
        const feedId = restartFeed(node.db);
        const position = node.db.prepare<[], number | null>('SELECT max(seq) FROM changes').pluck().get() ?? 0;
        print(
          { feed_id: feedId, feed_position: position, node_registry: 'from the backup: add, bind and retire again the nodes changed after it' },
          options.json,
        );
      } finally {
        node.close();
      }
    });

  commonOptions(hub.command('move-to-postgres'))
    .description("Copy this hub's SQLite database into the empty PostgreSQL database of database.url (the daemon stopped), checked table by table")
    .action((options: CommonOptions) => {
      const config = configFrom(options, { mode: 'hub' });
      print(moveToPostgres(config), options.json);
    });
}

function moveToPostgres(config: Config): Record<string, unknown> {
  const url = config.database.url;
  if (url === undefined) throw new ConfigError('name the PostgreSQL database to move to: database.url (or LOYALTYD_DATABASE_URL)');
  const file = databaseFile(config.data_dir);
  if (!existsSync(file)) throw new Error(`${config.data_dir} holds no SQLite database to move`);
  if (isInUse(file)) throw new Error(`${file} is in use: stop the daemon (and any loyaltyd command on this folder), then move it`);
  const started = performance.now();
  const source = openDatabase(file);
  const target = openPostgres(url, { serving: true });
  try {
    const mode = folderMode(source);
    if (mode !== 'hub') throw new Error(`${file} is ${mode === undefined ? 'no node' : `a ${mode}`}'s database: only a hub's moves to PostgreSQL`);
    const { version } = migrate(source);
    if (migrate(target).version !== version) throw new Error(`the PostgreSQL database is at another schema version than ${file} (${version})`);
    const holding = HUB_DATA.filter((table) => target.prepare(`SELECT 1 FROM ${table} LIMIT 1`).get() !== undefined);
    if (holding.length > 0) throw new Error(`the PostgreSQL database already holds a hub (rows in ${holding.join(', ')}): move into an empty one`);
    const bar = progressBar();
    const rows = target.transaction(() => {
      const copied = copyFromSqlite(source, target, (done, total, table) => bar.update(done, total, table));
      bar.finish();
      const differing = [
        ...Object.entries(copied)
          .filter(([table, count]) => target.prepare<[], number>(`SELECT count(*) FROM "${table}"`).pluck().get() !== count)
          .map(([table]) => table),
        ...differingTables(checksumTables(source, { all: true }), checksumTables(target, { all: true })),
      ];
      if (differing.length > 0) throw new Error(`the copy differs from ${file} in ${[...new Set(differing)].join(', ')}; nothing was moved`);
      return copied;
    })();
    source.close();
    const aside = `${file}.moved-to-postgres-${new Date(systemClock()).toISOString().replace(/[:.]/g, '-')}`;
    renameSync(file, aside);
    return {
      schema_version: version,
      rows: Object.values(rows).reduce((sum, count) => sum + count, 0),
      tables: Object.keys(rows).length,
      checksums: 'equal',
      moved_aside: aside,
      seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
    };
  } finally {
    if (source.open) source.close();
    target.close();
  }
}

function differingTables(source: Record<string, unknown>, target: Record<string, unknown>): string[] {
  return Object.keys({ ...source, ...target }).filter((table) => JSON.stringify(source[table]) !== JSON.stringify(target[table]));
}
