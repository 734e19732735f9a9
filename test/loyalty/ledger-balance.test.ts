/**
 * The cash desk reads a customer's balances from customer_ledgers (migrations 0006, 0009), a
 * row that triggers derive from their point and credit records the customer's published
 * state does not cover — on a store with a hub that has published no state of them, all of
 * them. For any records, however written — through this node's write path, or by another
 * process on the same file, which cancels, deletes or moves records to another customer — and
 * at any moment, they must be the balances of the records themselves, folded from scratch
 * (test/support/ledger-oracle.ts). So must the rows migrations 0006 and 0009 derive from a
 * database an older release left, and so must a customer's row past the facts it lists, which
 * sends the reader to the records (migration 16).
 *
 * A store without a hub publishes its own customers' states in its writes, as the hub does
 * (src/loyalty/customer-states.ts): there, the balances of records written and changed
 * through its write path, one write after another, must be the records' balances too.
 */
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import { MIGRATIONS } from '../../src/db/migrations/index.js';
import { openDatabase } from '../../src/db/open.js';
import { BalanceReader } from '../../src/loyalty/balance-reader.js';
import { databaseFile } from '../../src/root/node.js';
import { tempDir } from '../support/server.js';
import { tempNode } from '../support/temp-node.js';
import { foldedPoints, summedCredit } from '../support/ledger-oracle.js';
import { id } from '../support/ids.js';
import type { Node } from '../../src/root/node.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const CUSTOMERS = [id(0xf1, 1), id(0xf1, 2)];

const { node, dataDir } = tempNode('loyaltyd-ledger-balance-', 'store with a hub');
/** Another process's connection to the same file (`loyaltyd import`, an operator's sqlite3). */
const other = new Database(databaseFile(dataDir));
afterAll(() => other.close());

/** A customer who never has a record. */
const WITHOUT_RECORDS = id(0xf1, 3);
/** Each customer's active card, by customer. */
const CARDS = new Map([...CUSTOMERS, WITHOUT_RECORDS].map((customer, n) => [customer, `L${n + 1}`]));

function addCustomers(target: Node): void {
  target.writes.write(null, (tx) => {
    for (const customer of [...CUSTOMERS, WITHOUT_RECORDS]) tx.insert('customers', { id: customer, first_name: 'Ledger' });
    [...CARDS].forEach(([customer, cardNumber], n) =>
      tx.insert('cards', { id: id(0xf4, n), customer_id: customer, card_number: cardNumber, state: 1 }),
    );
    tx.insert('cards', { id: id(0xf4, 99), customer_id: CUSTOMERS[0]!, card_number: 'L-blocked', state: 0 });
  });
}
addCustomers(node);

const pointRecord = fc.record({
  kind: fc.constantFrom('collection', 'redemption'),
  points_milli: fc.integer({ min: 0, max: 50_000 }),
  validDays: fc.option(fc.integer({ min: -30, max: 60 })),
  createdDay: fc.integer({ min: -60, max: 30 }),
  state: fc.constantFrom(0, 1, 1, 1),
  customer: fc.constantFrom(...CUSTOMERS),
});
const creditRecord = fc.record({
  kind: fc.constantFrom('collection', 'redemption'),
  amount_minor: fc.integer({ min: 0, max: 50_000 }),
  state: fc.constantFrom(0, 1, 1, 1),
  customer: fc.constantFrom(...CUSTOMERS),
});
/** What another process then does to the n-th record of a table (modulo their count). */
const otherWrite = fc.record({
  table: fc.constantFrom('point_records', 'credit_records'),
  n: fc.nat(),
  change: fc.constantFrom(
    'UPDATE %t SET state = 0 WHERE id = ?',
    'UPDATE %t SET state = 1 WHERE id = ?',
    'DELETE FROM %t WHERE id = ?',
    `UPDATE %t SET customer_id = CASE customer_id WHEN '${CUSTOMERS[0]}' THEN '${CUSTOMERS[1]}' ELSE '${CUSTOMERS[0]}' END WHERE id = ?`,
  ),
});

const everyId = (table: string) => node.db.prepare<[], string>(`SELECT id FROM ${table} ORDER BY id`).pluck();
const pointIds = everyId('point_records');
const creditIds = everyId('credit_records');

type Drawn<A> = A extends fc.Arbitrary<infer T> ? T : never;

