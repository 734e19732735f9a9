/**
 * Every table's columns, generated from the migrations by `npm run tables`
 * (test/tools/table-types.ts); test/unit/table-types.test.ts keeps this file equal to the schema.
 * `Tables` types writes: a write naming a column a table lacks fails `tsc`. Each `…Row` is
 * what `SELECT *` returns from its table; a repo reading fewer columns picks from it.
 */
export interface Tables {
  acknowledged_commands: {
    seq?: number | null;
    command_id: string;
    kind: string;
    payload: string;
    changes: string;
    hlc: string;
    operation: string;
    created_at: string;
    acked_at: string;
  };
  api_users: {
    id: string;
    user_name: string;
    name: string;
    state?: number;
    hlc: string;
    last_change: string;
  };
  applied_commands: {
    command_id: string;
    node_id: string;
    generation: string;
    seq: number;
    status: string;
    reason?: string | null;
    applied_at: string;
    rows?: string | null;
  };
  auth_tokens: {
    id: string;
    token_id: string;
    customer_id: string;
    external_application_id: string;
    value_hash: string;
    token_request_id: string;
    expires_at: string;
    used_at?: string | null;
    hlc: string;
    last_change: string;
  };
  campaign_product_store_records: {
    id: string;
    campaign_product_id: string;
    store_id: string;
    hlc: string;
    last_change: string;
  };
  campaign_products: {
    id: string;
    product_id: string;
    campaign_id?: string | null;
    currency_id?: string | null;
    value_minor: number;
    value_type_id: number;
    valid_from?: string | null;
    valid_to?: string | null;
    display_in?: string;
    type_id?: string | null;
    name?: string | null;
    presentation_data?: string;
    state?: number;
    hlc: string;
    last_change: string;
  };
  campaigns: {
    id: string;
    name: string;
    parent_id?: string | null;
    external_id?: string | null;
    state?: number;
    hlc: string;
    last_change: string;
  };
  cards: {
    id: string;
    customer_id: string;
    card_number: string;
    secondary_card_number?: string | null;
    card_type_id?: string | null;
    valid_from?: string | null;
    valid_to?: string | null;
    store_id?: string | null;
    state?: number;
    hlc: string;
    last_change: string;
  };
  changes: {
    seq?: number | null;
    entity: string;
    entity_id: string;
    op: string;
    row?: string | null;
    hlc: string;
  };
  credit_records: {
    id: string;
    customer_id: string;
    kind: string;
    amount_minor: number;
    purchase_id?: string | null;
    linked_credit_id?: string | null;
    created_at: string;
    state?: number;
    hlc: string;
    last_change: string;
    credit_type_id?: string | null;
    partner_id?: string | null;
    note?: string | null;
  };
  customer_ledgers: {
    customer_id: string;
    point_facts: string;
    credit_facts: string;
  };
  customer_source_records: {
    id: string;
    customer_id: string;
    customer_source_id: string;
    external_id?: string | null;
    hlc: string;
    last_change: string;
  };
  customer_state_tails: {
    customer_id: string;
    first_stamp: string;
  };
  customer_states: {
    id: string;
    horizon: string;
    lots: string;
    debt_milli: number;
    tail: string;
    credit_minor: number;
    credit_tail: string;
    hlc: string;
    last_change: string;
    earned_milli?: number | null;
    redeemed_milli?: number | null;
    earned_credit_minor?: number | null;
    redeemed_credit_minor?: number | null;
  };
  customers: {
    id: string;
    gender?: number | null;
    first_name?: string | null;
    last_name?: string | null;
    birthdate?: string | null;
    email?: string | null;
    phone?: string | null;
    language_id?: string | null;
    store_id?: string | null;
    address?: string;
    agreement?: string;
    password_hash?: string | null;
    state?: number;
    hlc: string;
    last_change: string;
  };
  event_groups: {
    id: string;
    name: string;
    text_id: string;
    state?: number;
    hlc: string;
    last_change: string;
  };
  event_properties: {
    id: string;
    name: string;
    description?: string | null;
    data_type: string;
    items?: string;
    is_required?: number;
    is_unique?: number;
    state?: number;
    hlc: string;
    last_change: string;
  };
  event_property_records: {
    id: string;
    event_id: string;
    property_id: string;
    property_value: string;
    hlc: string;
    last_change: string;
  };
  events: {
    id: string;
    event_type_id: string;
    customer_id: string;
    external_id: string;
    secondary_external_id?: string | null;
    data?: string | null;
    created_at: string;
    state?: number;
    hlc: string;
    last_change: string;
  };
  external_applications: {
    id: string;
    name: string;
    state?: number;
    hlc: string;
    last_change: string;
  };
  held_commands: {
    command_id: string;
    node_id: string;
    kind: string;
    operation: string;
    changes: string;
    hlc: string;
    reason: string;
    held_at: string;
    state?: string;
    resolved_at?: string | null;
  };
  idempotency_keys: {
    scope: string;
    key: string;
    fingerprint: string;
    status: number;
    response?: string | null;
    created_at: string;
  };
  meta: {
    key: string;
    value: string;
  };
  node_customer_days: {
    node_id: string;
    customer_id: string;
    day: string;
    earned_milli?: number;
    manual_milli?: number;
    redeemed_milli?: number;
    manual_credit_minor?: number;
  };
  node_days: {
    node_id: string;
    day: string;
    points_created_milli?: number;
    credit_created_minor?: number;
    points_redeemed_milli?: number;
    vouchers_issued?: number;
    voucher_value_minor?: number;
    customers_registered?: number;
    card_changes?: number;
    profile_changes?: number;
    returns_without_original?: number;
  };
  node_stores: {
    id: string;
    node_id: string;
    store_id: string;
    hlc: string;
    last_change: string;
  };
  nodes: {
    id: string;
    name: string;
    secret_hash: string;
    state?: number;
    hlc: string;
    last_change: string;
  };
  orders: {
    id: string;
    order_number: string;
    customer_id: string;
    currency_id: string;
    total_price_minor: number;
    details?: string;
    state?: number;
    hlc: string;
    last_change: string;
  };
  outbox: {
    seq?: number | null;
    command_id: string;
    generation: string;
    kind: string;
    payload: string;
    changes?: string;
    hlc: string;
    created_at: string;
    status?: string;
    reason?: string | null;
    acked_at?: string | null;
    operation?: string | null;
  };
  password_setup_requests: {
    id: string;
    customer_id: string;
    email: string;
    secret_hash: string;
    expires_at: string;
    sent_at?: string | null;
    hlc: string;
    last_change: string;
  };
  point_records: {
    id: string;
    customer_id: string;
    kind: string;
    points_milli: number;
    point_type_id?: string | null;
    partner_id?: string | null;
    valid_to?: string | null;
    purchase_id?: string | null;
    linked_point_id?: string | null;
    created_at: string;
    state?: number;
    hlc: string;
    last_change: string;
  };
  product_brands: {
    id: string;
    name: string;
    external_id?: string | null;
    state?: number;
    hlc: string;
    last_change: string;
  };
  product_external_ids: {
    id: string;
    product_id: string;
    list_code: string;
    code: string;
    hlc: string;
    last_change: string;
  };
  product_groups: {
    id: string;
    name: string;
    parent_id?: string | null;
    code?: string | null;
    external_id?: string | null;
    store_id?: string | null;
    state?: number;
    hlc: string;
    last_change: string;
  };
  product_reservation_sources: {
    id: string;
    name: string;
    state?: number;
    hlc: string;
    last_change: string;
  };
  product_reservations: {
    id: string;
    customer_id: string;
    store_id: string;
    product_reservation_source_id: string;
    pickup_date?: string | null;
    currency_id?: string | null;
    total_price_minor?: number | null;
    actual_state: number;
    details?: string;
    state?: number;
    hlc: string;
    last_change: string;
  };
  products: {
    id: string;
    name: string;
    code?: string | null;
    product_group_id?: string | null;
    product_brand_id?: string | null;
    additional_properties?: string;
    state?: number;
    hlc: string;
    last_change: string;
  };
  program_history: {
    id?: number | null;
    body: string;
    in_force_from: string;
  };
  program_rules: {
    id: string;
    kind: string;
    body: string;
    state?: number;
    hlc: string;
    last_change: string;
  };
  purchase_assignments: {
    id: string;
    purchase_id: string;
    customer_id: string;
    hlc: string;
    last_change: string;
  };
  purchase_item_types: {
    id: string;
    name: string;
    hlc: string;
    last_change: string;
  };
  purchase_items: {
    id: string;
    purchase_id: string;
    product_id?: string | null;
    external_id?: string | null;
    purchase_item_type_id?: string | null;
    price_minor: number;
    amount_milli?: number | null;
    vat_rate?: number | null;
    additional_properties?: string;
    hlc: string;
    last_change: string;
  };
  purchases: {
    id: string;
    customer_id?: string | null;
    store_id: string;
    external_purchase_id: string;
    bill_number?: string | null;
    payment_time: string;
    type_id?: string | null;
    total_price_minor: number;
    currency_id?: string | null;
    card_number?: string | null;
    cashdesk_number?: number | null;
    canceled?: number;
    cancels_purchase_id?: string | null;
    bill?: string;
    state?: number;
    hlc: string;
    last_change: string;
  };
  recommendation_affinities: {
    customer_id: string;
    key: string;
    weight: number;
    as_of_day: number;
  };
  recommendation_best_sellers: {
    id: string;
    products: string;
    hlc: string;
    last_change: string;
  };
  recommendation_bills: {
    purchase_id: string;
    customer_id?: string | null;
    store_id: string;
    day: number;
  };
  recommendation_catalog_version: {
    id?: number | null;
    version: number;
  };
  recommendation_coverage: {
    id: string;
    covered_hlc: string;
    hlc: string;
    last_change: string;
  };
  recommendation_customers: {
    id: string;
    as_of_day: number;
    bills_weight: number;
    affinities: string;
    hlc: string;
    last_change: string;
  };
  recommendation_neighbours: {
    id: string;
    neighbours: string;
    hlc: string;
    last_change: string;
  };
  recommendation_origins: {
    node_id: string;
    covered_hlc: string;
  };
  recommendation_pairs: {
    product_key: number;
    other_key: number;
    bills: number;
  };
  recommendation_pending: {
    kind: string;
    key: string;
  };
  recommendation_products: {
    key?: number | null;
    product_id: string;
    bills: number;
    published_bills?: number;
  };
  recommendation_profiles: {
    customer_id: string;
    as_of_day: number;
    bills_weight: number;
  };
  recommendation_state: {
    key: string;
    value: string;
  };
  recommendation_store_bills: {
    store_id: string;
    product_id: string;
    bills: number;
  };
  reservation_codes: {
    id: string;
    product_reservation_id: string;
    code: number;
    hlc: string;
    last_change: string;
  };
  reservation_state_changes: {
    id: string;
    product_reservation_id: string;
    reservation_state: number;
    hlc: string;
    last_change: string;
  };
  rewards: {
    id: string;
    code?: string | null;
    name: string;
    priority?: number | null;
    points_cost_milli?: number;
    is_automated?: number;
    details?: string;
    state?: number;
    hlc: string;
    last_change: string;
  };
  schema_migrations: {
    version?: number | null;
    name: string;
    applied_at: string;
  };
  store_group_records: {
    id: string;
    store_id: string;
    store_group_id: string;
    hlc: string;
    last_change: string;
  };
  store_groups: {
    id: string;
    name: string;
    hlc: string;
    last_change: string;
  };
  store_property_records: {
    id: string;
    store_id: string;
    property_id: string;
    property_name: string;
    property_value: string;
    hlc: string;
    last_change: string;
  };
  store_sessions: {
    token_id: string;
    customer_id: string;
    started_at: string;
  };
  stores: {
    id: string;
    store_code: string;
    name: string;
    partner_id?: string | null;
    system_id?: string | null;
    visibility_for_customer?: number;
    details?: string;
    state?: number;
    hlc: string;
    last_change: string;
  };
  sync_conflicts: {
    id: string;
    kind: string;
    entity: string;
    entity_id: string;
    detail: string;
    detected_at: string;
  };
  sync_deferred: {
    position?: number | null;
    entity: string;
    change: string;
    deferred_at: string;
    entity_id?: string | null;
    hlc?: string | null;
  };
  sync_feed_marks: {
    marked_at: string;
    seq: number;
  };
  sync_node_clocks: {
    node_id: string;
    pushed_through: string;
    reported_at: string;
  };
  sync_node_origins: {
    origin: string;
    node_id: string;
    first_seen_at: string;
  };
  sync_node_progress: {
    node_id: string;
    generation: string;
    last_seq: number;
    last_seen_at: string;
    last_hlc?: string | null;
  };
  sync_snapshot_seen: {
    entity: string;
    id: string;
  };
  tokens: {
    id: string;
    api_user_id: string;
    external_application_id: string;
    device: string;
    setup: string;
    push_token?: string | null;
    customer_id?: string | null;
    state?: number;
    hlc: string;
    last_change: string;
    node_id?: string | null;
  };
  unapplied_commands: {
    command_id: string;
    kind: string;
    status: string;
    reason: string;
    operation?: string | null;
    payload: string;
    changes: string;
    hlc: string;
    created_at: string;
    settled_at: string;
  };
  user_sessions: {
    id: string;
    token_hash: string;
    user_id: string;
    expires_at: string;
    hlc: string;
    last_change: string;
  };
  users: {
    id: string;
    login: string;
    password_hash: string;
    external_application_id: string;
    legacy_basic_md5?: string | null;
    state?: number;
    hlc: string;
    last_change: string;
    store_id?: string | null;
  };
  voucher_applications: {
    id: string;
    voucher_id: string;
    store_id?: string | null;
    purchase_id?: string | null;
    applied_date: string;
    hlc: string;
    last_change: string;
  };
  voucher_releases: {
    id: string;
    application_id: string;
    voucher_id: string;
    purchase_id: string;
    hlc: string;
    last_change: string;
  };
  vouchers: {
    id: string;
    customer_id?: string | null;
    reward_id?: string | null;
    code: string;
    value_minor?: number;
    valid_from?: string | null;
    valid_to?: string | null;
    reward_group?: string | null;
    state?: number;
    hlc: string;
    last_change: string;
  };
}

