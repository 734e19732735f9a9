/**
 * When a write is on disk (src/db/durability.ts): with the WAL flushers running, commits do
 * not sync themselves; a waiter is answered after a flush that began after it asked, and the
 * waiters that asked while both flushers ran share the next flush, and until then the
 * work that holds the thread is told a write waits; a burst of password checks
 * leaves the flushes threads of the pool they run on; a flush that fails refuses its waiters,
 * and the commits sync themselves. A thread that hands its flushes off (a store's writer
 * thread) waits for none. A serving node answers a write after a flush and a read at once.
 */
import { rmSync } from 'node:fs';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../src/demo/demo.js';
import { hashPassword } from '../../src/auth/passwords.js';
import { Durability } from '../../src/db/durability.js';
import { openDatabase, type SqliteDb } from '../../src/db/open.js';
import { sqliteOnly } from '../../src/db/sqlite.js';
import { call, demoPosLogin, startTestServer, tempDir } from '../support/server.js';
import { makeLogUnsyncable } from '../support/unsyncable-log.js';

const silent = pino({ level: 'silent' });
const cleanups: (() => unknown)[] = [];
const FULL = 2;
const NORMAL = 1;

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function scratchDatabase(): SqliteDb {
  const folder = tempDir('loyaltyd-durability-');
  const db = openDatabase(`${folder}/scratch.sqlite`);
  db.exec('CREATE TABLE scratch (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  cleanups.push(
    () => rmSync(folder, { recursive: true, force: true }),
    () => db.close(),
  );
  return db;
}

const synchronous = (db: SqliteDb) => db.pragma('synchronous', { simple: true });

describe('the WAL flushers', () => {
  it('answers a waiter after a flush that began after it asked; those that asked while both flushers ran share the next', async () => {
    const db = scratchDatabase();
    const durability = new Durability(db);
    const stop = durability.startFlusher(silent);
    expect(synchronous(db)).toBe(NORMAL);

    db.prepare('INSERT INTO scratch (body) VALUES (?)').run('first');
    let firstDone = false;
    const first = durability.durable().then(() => (firstDone = true));
    await Promise.resolve();
    expect(firstDone).toBe(false);
    // The second flusher takes the next waiter at once; the ten after it wait for either.
    db.prepare('INSERT INTO scratch (body) VALUES (?)').run('second');
    const second = durability.durable();
    const rest = Array.from({ length: 10 }, () => durability.durable());
    await Promise.all([first, second, ...rest]);
    expect(durability.flushes).toBe(3);

    await stop();
    expect(synchronous(db)).toBe(FULL);
    await durability.durable();
    expect(durability.flushes).toBe(4);
  });

  it('flushes while a burst of password checks runs: scrypt leaves the flushes threads of the pool', async () => {
    const db = scratchDatabase();
    const durability = new Durability(db);
    cleanups.push(durability.startFlusher(silent));
    const order: string[] = [];
    const hashes = Array.from({ length: 6 }, () => hashPassword('correct horse battery staple').then(() => order.push('hash')));
    db.prepare('INSERT INTO scratch (body) VALUES (?)').run('beside the logins');
    await durability.durable().then(() => order.push('flush'));
    await Promise.all(hashes);
    expect(order[0]).toBe('flush');
  });

  it('says a write waits from its ask until the flush that covers it ends, queued or carried', async () => {
    const db = scratchDatabase();
    const durability = new Durability(db);
    expect(durability.awaited()).toBe(false);
    cleanups.push(durability.startFlusher(silent));
    expect(durability.awaited()).toBe(false);

    db.prepare('INSERT INTO scratch (body) VALUES (?)').run('carried');
    const carried = [durability.durable()];
    expect(durability.awaited()).toBe(true);
    carried.push(durability.durable());
    // Both flushers run now; this one waits for either to end.
    const queued = durability.durable();
    expect(durability.awaited()).toBe(true);
    await Promise.all([...carried, queued]);
    expect(durability.awaited()).toBe(false);
  });

  it('refuses the waiters of a flush that failed, and the commits sync themselves from then on', async () => {
    const db = scratchDatabase();
    const durability = new Durability(db);
    const failures: string[] = [];
    cleanups.push(durability.startFlusher(pino({ level: 'error' }, { write: (line: string) => failures.push(line) })));
    db.prepare('INSERT INTO scratch (body) VALUES (?)').run('before');
    await durability.durable();
    cleanups.push(makeLogUnsyncable(`${db.name}-wal`));
    db.prepare('INSERT INTO scratch (body) VALUES (?)').run('unsynced');
    await expect(durability.durable()).rejects.toThrow('the write-ahead log could not be synced');
    expect(failures.join('')).toContain('commits sync themselves again');
    expect(synchronous(db)).toBe(FULL);
    const flushes = durability.flushes;
    db.prepare('INSERT INTO scratch (body) VALUES (?)').run('synced');
    await durability.durable();
    expect(durability.flushes).toBe(flushes);
  });

  it('handed off, commits do not sync themselves and nothing waits here, until told to sync themselves', async () => {
    const db = scratchDatabase();
    const durability = new Durability(db);
    const stop = durability.handOff();
    expect(synchronous(db)).toBe(NORMAL);
    expect(durability.flushOwed).toBe(true);
    db.prepare('INSERT INTO scratch (body) VALUES (?)').run('owed');
    await durability.durable();
    expect(durability.awaited()).toBe(false);
    expect(durability.flushes).toBe(0);
    durability.syncItself();
    expect(synchronous(db)).toBe(FULL);
    expect(durability.flushOwed).toBe(false);
    await stop();
    expect(synchronous(db)).toBe(FULL);
  });

  it('without it every commit syncs itself and nothing waits', async () => {
    const db = scratchDatabase();
    const durability = new Durability(db);
    expect(synchronous(db)).toBe(FULL);
    db.prepare('INSERT INTO scratch (body) VALUES (?)').run('synced');
    await durability.durable();
    expect(durability.flushes).toBe(0);
  });
});

