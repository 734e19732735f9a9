/**
 * The cash desk's products by plu id, kept in memory (src/features/checkout/product-matches.ts),
 * must answer as the query does after any write: one through this node's write path, and
 * one another process made on the same database file (`loyaltyd import`), which the node
 * only learns of from SQLite.
 */
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { CheckoutRepo } from '../../../src/features/checkout/checkout.repo.js';
import { ProductMatches } from '../../../src/features/checkout/product-matches.js';
import { databaseFile } from '../../../src/root/node.js';
import { tempNode } from '../../support/temp-node.js';
import { id } from '../../support/ids.js';

const GROUP = id(0xc1, 1);

const { node, dataDir } = tempNode('loyaltyd-product-matches-');
const repo = new CheckoutRepo(node.db);
/** Another process's connection to the same file. */
const other = new Database(databaseFile(dataDir));
afterAll(() => other.close());

node.writes.write(null, (tx) => tx.insert('product_groups', { id: GROUP, name: 'Coffee' }));

function addProduct(n: number, code: string, listCode = 'GLOBAL'): string {
  const productId = id(0xc2, n);
  node.writes.write(null, (tx) => {
    tx.insert('products', { id: productId, name: `Product ${n}`, product_group_id: GROUP });
    tx.insert('product_external_ids', { id: id(0xc3, n), product_id: productId, list_code: listCode, code });
  });
  return productId;
}

describe('products by plu id in memory', () => {
  it('answers as the query does, also for a plu id no product has, and asks SQLite once per plu id', () => {
    const productId = addProduct(1, 'A1');
    const matches = new ProductMatches(repo, node.writes);
    const query = vi.spyOn(repo, 'productByPluId');
    for (let call = 0; call < 3; call += 1) {
      const match = matches.lookup();
      expect(match('GLOBAL', 'A1')).toEqual({ id: productId, product_group_id: GROUP, product_brand_id: null });
      expect(match('GLOBAL', 'nothing')).toBeUndefined();
      expect(match('EAN', 'A1')).toBeUndefined();
    }
    expect(query).toHaveBeenCalledTimes(3);
    query.mockRestore();
  });

  it('keeps list code and code apart, whatever characters they hold', () => {
    const productId = addProduct(2, 'C', 'AB');
    const match = new ProductMatches(repo, node.writes).lookup();
    expect(match('AB', 'C')?.id).toBe(productId);
    expect(match('A', 'BC')).toBeUndefined();
  });

  it('sees products and plu ids written through the write path', () => {
    const matches = new ProductMatches(repo, node.writes);
    expect(matches.lookup()('GLOBAL', 'W1')).toBeUndefined();
    const productId = addProduct(3, 'W1');
    expect(matches.lookup()('GLOBAL', 'W1')?.id).toBe(productId);
    expect(matches.lookup()('GLOBAL', 'W2')).toBeUndefined();
    // A plu id alone, then a product alone.
    node.writes.write(null, (tx) => tx.insert('product_external_ids', { id: id(0xc4, 3), product_id: productId, list_code: 'GLOBAL', code: 'W2' }));
    expect(matches.lookup()('GLOBAL', 'W2')?.id).toBe(productId);
    expect(matches.lookup()('GLOBAL', 'W1')?.id).toBe(productId);
    node.writes.write(null, (tx) => tx.update('products', productId, { state: 0 }));
    expect(matches.lookup()('GLOBAL', 'W1')).toBeUndefined();
  });

  it('sees products and plu ids written by another connection to the same file', () => {
    const productId = addProduct(4, 'O1');
    const matches = new ProductMatches(repo, node.writes);
    expect(matches.lookup()('GLOBAL', 'O1')?.id).toBe(productId);
    other.prepare('UPDATE product_external_ids SET code = ? WHERE id = ?').run('O2', id(0xc3, 4));
    expect(matches.lookup()('GLOBAL', 'O1')).toBeUndefined();
    expect(matches.lookup()('GLOBAL', 'O2')?.id).toBe(productId);
    other.prepare('UPDATE products SET product_group_id = NULL WHERE id = ?').run(productId);
    expect(matches.lookup()('GLOBAL', 'O2')?.product_group_id).toBeNull();
  });

  it('keeps at most its capacity of plu ids, forgetting them all when full', () => {
    const matches = new ProductMatches(repo, node.writes, 3);
    const query = vi.spyOn(repo, 'productByPluId');
    const match = matches.lookup();
    for (const code of ['K1', 'K2', 'K3', 'K1', 'K2', 'K3']) match('GLOBAL', code);
    expect(query).toHaveBeenCalledTimes(3);
    match('GLOBAL', 'K4');
    match('GLOBAL', 'K4');
    match('GLOBAL', 'K1');
    expect(query).toHaveBeenCalledTimes(5);
    query.mockRestore();
  });
});