export interface AcknowledgedCommandsRow {
  seq: number;
  command_id: string;
  kind: string;
  payload: string;
  changes: string;
  hlc: string;
  operation: string;
  created_at: string;
  acked_at: string;
}

export interface ApiUsersRow {
  id: string;
  user_name: string;
  name: string;
  state: number;
  hlc: string;
  last_change: string;
}

export interface AppliedCommandsRow {
  command_id: string;
  node_id: string;
  generation: string;
  seq: number;
  status: 'applied' | 'rejected' | 'held';
  reason: string | null;
  applied_at: string;
  rows: string | null;
}

export interface AuthTokensRow {
  id: string;
  token_id: string;
  customer_id: string;
  external_application_id: string;
  value_hash: string;
  token_request_id: string;
  expires_at: string;
  used_at: string | null;
  hlc: string;
  last_change: string;
}

export interface CampaignProductStoreRecordsRow {
  id: string;
  campaign_product_id: string;
  store_id: string;
  hlc: string;
  last_change: string;
}

export interface CampaignProductsRow {
  id: string;
  product_id: string;
  campaign_id: string | null;
  currency_id: string | null;
  value_minor: number;
  value_type_id: 1 | 2;
  valid_from: string | null;
  valid_to: string | null;
  display_in: string;
  type_id: string | null;
  name: string | null;
  presentation_data: string;
  state: number;
  hlc: string;
  last_change: string;
}

