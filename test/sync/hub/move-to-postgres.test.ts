/**
 * `loyaltyd hub move-to-postgres`, as a head-office IT team runs it on a SQLite hub that has
 * served a store: with the daemon stopped, the hub's database is copied into an empty PostgreSQL
 * database; `sync checksum --all` (facts too, whole rows) prints the same on both; the hub
 * started again on PostgreSQL is followed by the store bootstrapped before the move without a
 * new bootstrap; and a second move into the database now holding the hub is refused. A real hub
 * process, a store node in the test's process, a database of the run's cluster.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/core/clock.js';
import { openNode, type Node } from '../../../src/root/node.js';
import { createStoreSync } from '../../../src/root/store.js';
import { runRound } from '../../../src/sync/store/agent.js';
import { readSyncStatus, type StoreSyncStatus } from '../../../src/sync/status.js';
import { runCli, runCliJson } from '../../support/cli.js';
import { addNode, demoHubFolder, freePort, startHub, storeConfig, type ServerProcess } from '../../support/cluster.js';
import { freshPostgresDatabase, type PostgresDatabase } from '../../support/postgres.js';
import { queueEvents } from '../../support/queued-events.js';
import { tempDir } from '../../support/server.js';

const HUB = { LOYALTYD_MODE: 'hub' };

let hubDir: string;
let port: number;
let storeDir: string;
let hub: ServerProcess | undefined;
let node: Node;
let sync: NonNullable<ReturnType<typeof createStoreSync>>;
let database: PostgresDatabase;

const round = () => runRound(sync, systemClock);
const cursor = () => (readSyncStatus(node.db, 'store', undefined, Date.now) as StoreSyncStatus).feed.cursor!;

beforeAll(async () => {
  hubDir = tempDir();
  demoHubFolder(hubDir);
  port = await freePort();
  hub = await startHub(hubDir, {}, port);
  storeDir = tempDir();
  const config = storeConfig(storeDir, hub.url, addNode(hubDir, 'moving-store'));
  node = openNode(config, systemClock);
  sync = createStoreSync(node, config, systemClock)!;
  expect(await round()).toMatchObject({ ok: true, bootstrapped: true });
  queueEvents(node, 30, 'before-move');
  expect(await round()).toMatchObject({ ok: true, pushed: 30, rejected: 0, held: 0 });
  database = await freshPostgresDatabase();
}, 60_000);

afterAll(async () => {
  await sync?.client.close();
  node?.close();
  await hub?.stop();
  await database?.drop();
  rmSync(storeDir, { recursive: true, force: true });
  rmSync(hubDir, { recursive: true, force: true });
});

describe('a SQLite hub moved to PostgreSQL', () => {
  it('holds the same rows there, and the store bootstrapped before the move follows its feed on', async () => {
    const onPostgres = { ...HUB, LOYALTYD_DATABASE_URL: database.url };
    const before = await runCliJson(['sync', 'checksum', '--all', '--data-dir', hubDir], HUB);
    expect(Object.keys(before.tables)).toEqual(expect.arrayContaining(['customers', 'purchases', 'point_records', 'events']));
    expect(before.tables.events.rows).toBeGreaterThanOrEqual(30);

    const running = await runCli(['hub', 'move-to-postgres', '--data-dir', hubDir, '--json'], onPostgres);
    expect(running.code).not.toBe(0);
    expect(running.stderr).toContain('stop the daemon');

    await hub!.stop();
    hub = undefined;
    const moved = await runCliJson(['hub', 'move-to-postgres', '--data-dir', hubDir], onPostgres);
    expect(moved).toMatchObject({ checksums: 'equal', rows: expect.any(Number), moved_aside: expect.stringContaining('moved-to-postgres') });
    expect(existsSync(moved.moved_aside)).toBe(true);
    expect(readdirSync(hubDir).filter((name) => name === 'loyaltyd.sqlite')).toEqual([]);
    const after = await runCliJson(['sync', 'checksum', '--all', '--data-dir', hubDir], onPostgres);
    expect(after.tables).toEqual(before.tables);

    const again = await runCli(['hub', 'move-to-postgres', '--data-dir', hubDir, '--json'], onPostgres);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('holds no SQLite database');

    hub = await startHub(hubDir, { LOYALTYD_DATABASE_URL: database.url }, port);
    const pulledTo = cursor();
    queueEvents(node, 5, 'after-move');
    expect(await round()).toMatchObject({ ok: true, bootstrapped: false, pushed: 5, rejected: 0, held: 0 });
    expect(await round()).toMatchObject({ ok: true, bootstrapped: false });
    expect(cursor()).toBeGreaterThan(pulledTo);
  });
});
