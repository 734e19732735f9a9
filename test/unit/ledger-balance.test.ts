/**
 * The cash desk reads a customer's balance alone (readBalance), from fewer columns of their
 * point records than readLedger reads. For any records, at any moment, it must be
 * readLedger's balance.
 */
import fc from 'fast-check';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { PointsRepo } from '../../src/features/points/points.repo.js';
import { readBalance, readLedger } from '../../src/loyalty/ledger.js';
import { openNode } from '../../src/node.js';
import { tempDir } from '../support/server.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const id = (prefix: number, n: number) => `${prefix.toString(16).padStart(2, '0')}${n.toString(16).padStart(24, '0')}`;
const CUSTOMER = id(0xf1, 1);

const dataDir = tempDir('loyaltyd-ledger-balance-');
const node = openNode({ data_dir: dataDir, mode: 'hub' }, () => T0);
const points = new PointsRepo(node.db);
afterAll(() => {
  node.close();
  rmSync(dataDir, { recursive: true, force: true });
});

node.writes.write(null, (tx) => tx.insert('customers', { id: CUSTOMER, first_name: 'Ledger' }));
const everyRecord = node.db.prepare<[string], string>('SELECT id FROM point_records WHERE customer_id = ?').pluck();

const record = fc.record({
  kind: fc.constantFrom('collection', 'redemption'),
  points_milli: fc.integer({ min: 0, max: 50_000 }),
  validDays: fc.option(fc.integer({ min: -30, max: 60 })),
  createdDay: fc.integer({ min: -60, max: 30 }),
  state: fc.constantFrom(0, 1, 1, 1),
});

describe('the balance alone', () => {
  it('is the ledger balance for any point records at any moment', () => {
    let next = 0;
    fc.assert(
      fc.property(fc.array(record, { maxLength: 10 }), fc.integer({ min: -10, max: 90 }), (records, atDay) => {
        node.writes.write(null, (tx) => {
          for (const old of everyRecord.all(CUSTOMER)) tx.remove('point_records', old);
          for (const r of records) {
            tx.insert('point_records', {
              id: id(0xf2, (next += 1)),
              customer_id: CUSTOMER,
              kind: r.kind,
              points_milli: r.points_milli,
              valid_to: r.kind === 'collection' && r.validDays !== null ? new Date(T0 + r.validDays * DAY).toISOString() : null,
              created_at: new Date(T0 + r.createdDay * DAY).toISOString(),
              state: r.state,
            });
          }
        });
        const at = T0 + atDay * DAY;
        expect(readBalance(points, CUSTOMER, at)).toBe(readLedger(points, CUSTOMER, at).balance);
      }),
      { numRuns: 300 },
    );
  });
});