export interface CampaignsRow {
  id: string;
  name: string;
  parent_id: string | null;
  external_id: string | null;
  state: number;
  hlc: string;
  last_change: string;
}

export interface CardsRow {
  id: string;
  customer_id: string;
  card_number: string;
  secondary_card_number: string | null;
  card_type_id: string | null;
  valid_from: string | null;
  valid_to: string | null;
  store_id: string | null;
  state: number;
  hlc: string;
  last_change: string;
}

export interface ChangesRow {
  seq: number;
  entity: string;
  entity_id: string;
  op: 'insert' | 'update' | 'delete';
  row: string | null;
  hlc: string;
}

export interface CreditRecordsRow {
  id: string;
  customer_id: string;
  kind: 'collection' | 'redemption';
  amount_minor: number;
  purchase_id: string | null;
  linked_credit_id: string | null;
  created_at: string;
  state: number;
  hlc: string;
  last_change: string;
  credit_type_id: string | null;
  partner_id: string | null;
  note: string | null;
}

export interface CustomerLedgersRow {
  customer_id: string;
  point_facts: string;
  credit_facts: string;
}

export interface CustomerSourceRecordsRow {
  id: string;
  customer_id: string;
  customer_source_id: string;
  external_id: string | null;
  hlc: string;
  last_change: string;
}

