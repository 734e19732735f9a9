/**
 * Catalogue rows the API only reads (products, their groups, brands and external ids,
 * purchase item types, store groups), written through the node's one write path.
 */
import type { TestServer } from './server.js';

export interface ProductFixture {
  name: string;
  code?: string | null;
  /** External ids per list code, e.g. `{ GLOBAL: ['8590001'], EAN: ['4006381333931'] }`. */
  externalIds?: Record<string, string[]>;
  product_group_id?: string | null;
  product_brand_id?: string | null;
  additional_properties?: { property_id: string; property_name: string; property_value: unknown; last_change?: string | null }[];
  state?: number;
}

export function insertProduct(server: TestServer, product: ProductFixture): string {
  const { node } = server.app;
  const id = node.newId();
  node.writes.write(null, (tx) => {
    tx.insert('products', {
      id,
      name: product.name,
      code: product.code ?? null,
      product_group_id: product.product_group_id ?? null,
      product_brand_id: product.product_brand_id ?? null,
      additional_properties: JSON.stringify(product.additional_properties ?? []),
      state: product.state ?? 1,
    });
    for (const [listCode, codes] of Object.entries(product.externalIds ?? {})) {
      for (const code of codes) tx.insert('product_external_ids', { id: node.newId(), product_id: id, list_code: listCode, code });
    }
  });
  return id;
}

export interface ProductGroupFixture {
  name: string;
  parent_id?: string | null;
  code?: string | null;
  external_id?: string | null;
  store_id?: string | null;
}

export function insertProductGroup(server: TestServer, group: ProductGroupFixture): string {
  const id = server.app.node.newId();
  server.app.node.writes.write(null, (tx) =>
    tx.insert('product_groups', {
      id,
      name: group.name,
      parent_id: group.parent_id ?? null,
      code: group.code ?? null,
      external_id: group.external_id ?? null,
      store_id: group.store_id ?? null,
      state: 1,
    }),
  );
  return id;
}

export function insertProductBrand(server: TestServer, name: string, externalId: string | null = null): string {
  const id = server.app.node.newId();
  server.app.node.writes.write(null, (tx) => tx.insert('product_brands', { id, name, external_id: externalId, state: 1 }));
  return id;
}

export function insertPurchaseItemType(server: TestServer, name: string): string {
  const id = server.app.node.newId();
  server.app.node.writes.write(null, (tx) => tx.insert('purchase_item_types', { id, name }));
  return id;
}

export function insertStoreGroup(server: TestServer, name: string): string {
  const id = server.app.node.newId();
  server.app.node.writes.write(null, (tx) => tx.insert('store_groups', { id, name }));
  return id;
}

export function insertStoreGroupRecord(server: TestServer, storeId: string, storeGroupId: string): string {
  const id = server.app.node.newId();
  server.app.node.writes.write(null, (tx) => tx.insert('store_group_records', { id, store_id: storeId, store_group_id: storeGroupId }));
  return id;
}
