import { closeSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startCheckpointer } from '../../src/db/checkpointer.js';
import { openDatabase, type SqliteDb } from '../../src/db/open.js';
import { waitFor } from '../support/wait.js';
import { logProgress } from '../support/wal-index.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';
import { sqliteOnly } from '../../src/db/sqlite.js';

const silent = pino({ level: 'silent' });
const cleanups: (() => unknown)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function scratchDatabase(): { db: SqliteDb; file: string } {
  const folder = tempDir('loyaltyd-checkpointer-');
  const file = `${folder}/scratch.sqlite`;
  const db = openDatabase(file);
  db.exec('CREATE TABLE scratch (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  cleanups.push(
    () => rmSync(folder, { recursive: true, force: true }),
    () => db.close(),
  );
  return { db, file };
}

const sizeOf = (file: string) => statSync(file, { throwIfNoEntry: false })?.size ?? 0;

/** How many times a log has started over: its header's checkpoint sequence number (SQLite's WAL format, bytes 12–15). */
function restartsOf(walFile: string): number {
  const header = Buffer.alloc(32);
  const fd = openSync(walFile, 'r');
  try {
    readSync(fd, header, 0, 32, 0);
  } finally {
    closeSync(fd);
  }
  return header.readUInt32BE(12);
}

/**
 * Commits `count` rows of `size` characters, each in its own transaction: a few pages in the
 * log a commit (a 3 KB row three, a 20 KB row six or seven). Paced, the writer waits 5 ms
 * after each commit, as a node's commits come with gaps between them (at the checkout
 * bench's 100 bills a second, ~8 ms); otherwise it commits as fast as it can.
 */
async function commitRows(db: SqliteDb, count: number, size: number, paced: boolean): Promise<void> {
  const insert = db.prepare('INSERT INTO scratch (body) VALUES (?)');
  for (let row = 0; row < count; row += 1) {
    insert.run('x'.repeat(size));
    if (paced) await delay(5);
  }
}

const MB = 1024 * 1024;

describe('the checkpoint worker', () => {
  it('copies the log into the database beside the writer, so the log starts over instead of growing', async () => {
    const { db, file } = scratchDatabase();
    cleanups.push(startCheckpointer(db, silent));
    const before = sizeOf(file);

    // 400 commits of a 20 KB row put some 10 MB in a log that only the worker copies back: the
    // writer's own checkpoint waits for 10,000 pages.
    await commitRows(db, 400, 20_000, true);
    await waitFor(
      'the worker to copy the whole log into the database',
      () => {
        const log = logProgress(`${file}-shm`);
        return log.frames > 0 && log.copied === log.frames;
      },
      { timeoutMs: 60_000, intervalMs: 20 },
    );
    expect(sizeOf(file) - before).toBeGreaterThanOrEqual(7 * MB);
    expect(db.prepare('SELECT count(*) FROM scratch').pluck().get()).toBe(400);

    // A log all copied is started over from its beginning by the next commit that finds no
    // reader in it (the worker's checkpoint reads it for a moment).
    const restartsBefore = restartsOf(`${file}-wal`);
    await waitFor('a commit to start the log over', async () => {
      await commitRows(db, 1, 20_000, false);
      return restartsOf(`${file}-wal`) > restartsBefore;
    });
    expect(logProgress(`${file}-shm`).frames).toBeLessThan(50);
  });

  it('bounds the log of a stream of commits with no gap at 10,000 pages', async () => {
    const { db, file } = scratchDatabase();
    cleanups.push(startCheckpointer(db, silent));
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);

    // 6,000 commits of a 20 KB row append some 150 MB. The log holds 10,000 pages (40 MB) and
    // what the writer appends while the worker's checkpoint holds the checkpoint lock, when
    // SQLite skips the writer's own: one checkpoint's worth, not the stream.
    await commitRows(db, 6000, 20_000, false);

    expect(sizeOf(`${file}-wal`)).toBeLessThan(75 * MB);
  });

  it('hands checkpoints back to SQLite when stopped', async () => {
    const { db, file } = scratchDatabase();
    await startCheckpointer(db, silent)();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);

    await commitRows(db, 3000, 3000, false);
    expect(sizeOf(`${file}-wal`)).toBeLessThan(6 * MB);
  });

  it('runs while a node serves', async () => {
    const server: TestServer = await startTestServer();
    cleanups.push(() => server.close());
    expect(sqliteOnly(server.app.node.db, 'this test').pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
  });
});