export interface CustomerStateTailsRow {
  customer_id: string;
  first_stamp: string;
}

export interface CustomerStatesRow {
  id: string;
  horizon: string;
  lots: string;
  debt_milli: number;
  tail: string;
  credit_minor: number;
  credit_tail: string;
  hlc: string;
  last_change: string;
  earned_milli: number | null;
  redeemed_milli: number | null;
  earned_credit_minor: number | null;
  redeemed_credit_minor: number | null;
}

export interface CustomersRow {
  id: string;
  gender: number | null;
  first_name: string | null;
  last_name: string | null;
  birthdate: string | null;
  email: string | null;
  phone: string | null;
  language_id: string | null;
  store_id: string | null;
  address: string;
  agreement: string;
  password_hash: string | null;
  state: number;
  hlc: string;
  last_change: string;
}

export interface EventGroupsRow {
  id: string;
  name: string;
  text_id: string;
  state: number;
  hlc: string;
  last_change: string;
}

export interface EventPropertiesRow {
  id: string;
  name: string;
  description: string | null;
  data_type: string;
  items: string;
  is_required: number;
  is_unique: number;
  state: number;
  hlc: string;
  last_change: string;
}

export interface EventPropertyRecordsRow {
  id: string;
  event_id: string;
  property_id: string;
  property_value: string;
  hlc: string;
  last_change: string;
}

