/**
 * Every replicated table belongs to one scope (DESIGN §5, "Scopes, compaction, retention"),
 * which decides which nodes hold its rows:
 *
 * - `chain`: master data. The hub and every store hold all of it.
 * - `store`: what belongs to one store: its POS users (`users.store_id`). The hub holds all; a
 *   store the rows of the stores its node serves (`node_stores`), and none of head office's.
 * - `customer-state`: what a customer holds now, folded by the hub from the facts and
 *   published as last-writer-wins rows whose coverage — a horizon stamp, the watermark of
 *   every origin node at once, and the later facts by id (src/loyalty/CONTEXT.md) — says
 *   which facts they hold. Every node holds all of it; a store adds its own facts they do not.
 * - `origin`: facts, made at one node. The hub holds all; a store holds the ones it made,
 *   until they are acknowledged and older than `retention.local_days`. The feed and the
 *   snapshot send a store none.
 *
 * A table missing here fails the test of this list (test/sync/protocol/scopes.test.ts), so a new
 * table is placed on purpose.
 */
import type { Db } from '../../db/open.js';
import { tableColumns } from '../replicated-tables.js';

export type Scope = 'chain' | 'store' | 'customer-state' | 'origin';

export const SCOPES: Readonly<Record<string, Scope>> = {
  external_applications: 'chain',
  users: 'store',
  api_users: 'chain',
  customers: 'chain',
  cards: 'chain',
  customer_source_records: 'chain',
  stores: 'chain',
  store_property_records: 'chain',
  store_groups: 'chain',
  store_group_records: 'chain',
  product_groups: 'chain',
  product_brands: 'chain',
  products: 'chain',
  product_external_ids: 'chain',
  purchase_item_types: 'chain',
  campaigns: 'chain',
  campaign_products: 'chain',
  campaign_product_store_records: 'chain',
  program_rules: 'chain',
  rewards: 'chain',
  product_reservation_sources: 'chain',
  event_groups: 'chain',
  event_properties: 'chain',
  recommendation_neighbours: 'chain',
  recommendation_customers: 'chain',
  recommendation_best_sellers: 'chain',
  recommendation_coverage: 'chain',
  vouchers: 'customer-state',
  customer_states: 'customer-state',
  // A voucher's applications are its used state until the hub publishes that state itself
  // (the next step): until then they reach every store, few as they are.
  voucher_applications: 'customer-state',
  // A cancellation's release of a voucher's application travels with the applications it folds with.
  voucher_releases: 'customer-state',
  purchases: 'origin',
  purchase_items: 'origin',
  purchase_assignments: 'origin',
  point_records: 'origin',
  credit_records: 'origin',
  events: 'origin',
  event_property_records: 'origin',
  orders: 'origin',
  product_reservations: 'origin',
  reservation_codes: 'origin',
  reservation_state_changes: 'origin',
  // A customer app's token stays at the node that made it; the session the hub makes for it
  // reaches that node alone, in the hub's answer to its login (src/sync/store/hub-sessions.ts).
  tokens: 'origin',
  // A login code is made and used at the hub, within minutes.
  auth_tokens: 'origin',
};

/**
 * Columns of shared tables that stay on the hub: a store is sent each row without them.
 * Credentials stay at the hub (DESIGN §5): customer-app logins run there, so no store holds a
 * customer's password hash. The deprecated hourly Basic scheme's
 * unsalted md5 of a user's password is all it takes to build that header for any hour, so it is
 * kept where it cannot be carried out of a store: the scheme works at the hub (and a store
 * without one), a store's POS logs in for a Bearer token instead.
 */
export const HUB_ONLY_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  users: ['legacy_basic_md5'],
  customers: ['password_hash'],
};

export function hubOnlyColumns(table: string): readonly string[] {
  return Object.hasOwn(HUB_ONLY_COLUMNS, table) ? HUB_ONLY_COLUMNS[table]! : [];
}

/**
 * A store that has a hub forgets the hub-only values it holds: those a hub of an older
 * version sent it, and those it had before it was joined to a hub. Not a change to sync: the
 * hub keeps them.
 */
export function forgetHubOnlyColumns(db: Db): void {
  const columnsOf = tableColumns(db);
  for (const [table, columns] of Object.entries(HUB_ONLY_COLUMNS)) {
    const present = columnsOf(table);
    const held = columns.filter((column) => present.includes(column));
    if (held.length === 0) continue;
    db.prepare(
      `UPDATE ${table} SET ${held.map((column) => `${column} = NULL`).join(', ')} WHERE ${held.map((column) => `${column} IS NOT NULL`).join(' OR ')}`,
    ).run();
  }
}

/** The column naming the store of each table of the `store` scope; a row naming none is head office's. */
export const STORE_COLUMNS: Readonly<Record<string, string>> = { users: 'store_id' };

/**
 * A SQL condition, for the row of `table` whose columns `columnOf` reads, that the node bound
 * as the statement's `@node` parameter holds it: always, but for a table of the `store` scope,
 * whose row it holds when it names a store the node serves.
 */
export function heldByNodeSql(table: string, columnOf: (column: string) => string): string {
  if (scopeOf(table) !== 'store') return 'true';
  return `${columnOf(STORE_COLUMNS[table]!)} IN (SELECT store_id FROM node_stores WHERE node_id = @node)`;
}

export function scopeOf(table: string): Scope | undefined {
  return Object.hasOwn(SCOPES, table) ? SCOPES[table] : undefined;
}

/** Whether a store holds rows of this table that other nodes made. */
export function reachesStores(table: string): boolean {
  return scopeOf(table) !== 'origin';
}

/** Whether every store holds all of this table's rows, as the hub does. */
export function heldWhole(table: string): boolean {
  const scope = scopeOf(table);
  return scope === 'chain' || scope === 'customer-state';
}
