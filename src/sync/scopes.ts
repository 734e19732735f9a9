/**
 * Every replicated table belongs to one scope (DESIGN §5, "Scopes, compaction, retention"),
 * which decides which nodes hold its rows:
 *
 * - `chain`: master data. The hub and every store hold all of it.
 * - `customer-state`: what a customer holds now, folded by the hub from the facts and
 *   published as last-writer-wins rows whose coverage — a horizon stamp, the watermark of
 *   every origin node at once, and the later facts by id (src/loyalty/CONTEXT.md) — says
 *   which facts they hold. Every node holds all of it; a store adds its own facts they do not.
 * - `origin`: facts, made at one node. The hub holds all; a store holds the ones it made,
 *   until they are acknowledged and older than `retention.local_days`. The feed and the
 *   snapshot send a store none.
 *
 * A table missing here fails the test of this list (test/unit/scopes.test.ts), so a new
 * table is placed on purpose.
 */
export type Scope = 'chain' | 'customer-state' | 'origin';

export const SCOPES: Readonly<Record<string, Scope>> = {
  external_applications: 'chain',
  users: 'chain',
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
  // A customer app's token (its session once the customer logs in) is master data: the app
  // talks to whichever node is near, so every node must know the session.
  tokens: 'chain',
  recommendation_neighbours: 'chain',
  recommendation_customers: 'chain',
  recommendation_best_sellers: 'chain',
  recommendation_coverage: 'chain',
  vouchers: 'customer-state',
  customer_states: 'customer-state',
  // A voucher's applications are its used state until the hub publishes that state itself
  // (issue 17, the next step): until then they reach every store, few as they are.
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
  // A six-digit login code is used where it was asked for, within minutes.
  auth_tokens: 'origin',
};

export function scopeOf(table: string): Scope | undefined {
  return Object.hasOwn(SCOPES, table) ? SCOPES[table] : undefined;
}

/** Whether a store holds rows of this table that other nodes made. */
export function reachesStores(table: string): boolean {
  return scopeOf(table) !== 'origin';
}