export interface EventsRow {
  id: string;
  event_type_id: string;
  customer_id: string;
  external_id: string;
  secondary_external_id: string | null;
  data: string | null;
  created_at: string;
  state: number;
  hlc: string;
  last_change: string;
}

export interface ExternalApplicationsRow {
  id: string;
  name: string;
  state: number;
  hlc: string;
  last_change: string;
}

export interface HeldCommandsRow {
  command_id: string;
  node_id: string;
  kind: string;
  operation: string;
  changes: string;
  hlc: string;
  reason: string;
  held_at: string;
  state: 'held' | 'released' | 'voided';
  resolved_at: string | null;
}

export interface IdempotencyKeysRow {
  scope: string;
  key: string;
  fingerprint: string;
  status: number;
  response: string | null;
  created_at: string;
}

export interface MetaRow {
  key: string;
  value: string;
}

export interface NodeCustomerDaysRow {
  node_id: string;
  customer_id: string;
  day: string;
  earned_milli: number;
  manual_milli: number;
  redeemed_milli: number;
  manual_credit_minor: number;
}

export interface NodeDaysRow {
  node_id: string;
  day: string;
  points_created_milli: number;
  credit_created_minor: number;
  points_redeemed_milli: number;
  vouchers_issued: number;
  voucher_value_minor: number;
  customers_registered: number;
  card_changes: number;
  profile_changes: number;
  returns_without_original: number;
}

export interface NodeStoresRow {
  id: string;
  node_id: string;
  store_id: string;
  hlc: string;
  last_change: string;
}

export interface NodesRow {
  id: string;
  name: string;
  secret_hash: string;
  state: number;
  hlc: string;
  last_change: string;
}

export interface OrdersRow {
  id: string;
  order_number: string;
  customer_id: string;
  currency_id: string;
  total_price_minor: number;
  details: string;
  state: number;
  hlc: string;
  last_change: string;
}

export interface OutboxRow {
  seq: number;
  command_id: string;
  generation: string;
  kind: string;
  payload: string;
  changes: string;
  hlc: string;
  created_at: string;
  status: 'pending' | 'applied' | 'rejected';
  reason: string | null;
  acked_at: string | null;
  operation: string | null;
}

export interface PasswordSetupRequestsRow {
  id: string;
  customer_id: string;
  email: string;
  secret_hash: string;
  expires_at: string;
  sent_at: string | null;
  hlc: string;
  last_change: string;
}

