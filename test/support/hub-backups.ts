/**
 * A hub backed up and restored as its operator does it, on the run's engine
 * (test/support/hub-engine.ts): on SQLite `loyaltyd backup` while it serves and `loyaltyd
 * restore` once it has stopped; on PostgreSQL a dump of its database while it serves (pg_dump,
 * standing in for the pgBackRest a production hub uses: both put back the database as it was),
 * restored into the database emptied, then `loyaltyd hub restored`.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { databaseFile } from '../../src/root/node.js';
import { runCliJson } from './cli.js';
import { hubDatabase } from './hub-engine.js';
import { postgresTool } from './postgres-cluster.js';

const HUB = { LOYALTYD_MODE: 'hub' };

export async function backUpHub(dataDir: string, file: string): Promise<void> {
  const database = await hubDatabase(dataDir);
  if (!database) {
    await runCliJson(['backup', '--to', file, '--data-dir', dataDir], HUB);
    return;
  }
  execFileSync(postgresTool('pg_dump'), ['--format=custom', '--file', file, '--dbname', database.url], { stdio: 'pipe' });
}

/** Puts the backup in `file` back in place of the hub's database; the hub must have stopped. */
export async function restoreHub(dataDir: string, file: string): Promise<void> {
  const database = await hubDatabase(dataDir);
  if (!database) {
    await runCliJson(['restore', '--from', file, '--data-dir', dataDir], HUB);
    return;
  }
  await database.recreate();
  execFileSync(postgresTool('pg_restore'), ['--dbname', database.url, file], { stdio: 'pipe' });
  await runCliJson(['hub', 'restored', '--data-dir', dataDir], { ...HUB, LOYALTYD_DATABASE_URL: database.url });
}

/**
 * Puts the backup in `file` back as an operator would without loyaltyd: the SQLite file copied over
 * the hub's, or the PostgreSQL database restored, and nothing told of it. The hub must have stopped.
 */
export async function putBackByHand(dataDir: string, file: string): Promise<void> {
  const database = await hubDatabase(dataDir);
  if (!database) {
    const target = databaseFile(dataDir);
    for (const log of [`${target}-wal`, `${target}-shm`]) rmSync(log, { force: true });
    copyFileSync(file, target);
    return;
  }
  await database.recreate();
  execFileSync(postgresTool('pg_restore'), ['--dbname', database.url, file], { stdio: 'pipe' });
}
