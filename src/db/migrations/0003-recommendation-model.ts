/**
 * The recommendation model (src/features/recommendations/). The hub, or a store with no hub,
 * folds purchases into node-local accumulators (no `hlc`, so they never replicate) and
 * publishes compact model rows from them, which replicate to every store like any row.
 *
 * Replicated model rows — integer scores, lists as JSON:
 * - recommendation_neighbours: per product, the top products bought with it
 *   `[[product_id, cosine in thousandths], …]`.
 * - recommendation_customers: per customer, the recency-weighted bill weights of their top
 *   products, groups, brands and stores `[["p:<id>", weight], …]`, as of `as_of_day`, with
 *   the weight of all their bills.
 * - recommendation_best_sellers: per store id, and `chain`, `[[product_id, bills], …]`.
 * - recommendation_coverage: the watermark. One row per node where purchases are made:
 *   the newest stamp of that node's purchase facts the model holds. A single watermark per
 *   model row would not do: the hub receives purchases in push order, not stamp order, so
 *   a stamp could not tell a store which of its own purchases the model already holds. A
 *   node's commands are applied in the order it made them, so per node it can.
 */
export const sql = `
CREATE TABLE recommendation_neighbours (
  id TEXT PRIMARY KEY,
  neighbours TEXT NOT NULL,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;

CREATE TABLE recommendation_customers (
  id TEXT PRIMARY KEY,
  as_of_day INTEGER NOT NULL,
  bills_weight INTEGER NOT NULL,
  affinities TEXT NOT NULL,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;

CREATE TABLE recommendation_best_sellers (
  id TEXT PRIMARY KEY,
  products TEXT NOT NULL,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;

CREATE TABLE recommendation_coverage (
  id TEXT PRIMARY KEY,
  covered_hlc TEXT NOT NULL,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;

-- Node-local: where the builder is (its cursor over the change feed), the bills it counted
-- and the counters and weights the model rows are computed from. Weights are kept as of a
-- day per row, so that a new bill rewrites only the keys it holds.
CREATE TABLE recommendation_state (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE recommendation_bills (
  purchase_id TEXT PRIMARY KEY,
  customer_id TEXT,
  store_id TEXT NOT NULL,
  day INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

-- A product's bills (and its bills when its neighbours were last published), and a small
-- integer key naming it in recommendation_pairs: the pair
-- counts are the largest accumulator (millions of rows for a chain), and every batch
-- touches pages all over them, so their rows are kept as small as they can be.
CREATE TABLE recommendation_products (
  key INTEGER PRIMARY KEY,
  product_id TEXT NOT NULL UNIQUE,
  bills INTEGER NOT NULL,
  published_bills INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX recommendation_products_by_bills ON recommendation_products (bills);

CREATE TABLE recommendation_store_bills (
  store_id TEXT NOT NULL,
  product_id TEXT NOT NULL,
  bills INTEGER NOT NULL,
  PRIMARY KEY (store_id, product_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX recommendation_store_bills_by_bills ON recommendation_store_bills (store_id, bills);

CREATE TABLE recommendation_pairs (
  product_key INTEGER NOT NULL,
  other_key INTEGER NOT NULL,
  bills INTEGER NOT NULL,
  PRIMARY KEY (product_key, other_key)
) STRICT, WITHOUT ROWID;

CREATE TABLE recommendation_profiles (
  customer_id TEXT PRIMARY KEY,
  as_of_day INTEGER NOT NULL,
  bills_weight INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TABLE recommendation_affinities (
  customer_id TEXT NOT NULL,
  key TEXT NOT NULL,
  weight INTEGER NOT NULL,
  as_of_day INTEGER NOT NULL,
  PRIMARY KEY (customer_id, key)
) STRICT, WITHOUT ROWID;

CREATE TABLE recommendation_origins (
  node_id TEXT PRIMARY KEY,
  covered_hlc TEXT NOT NULL
) STRICT, WITHOUT ROWID;

-- Model rows to recompute: kind 'product', 'customer', 'store' or 'origin', and its key.
CREATE TABLE recommendation_pending (
  kind TEXT NOT NULL,
  key TEXT NOT NULL,
  PRIMARY KEY (kind, key)
) STRICT, WITHOUT ROWID;

-- Bumped by every change to products, so that a node's copy in memory of their groups and
-- brands knows when it went stale.
CREATE TABLE recommendation_catalog_version (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL
) STRICT;
INSERT INTO recommendation_catalog_version (id, version) VALUES (1, 0);
CREATE TRIGGER recommendation_catalog_inserted AFTER INSERT ON products
BEGIN UPDATE recommendation_catalog_version SET version = version + 1; END;
CREATE TRIGGER recommendation_catalog_updated AFTER UPDATE OF id, product_group_id, product_brand_id ON products
BEGIN UPDATE recommendation_catalog_version SET version = version + 1; END;
CREATE TRIGGER recommendation_catalog_deleted AFTER DELETE ON products
BEGIN UPDATE recommendation_catalog_version SET version = version + 1; END;

-- A store folds in its own purchases newer than its watermark: found by the node part of
-- their stamp (characters 19 on), then the stamp.
CREATE INDEX purchases_by_origin ON purchases (substr(hlc, 19), hlc);
CREATE INDEX purchases_by_cancelled ON purchases (cancels_purchase_id) WHERE cancels_purchase_id IS NOT NULL;
`;