export interface PointRecordsRow {
  id: string;
  customer_id: string;
  kind: 'collection' | 'redemption';
  points_milli: number;
  point_type_id: string | null;
  partner_id: string | null;
  valid_to: string | null;
  purchase_id: string | null;
  linked_point_id: string | null;
  created_at: string;
  state: number;
  hlc: string;
  last_change: string;
}

export interface ProductBrandsRow {
  id: string;
  name: string;
  external_id: string | null;
  state: number;
  hlc: string;
  last_change: string;
}

export interface ProductExternalIdsRow {
  id: string;
  product_id: string;
  list_code: string;
  code: string;
  hlc: string;
  last_change: string;
}

export interface ProductGroupsRow {
  id: string;
  name: string;
  parent_id: string | null;
  code: string | null;
  external_id: string | null;
  store_id: string | null;
  state: number;
  hlc: string;
  last_change: string;
}

export interface ProductReservationSourcesRow {
  id: string;
  name: string;
  state: number;
  hlc: string;
  last_change: string;
}

export interface ProductReservationsRow {
  id: string;
  customer_id: string;
  store_id: string;
  product_reservation_source_id: string;
  pickup_date: string | null;
  currency_id: string | null;
  total_price_minor: number | null;
  actual_state: number;
  details: string;
  state: number;
  hlc: string;
  last_change: string;
}

export interface ProductsRow {
  id: string;
  name: string;
  code: string | null;
  product_group_id: string | null;
  product_brand_id: string | null;
  additional_properties: string;
  state: number;
  hlc: string;
  last_change: string;
}

export interface ProgramHistoryRow {
  id: number;
  body: string;
  in_force_from: string;
}

export interface ProgramRulesRow {
  id: string;
  kind: string;
  body: string;
  state: number;
  hlc: string;
  last_change: string;
}

export interface PurchaseAssignmentsRow {
  id: string;
  purchase_id: string;
  customer_id: string;
  hlc: string;
  last_change: string;
}

export interface PurchaseItemTypesRow {
  id: string;
  name: string;
  hlc: string;
  last_change: string;
}

export interface PurchaseItemsRow {
  id: string;
  purchase_id: string;
  product_id: string | null;
  external_id: string | null;
  purchase_item_type_id: string | null;
  price_minor: number;
  amount_milli: number | null;
  vat_rate: number | null;
  additional_properties: string;
  hlc: string;
  last_change: string;
}

export interface PurchasesRow {
  id: string;
  customer_id: string | null;
  store_id: string;
  external_purchase_id: string;
  bill_number: string | null;
  payment_time: string;
  type_id: string | null;
  total_price_minor: number;
  currency_id: string | null;
  card_number: string | null;
  cashdesk_number: number | null;
  canceled: number;
  cancels_purchase_id: string | null;
  bill: string;
  state: number;
  hlc: string;
  last_change: string;
}

export interface RecommendationAffinitiesRow {
  customer_id: string;
  key: string;
  weight: number;
  as_of_day: number;
}

export interface RecommendationBestSellersRow {
  id: string;
  products: string;
  hlc: string;
  last_change: string;
}

export interface RecommendationBillsRow {
  purchase_id: string;
  customer_id: string | null;
  store_id: string;
  day: number;
}

export interface RecommendationCatalogVersionRow {
  id: number;
  version: number;
}

export interface RecommendationCoverageRow {
  id: string;
  covered_hlc: string;
  hlc: string;
  last_change: string;
}

export interface RecommendationCustomersRow {
  id: string;
  as_of_day: number;
  bills_weight: number;
  affinities: string;
  hlc: string;
  last_change: string;
}

export interface RecommendationNeighboursRow {
  id: string;
  neighbours: string;
  hlc: string;
  last_change: string;
}

export interface RecommendationOriginsRow {
  node_id: string;
  covered_hlc: string;
}

export interface RecommendationPairsRow {
  product_key: number;
  other_key: number;
  bills: number;
}

export interface RecommendationPendingRow {
  kind: string;
  key: string;
}

export interface RecommendationProductsRow {
  key: number;
  product_id: string;
  bills: number;
  published_bills: number;
}

export interface RecommendationProfilesRow {
  customer_id: string;
  as_of_day: number;
  bills_weight: number;
}