describe('a serving node', () => {
  it('answers a write once the log is flushed, and a read without a flush', async () => {
    const server = await startTestServer();
    cleanups.push(() => server.close());
    const durability = server.app.node.durability;
    expect(synchronous(sqliteOnly(server.app.node.db, 'this test'))).toBe(NORMAL);
    const auth = await demoPosLogin(server);
    const post = (action: string, body: unknown) => call('POST', `${server.api('enterprise')}/purchases/actions/${action}`, { headers: auth, body });
    const bill = (billId: string) => ({
      bill_id: billId,
      payment_time: '2026-11-21 09:30:00',
      currency_id: 'CZK',
      total_price: '65',
      bill_items: [{ plu_ids: [{ list_code: 'GLOBAL', code: '859000771' }], quantity: 1, price: 65, paid_amount: 65, bill_item_id: 1 }],
    });
    const sale = { store_id: DEMO_IDS.storeCentral, cashdesk_number: 1, card_number: '2000000000024' };

    const beforeReads = durability.flushes;
    for (let i = 0; i < 5; i += 1) expect((await post('accept-payment', { ...sale, payment_type: 'S', bill: bill('quote') })).status).toBe(200);
    expect(durability.flushes).toBe(beforeReads);

    const beforeWrite = durability.flushes;
    expect((await post('send-purchase', { ...sale, bill: bill('durable-1') })).status).toBe(201);
    expect(durability.flushes).toBeGreaterThan(beforeWrite);

    const beforeRefusal = durability.flushes;
    const again = await post('send-purchase', { ...sale, bill: bill('durable-1') });
    expect(again.status).toBe(400);
    expect(durability.flushes).toBeGreaterThan(beforeRefusal);

    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toContain(`loyaltyd_wal_flushes_total ${durability.flushes}`);
  });
});
