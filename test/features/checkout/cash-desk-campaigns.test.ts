/**
 * Campaign prices at the cash desk held in memory (src/features/checkout/cash-desk-campaigns.ts)
 * must price every product, at every moment, in every store, as the query per product the
 * checkout ran before did — kept here as the reference — including a campaign whose
 * display_in SQLite cannot read; and must see writes through the write path and writes
 * another process made on the same file.
 */
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { CashDeskCampaigns } from '../../../src/features/checkout/cash-desk-campaigns.js';
import { CheckoutRepo } from '../../../src/features/checkout/checkout.repo.js';
import type { CampaignPrice } from '../../../src/loyalty/pricing.js';
import { databaseFile } from '../../../src/root/node.js';
import { tempNode } from '../../support/temp-node.js';
import { id } from '../../support/ids.js';

const PRODUCTS = [1, 2, 3].map((n) => id(0xd1, n));
const STORES = [1, 2].map((n) => id(0xd2, n));
const INSTANTS = ['2026-01-01T00:00:00.000Z', '2026-06-01T00:00:00.000Z', '2026-06-01T00:00:00.001Z', '2027-01-01T00:00:00.000Z'];
const DISPLAYS = ['["cash desk"]', '["web","cash_desk"]', '["web"]', '[]', "['cash desk']", '"cash desk"', 'nope'];

const { node, dataDir } = tempNode('loyaltyd-campaigns-');
const repo = new CheckoutRepo(node.db);
const other = new Database(databaseFile(dataDir));
afterAll(() => other.close());

node.writes.write(null, (tx) => {
  for (const store of STORES) tx.insert('stores', { id: store, store_code: store.slice(-2), name: store });
  for (const product of PRODUCTS) tx.insert('products', { id: product, name: product });
});

/** The checkout's query per product before the campaigns were held in memory. */
const perProduct = node.db.prepare<[string, string, string, string], CampaignPrice>(
  `SELECT c.value_minor, c.value_type_id FROM campaign_products c
   WHERE c.product_id = ? AND c.state = 1 AND (c.valid_from IS NULL OR c.valid_from <= ?) AND (c.valid_to IS NULL OR c.valid_to >= ?)
     AND EXISTS (SELECT 1 FROM json_each(c.display_in) d WHERE d.value IN ('cash desk', 'cash_desk'))
     AND (NOT EXISTS (SELECT 1 FROM campaign_product_store_records s WHERE s.campaign_product_id = c.id)
          OR EXISTS (SELECT 1 FROM campaign_product_store_records s WHERE s.campaign_product_id = c.id AND s.store_id = ?))
   ORDER BY c.id LIMIT 1`,
);

function outcome(price: () => CampaignPrice | undefined): { value_minor: number; value_type_id: number } | 'none' | 'fails' {
  try {
    const found = price();
    return found ? { value_minor: found.value_minor, value_type_id: found.value_type_id } : 'none';
  } catch {
    return 'fails';
  }
}

const campaign = fc.record({
  n: fc.integer({ min: 0, max: 40 }),
  product: fc.constantFrom(...PRODUCTS),
  value_minor: fc.integer({ min: 0, max: 10_000 }),
  value_type_id: fc.constantFrom(1, 2),
  valid_from: fc.option(fc.constantFrom(...INSTANTS)),
  valid_to: fc.option(fc.constantFrom(...INSTANTS)),
  display_in: fc.constantFrom(...DISPLAYS),
  state: fc.constantFrom(0, 1, 1),
  stores: fc.subarray(STORES),
});

type Campaign = typeof campaign extends fc.Arbitrary<infer T> ? T : never;

function replaceCampaigns(campaigns: Campaign[]): void {
  node.writes.write(null, (tx) => {
    for (const row of node.db.prepare<[], { id: string }>('SELECT id FROM campaign_product_store_records').all())
      tx.remove('campaign_product_store_records', row.id);
    for (const row of node.db.prepare<[], { id: string }>('SELECT id FROM campaign_products').all()) tx.remove('campaign_products', row.id);
    const seen = new Set<number>();
    for (const c of campaigns) {
      if (seen.has(c.n)) continue;
      seen.add(c.n);
      const { n, product, stores, ...row } = c;
      tx.insert('campaign_products', { id: id(0xd3, n), product_id: product, ...row });
      stores.forEach((store, s) =>
        tx.insert('campaign_product_store_records', { id: id(0xd4, n * 4 + s), campaign_product_id: id(0xd3, n), store_id: store }),
      );
    }
  });
}

describe('cash-desk campaign prices in memory', () => {
  const campaigns = new CashDeskCampaigns(repo, node.writes);

  it('price every product at every moment in every store as the query per product did', () => {
    fc.assert(
      fc.property(fc.array(campaign, { maxLength: 12 }), (rows) => {
        replaceCampaigns(rows);
        const priceOf = campaigns.lookup();
        for (const product of PRODUCTS) {
          for (const at of ['2025-12-31T23:59:59.999Z', ...INSTANTS, '2028-01-01T00:00:00.000Z']) {
            for (const store of [...STORES, id(0xd2, 9)]) {
              expect(outcome(() => priceOf(product, at, store))).toEqual(outcome(() => perProduct.get(product, at, at, store)));
            }
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('see campaign products and their stores written through the write path', () => {
    replaceCampaigns([]);
    const at = INSTANTS[1]!;
    expect(campaigns.lookup()(PRODUCTS[0]!, at, STORES[0]!)).toBeUndefined();
    replaceCampaigns([
      {
        n: 1,
        product: PRODUCTS[0]!,
        value_minor: 2000,
        value_type_id: 1,
        valid_from: null,
        valid_to: null,
        display_in: '["cash desk"]',
        state: 1,
        stores: [],
      },
    ]);
    expect(campaigns.lookup()(PRODUCTS[0]!, at, STORES[0]!)).toMatchObject({ value_minor: 2000, value_type_id: 1 });
    node.writes.write(null, (tx) =>
      tx.insert('campaign_product_store_records', { id: id(0xd5, 1), campaign_product_id: id(0xd3, 1), store_id: STORES[1]! }),
    );
    expect(campaigns.lookup()(PRODUCTS[0]!, at, STORES[0]!)).toBeUndefined();
    expect(campaigns.lookup()(PRODUCTS[0]!, at, STORES[1]!)).toMatchObject({ value_minor: 2000 });
  });

  it('see campaign products and their stores written by another connection to the same file', () => {
    replaceCampaigns([
      {
        n: 2,
        product: PRODUCTS[1]!,
        value_minor: 500,
        value_type_id: 2,
        valid_from: null,
        valid_to: null,
        display_in: '["cash desk"]',
        state: 1,
        stores: [STORES[0]!],
      },
    ]);
    const at = INSTANTS[1]!;
    expect(campaigns.lookup()(PRODUCTS[1]!, at, STORES[0]!)).toMatchObject({ value_minor: 500 });
    other.prepare('UPDATE campaign_products SET value_minor = 450 WHERE id = ?').run(id(0xd3, 2));
    expect(campaigns.lookup()(PRODUCTS[1]!, at, STORES[0]!)).toMatchObject({ value_minor: 450 });
    other.prepare('DELETE FROM campaign_product_store_records WHERE campaign_product_id = ?').run(id(0xd3, 2));
    expect(campaigns.lookup()(PRODUCTS[1]!, at, STORES[1]!)).toMatchObject({ value_minor: 450 });
  });
});