export interface RecommendationStateRow {
  key: string;
  value: string;
}

export interface RecommendationStoreBillsRow {
  store_id: string;
  product_id: string;
  bills: number;
}

export interface ReservationCodesRow {
  id: string;
  product_reservation_id: string;
  code: number;
  hlc: string;
  last_change: string;
}

export interface ReservationStateChangesRow {
  id: string;
  product_reservation_id: string;
  reservation_state: number;
  hlc: string;
  last_change: string;
}

export interface RewardsRow {
  id: string;
  code: string | null;
  name: string;
  priority: number | null;
  points_cost_milli: number;
  is_automated: number;
  details: string;
  state: number;
  hlc: string;
  last_change: string;
}

export interface SchemaMigrationsRow {
  version: number;
  name: string;
  applied_at: string;
}

export interface StoreGroupRecordsRow {
  id: string;
  store_id: string;
  store_group_id: string;
  hlc: string;
  last_change: string;
}

export interface StoreGroupsRow {
  id: string;
  name: string;
  hlc: string;
  last_change: string;
}

export interface StorePropertyRecordsRow {
  id: string;
  store_id: string;
  property_id: string;
  property_name: string;
  property_value: string;
  hlc: string;
  last_change: string;
}

export interface StoreSessionsRow {
  token_id: string;
  customer_id: string;
  started_at: string;
}

export interface StoresRow {
  id: string;
  store_code: string;
  name: string;
  partner_id: string | null;
  system_id: string | null;
  visibility_for_customer: number;
  details: string;
  state: number;
  hlc: string;
  last_change: string;
}

export interface SyncConflictsRow {
  id: string;
  kind: string;
  entity: string;
  entity_id: string;
  detail: string;
  detected_at: string;
}

export interface SyncDeferredRow {
  position: number;
  entity: string;
  change: string;
  deferred_at: string;
  entity_id: string | null;
  hlc: string | null;
}

export interface SyncFeedMarksRow {
  marked_at: string;
  seq: number;
}

export interface SyncNodeClocksRow {
  node_id: string;
  pushed_through: string;
  reported_at: string;
}

export interface SyncNodeOriginsRow {
  origin: string;
  node_id: string;
  first_seen_at: string;
}

export interface SyncNodeProgressRow {
  node_id: string;
  generation: string;
  last_seq: number;
  last_seen_at: string;
  last_hlc: string | null;
}

export interface SyncSnapshotSeenRow {
  entity: string;
  id: string;
}

export interface TokensRow {
  id: string;
  api_user_id: string;
  external_application_id: string;
  device: string;
  setup: string;
  push_token: string | null;
  customer_id: string | null;
  state: number;
  hlc: string;
  last_change: string;
  node_id: string | null;
}

export interface UnappliedCommandsRow {
  command_id: string;
  kind: string;
  status: 'rejected' | 'held';
  reason: string;
  operation: string | null;
  payload: string;
  changes: string;
  hlc: string;
  created_at: string;
  settled_at: string;
}

export interface UserSessionsRow {
  id: string;
  token_hash: string;
  user_id: string;
  expires_at: string;
  hlc: string;
  last_change: string;
}

export interface UsersRow {
  id: string;
  login: string;
  password_hash: string;
  external_application_id: string;
  legacy_basic_md5: string | null;
  state: number;
  hlc: string;
  last_change: string;
  store_id: string | null;
}

export interface VoucherApplicationsRow {
  id: string;
  voucher_id: string;
  store_id: string | null;
  purchase_id: string | null;
  applied_date: string;
  hlc: string;
  last_change: string;
}

export interface VoucherReleasesRow {
  id: string;
  application_id: string;
  voucher_id: string;
  purchase_id: string;
  hlc: string;
  last_change: string;
}

export interface VouchersRow {
  id: string;
  customer_id: string | null;
  reward_id: string | null;
  code: string;
  value_minor: number;
  valid_from: string | null;
  valid_to: string | null;
  reward_group: string | null;
  state: number;
  hlc: string;
  last_change: string;
}

/** A table's columns as a LEFT JOIN reads them: null where the table had no row. */
export type LeftJoined<Row> = { [Column in keyof Row]: Row[Column] | null };
