import type { Command } from 'commander';
import { systemClock } from '../core/clock.js';
import { runRoundNow } from '../sync/store/round-now.js';
import { checksumTables } from '../sync/protocol/checksum.js';
import { readSyncStatus } from '../sync/status.js';
import { StorageReader } from '../sync/storage-status.js';
import { createFeedCompaction } from '../root/hub.js';
import { createStoreSync } from '../root/store.js';
import { checkDataFolder, modeAdvice } from './data-folder.js';
import { commonOptions, configFrom, positiveInteger, print, printTable, wholeNumber, withApp, type CommonOptions } from './context.js';
import { newestConflictsSql } from '../sync/conflict-listing.js';
import type { SyncConflictsRow } from '../db/tables.generated.js';
import { progressBar } from './progress.js';
import { dbColumns } from '../db/column-codecs.js';

/** Conflicts `sync conflicts` lists unless told otherwise. */
const LISTED_CONFLICTS = 1000;
/** How long `sync now` waits out the hub's Retry-After in all, unless told otherwise. */
const MAX_WAIT_SECONDS = 60;

interface SyncOptions extends CommonOptions {
  mode?: string;
  hubUrl?: string;
  nodeName?: string;
  nodeSecret?: string;
}

function withSyncFlags(command: Command): Command {
  return commonOptions(command)
    .option('--mode <mode>', 'store or hub (default store, or LOYALTYD_MODE)')
    .option('--hub-url <url>', 'hub to sync with')
    .option('--node-name <name>', "this store node's name at the hub")
    .option('--node-secret <secret>', "this store node's secret");
}

/** The command's config, once the data folder is found to hold the kind of node its mode names. */
function syncConfig(options: SyncOptions) {
  const config = configFrom(options, {
    mode: options.mode,
    'hub.url': options.hubUrl,
    'node.name': options.nodeName,
    'node.secret': options.nodeSecret,
  });
  checkDataFolder(config, config.mode, { mustExist: false, advice: modeAdvice(config.mode) });
  return config;
}

export function registerSyncCommands(program: Command): void {
  const sync = program.command('sync').description('Store↔hub sync: status, a round now, conflicts (works while the daemon runs)');

  withSyncFlags(
    sync
      .command('status')
      .description('Reachability, last push and pull, outbox depth and age, feed lag, conflicts, rows held per scope, retention and compaction'),
  ).action(async (options: SyncOptions) => {
    const config = syncConfig(options);
    await withApp(config, (app) => {
      const status = {
        ...readSyncStatus(app.node.db, config.mode, config.hub.url, systemClock),
        storage: new StorageReader(app.node.db, config).read(systemClock),
      };
      if (options.json) print({ ...status }, true);
      else if (status.mode === 'hub') {
        const { nodes, ...rest } = status;
        print(flatten(rest as unknown as Record<string, unknown>), false);
        printTable('nodes', nodes as unknown as Record<string, unknown>[]);
      } else print(flatten(status as unknown as Record<string, unknown>), false);
    });
  });

  withSyncFlags(
    sync
      .command('now')
      .description('Run one sync round (bootstrap if needed, push, pull) and report it')
      .option(
        '--wait <seconds>',
        "wait out the hub's Retry-After and run the round again, for this long in all (0: never)",
        wholeNumber,
        MAX_WAIT_SECONDS,
      ),
  ).action(async (options: SyncOptions & { wait: number }) => {
    const config = syncConfig(options);
    await withApp(config, async (app) => {
      const sync = createStoreSync(app.node, config, systemClock);
      if (!sync) throw new Error('sync now needs a store with hub.url, node.name and node.secret configured');
      const bar = options.json ? undefined : progressBar();
      const outcome = await runRoundNow(sync, systemClock, {
        maxWaitMs: options.wait * 1000,
        onWait: (ms, refused) => {
          bar?.finish();
          process.stderr.write(`the hub refused the round (${refused.hubStatus}: ${refused.error}); running it again in ${ms / 1000} s\n`);
        },
        onProgress: (progress) =>
          bar?.update(progress.loaded, progress.total, `${progress.loaded.toLocaleString('en')} of ${progress.total.toLocaleString('en')} rows`),
      });
      bar?.finish();
      await sync.client.close();
      print({ ...outcome }, options.json);
      if (!outcome.ok) process.exitCode = 1;
    });
  });

  commonOptions(
    sync
      .command('compact')
      .description("On the hub: compact the change feed and forget the stores' command results past the retention now (also done hourly)"),
  ).action(async (options: CommonOptions) => {
    const config = configFrom(options, { mode: 'hub' });
    checkDataFolder(config, 'hub', { mustExist: true, advice: "the change feed is compacted on the hub's folder" });
    const outcome = await withApp(config, (app) => createFeedCompaction(app.node, config, systemClock).run());
    print({ ...outcome }, options.json);
  });

  commonOptions(
    sync
      .command('checksum')
      .description('A checksum per replicated table, to compare nodes')
      .option('--all', 'every replicated table, facts too, over whole rows: to compare two hubs (a restored or moved one with its source)'),
  ).action(async (options: CommonOptions & { all?: boolean }) => {
    await withApp(configFrom(options), (app) => {
      const checksums = checksumTables(app.node.db, { all: options.all === true });
      if (options.json) print({ tables: checksums }, true);
      else print(Object.fromEntries(Object.entries(checksums).map(([table, sum]) => [table, `${sum.rows} rows  ${sum.sha256.slice(0, 16)}`])), false);
    });
  });

  commonOptions(
    sync
      .command('conflicts')
      .description('List the conflicts folds and sync have found, the newest of them, oldest first')
      .option('--limit <n>', 'at most this many, the newest', positiveInteger, LISTED_CONFLICTS),
  ).action(async (options: CommonOptions & { limit: number }) => {
    await withApp(configFrom(options), (app) => {
      const total = app.node.db.prepare<[], number>('SELECT count(*) FROM sync_conflicts').pluck().get()!;
      const conflicts = app.node.db
        .prepare<[number], Omit<SyncConflictsRow, 'id'>>(
          `SELECT kind, entity, entity_id, detail, detected_at FROM (${newestConflictsSql('id, kind, entity, entity_id, detail, detected_at')}) AS newest
           ORDER BY detected_at, id`,
        )
        .all(options.limit)
        .map((conflict) => ({ ...conflict, detail: dbColumns['sync_conflicts.detail'](conflict.detail) }));
      if (options.json) {
        print({ conflicts, total }, true);
        return;
      }
      if (conflicts.length === 0) process.stdout.write('no conflicts\n');
      if (conflicts.length < total) process.stdout.write(`the newest ${conflicts.length} of ${total} conflicts (--limit)\n`);
      for (const conflict of conflicts) {
        process.stdout.write(
          `${conflict.detected_at}  ${conflict.kind}  ${conflict.entity}/${conflict.entity_id}  ${JSON.stringify(conflict.detail)}\n`,
        );
      }
    });
  });
}

function flatten(value: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (inner && typeof inner === 'object' && !Array.isArray(inner))
      Object.assign(result, flatten(inner as Record<string, unknown>, `${prefix}${key}.`));
    else result[`${prefix}${key}`] = inner ?? '-';
  }
  return result;
}