let next = 0;
const pointRow = (r: Drawn<typeof pointRecord>, day0 = T0) => ({
  id: id(0xf2, (next += 1)),
  customer_id: r.customer,
  kind: r.kind,
  points_milli: r.points_milli,
  valid_to: r.kind === 'collection' && r.validDays !== null ? new Date(day0 + r.validDays * DAY).toISOString() : null,
  created_at: new Date(day0 + r.createdDay * DAY).toISOString(),
  state: r.state,
});
const creditRow = (r: Drawn<typeof creditRecord>) => ({
  id: id(0xf3, (next += 1)),
  customer_id: r.customer,
  kind: r.kind,
  amount_minor: r.amount_minor,
  created_at: new Date(T0).toISOString(),
  state: r.state,
});

function writeRecords(points: Drawn<typeof pointRecord>[], credits: Drawn<typeof creditRecord>[]): void {
  node.writes.write(null, (tx) => {
    for (const old of pointIds.all()) tx.remove('point_records', old);
    for (const old of creditIds.all()) tx.remove('credit_records', old);
    for (const r of points) tx.insert('point_records', pointRow(r));
    for (const r of credits) tx.insert('credit_records', creditRow(r));
  });
}

describe('the balances the cash desk reads', () => {
  const reader = new BalanceReader(node.db);

  it('are the records’ balances for any records, written by anyone, at any moment', () => {
    fc.assert(
      fc.property(
        fc.array(pointRecord, { maxLength: 10 }),
        fc.array(creditRecord, { maxLength: 4 }),
        fc.array(otherWrite, { maxLength: 3 }),
        fc.integer({ min: -10, max: 90 }),
        (pointRecords, creditRecords, otherWrites, atDay) => {
          writeRecords(pointRecords, creditRecords);
          for (const write of otherWrites) {
            const ids = (write.table === 'point_records' ? pointIds : creditIds).all();
            if (ids.length > 0) other.prepare(write.change.replace('%t', write.table)).run(ids[write.n % ids.length]);
          }
          const at = T0 + atDay * DAY;
          for (const customer of CUSTOMERS) {
            const balances = { pointsMilli: foldedPoints(node.db, customer, at), creditMinor: summedCredit(node.db, customer) };
            expect(reader.balancesAt(customer, at)).toEqual(balances);
            expect(reader.cardHolder(CARDS.get(customer)!, at)).toEqual({ customerId: customer, balances });
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('are the records’ balances when a customer has more facts than their row lists, and the row then sends the reader to the records', () => {
    const lists = node.db.prepare<[string], { point_facts: string; credit_facts: string }>(
      'SELECT point_facts, credit_facts FROM customer_ledgers WHERE customer_id = ?',
    );
    // A state that covers nothing (the hub's first, before any store reported): publishing it
    // lists the customer's facts again, so that a run begins with a list or with the records.
    const publishEmptyState = other.prepare(
      `INSERT OR REPLACE INTO customer_states (id, horizon, lots, debt_milli, tail, credit_minor, credit_tail, hlc, last_change)
       VALUES (?, '', '[]', 0, '[]', 0, '[]', '000000000000-0000-test', '2026-01-01')`,
    );
    const modes = new Set<string>();
    fc.assert(
      fc.property(
        fc.array(pointRecord, { maxLength: 260, size: 'max' }),
        fc.array(creditRecord, { maxLength: 260, size: 'max' }),
        fc.array(otherWrite, { maxLength: 3 }),
        fc.integer({ min: -10, max: 90 }),
        (pointRecords, creditRecords, otherWrites, atDay) => {
          writeRecords(pointRecords, creditRecords);
          for (const customer of CUSTOMERS) publishEmptyState.run(customer);
          for (const write of otherWrites) {
            const ids = (write.table === 'point_records' ? pointIds : creditIds).all();
            if (ids.length > 0) other.prepare(write.change.replace('%t', write.table)).run(ids[write.n % ids.length]);
          }
          const at = T0 + atDay * DAY;
          for (const customer of CUSTOMERS) {
            const row = lists.get(customer);
            if (row) for (const list of [row.point_facts, row.credit_facts]) modes.add(list === 'records' ? 'records' : 'listed');
            const balances = { pointsMilli: foldedPoints(node.db, customer, at), creditMinor: summedCredit(node.db, customer) };
            expect(reader.balancesAt(customer, at)).toEqual(balances);
            expect(reader.cardHolder(CARDS.get(customer)!, at)).toEqual({ customerId: customer, balances });
          }
        },
      ),
      { numRuns: 60 },
    );
    // Both ways of reading were met: a list, and the records past 64 facts.
    expect(modes).toEqual(new Set(['listed', 'records']));
  });

  it('are zero for a customer who never had a record', () => {
    expect(reader.balancesAt(id(0xf1, 99), T0)).toEqual({ pointsMilli: 0, creditMinor: 0 });
    expect(reader.cardHolder(CARDS.get(WITHOUT_RECORDS)!, T0)).toEqual({
      customerId: WITHOUT_RECORDS,
      balances: { pointsMilli: 0, creditMinor: 0 },
    });
  });

  it('have no holder for a card number no active card has', () => {
    expect(reader.cardHolder('L-blocked', T0)).toBeUndefined();
    expect(reader.cardHolder('L-unknown', T0)).toBeUndefined();
  });
});

describe('the balances at a store without a hub', () => {
  const { node: alone } = tempNode('loyaltyd-ledger-alone-', 'store');
  addCustomers(alone);
  const reader = new BalanceReader(alone.db);
  const aloneIds = (table: string) => alone.db.prepare<[], string>(`SELECT id FROM ${table} ORDER BY id`).pluck();
  /** What its own write path then does to the n-th record of a table (modulo their count). Records are otherwise insert-only. */
  const ownChange = fc.record({
    table: fc.constantFrom('point_records' as const, 'credit_records' as const),
    n: fc.nat(),
    change: fc.constantFrom('cancel', 'restore'),
  });

  // Its states are folded up to its newest stamp, now: days count from today. A state drops
  // lots that expired a week before its horizon (src/loyalty/customer-states.ts), so a record's
  // moment is at most six days before the write that makes it, as a bill's is, and so is the
  // moment a balance is read at.
  const today = Math.floor(Date.now() / DAY) * DAY;
  const written = (r: Drawn<typeof pointRecord>) => pointRow({ ...r, createdDay: Math.max(r.createdDay, -6) }, today);

  it('are the records’ balances for records written and changed through its write path, one write after another', () => {
    let foldedFromStates = 0;
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            pointRecord.map((r) => ({ point: r })),
            creditRecord.map((r) => ({ credit: r })),
          ),
          { maxLength: 12 },
        ),
        fc.array(ownChange, { maxLength: 3 }),
        fc.integer({ min: -10, max: 90 }),
        (records, changes, atDay) => {
          // A run starts from no records and no states: records are never deleted in service, so their states are deleted with them.
          alone.writes.write(null, (tx) => {
            for (const old of aloneIds('point_records').all()) tx.remove('point_records', old);
            for (const old of aloneIds('credit_records').all()) tx.remove('credit_records', old);
            for (const customer of CUSTOMERS) tx.remove('customer_states', customer);
          });
          for (const record of records) {
            alone.writes.write(null, (tx) => {
              if ('point' in record) tx.insert('point_records', written(record.point));
              else tx.insert('credit_records', creditRow(record.credit));
            });
          }
          for (const { table, n, change } of changes) {
            const ids = aloneIds(table).all();
            if (ids.length === 0) continue;
            const target = ids[n % ids.length]!;
            alone.writes.write(null, (tx) => tx.update(table, target, { state: change === 'cancel' ? 0 : 1 }));
          }
          const at = today + Math.max(atDay, -6) * DAY;
          if (alone.db.prepare<[], number>("SELECT count(*) FROM customer_states WHERE lots <> '[]'").pluck().get()! > 0) foldedFromStates += 1;
          for (const customer of CUSTOMERS) {
            const balances = { pointsMilli: foldedPoints(alone.db, customer, at), creditMinor: summedCredit(alone.db, customer) };
            expect(reader.balancesAt(customer, at)).toEqual(balances);
            expect(reader.cardHolder(CARDS.get(customer)!, at)).toEqual({ customerId: customer, balances });
          }
        },
      ),
      { numRuns: 150 },
    );
    // The balances were read from states it published, not from its records alone.
    expect(foldedFromStates).toBeGreaterThan(0);
  });
});

describe('migrations 0006, 0009 and 0016', () => {
  it('derives every customer’s row from the records an older release left', () => {
    const folder = tempDir('loyaltyd-ledger-migration-');
    const db = openDatabase(databaseFile(folder));
    try {
      migrate(
        db,
        MIGRATIONS.filter((migration) => migration.version < 6),
      );
      const stamp = (n: number) => `0000000000${n.toString().padStart(2, '0')}-0000-test`;
      const customer = db.prepare("INSERT INTO customers (id, first_name, hlc, last_change) VALUES (?, 'Old', ?, '2026-01-01')");
      const point = db.prepare(
        `INSERT INTO point_records (id, customer_id, kind, points_milli, valid_to, created_at, state, hlc, last_change)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, '2026-01-01')`,
      );
      const credit = db.prepare(
        `INSERT INTO credit_records (id, customer_id, kind, amount_minor, created_at, state, hlc, last_change)
         VALUES (?, ?, ?, ?, '2026-01-01', ?, ?, '2026-01-01')`,
      );
      const [a, b, c, d] = [id(0xf4, 1), id(0xf4, 2), id(0xf4, 3), id(0xf4, 4)];
      for (const [n, who] of [a, b, c, d].entries()) customer.run(who, stamp(n));
      // a: 100 points valid to day 10, a later 30 valid to day 40; 50 redeemed on day 5
      // (from the first, which expires first); a canceled 1,000 that counts for nothing.
      point.run(id(0xf5, 1), a, 'collection', 100_000, new Date(T0 + 10 * DAY).toISOString(), new Date(T0).toISOString(), 1, stamp(1));
      point.run(id(0xf5, 2), a, 'redemption', 50_000, null, new Date(T0 + 5 * DAY).toISOString(), 1, stamp(3));
      point.run(id(0xf5, 3), a, 'collection', 30_000, new Date(T0 + 40 * DAY).toISOString(), new Date(T0 + 6 * DAY).toISOString(), 1, stamp(4));
      point.run(id(0xf5, 4), a, 'collection', 1_000_000, null, new Date(T0).toISOString(), 0, stamp(2));
      // b: credit only, 120.00 in and 20.50 out; c: nothing.
      credit.run(id(0xf6, 1), b, 'collection', 12_000, 1, stamp(5));
      credit.run(id(0xf6, 2), b, 'redemption', 2_050, 1, stamp(6));
      // d: 70 points a point, more than a row lists: migration 16 sends the reader to the records.
      for (let n = 0; n < 70; n += 1) point.run(id(0xf7, n), d, 'collection', 1_000, null, new Date(T0).toISOString(), 1, stamp(10 + n));

      expect(
        migrate(
          db,
          MIGRATIONS.filter((migration) => migration.version <= 6),
        ).applied,
      ).toEqual(['0006-customer-ledgers']);
      migrate(db);
      const reader = new BalanceReader(db);
      // Day 7: 50 left of the first, 30 of the second. Day 20: the first has expired.
      expect(reader.balancesAt(a, T0 + 7 * DAY)).toEqual({ pointsMilli: 80_000, creditMinor: 0 });
      expect(reader.balancesAt(a, T0 + 20 * DAY)).toEqual({ pointsMilli: 30_000, creditMinor: 0 });
      expect(reader.balancesAt(b, T0)).toEqual({ pointsMilli: 0, creditMinor: 9_950 });
      expect(reader.balancesAt(c, T0)).toEqual({ pointsMilli: 0, creditMinor: 0 });
      expect(reader.balancesAt(d, T0)).toEqual({ pointsMilli: 70_000, creditMinor: 0 });
      const lists = db.prepare('SELECT customer_id, point_facts FROM customer_ledgers ORDER BY customer_id').all() as {
        customer_id: string;
        point_facts: string;
      }[];
      expect(lists.map((row) => [row.customer_id, row.point_facts === 'records' ? 'records' : JSON.parse(row.point_facts).length])).toEqual([
        [a, 3],
        [b, 0],
        [d, 'records'],
      ]);
      for (const at of [T0, T0 + 7 * DAY, T0 + 20 * DAY, T0 + 50 * DAY]) {
        expect(reader.balancesAt(a, at).pointsMilli).toBe(foldedPoints(db, a, at));
      }
    } finally {
      db.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
