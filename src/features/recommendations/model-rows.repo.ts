/**
 * What the publisher reads: the accumulators a model row is computed from, the rows waiting
 * to be recomputed, and the rows as published.
 */
import type { Db } from '../../db/open.js';
import type { Row } from '../../db/write-path.js';
import type { PendingKind } from './model-accumulators.repo.js';
import type {
  RecommendationAffinitiesRow,
  RecommendationOriginsRow,
  RecommendationProductsRow,
  RecommendationProfilesRow,
  RecommendationStoreBillsRow,
} from '../../db/tables.generated.js';

export interface PairCount {
  other_id: string;
  both: number;
  other_bills: number;
}

export type ModelTable = 'recommendation_neighbours' | 'recommendation_customers' | 'recommendation_best_sellers' | 'recommendation_coverage';

export class ModelRowsRepo {
  private readonly pendingRows;
  private readonly pendingOrigins;
  private readonly donePending;
  private readonly productBills;
  private readonly markPublished;
  private readonly pairs;
  private readonly profile;
  private readonly affinities;
  private readonly chainBills;
  private readonly storeBills;
  private readonly origin;
  private readonly published;

  constructor(db: Db) {
    // Coverage rows last: a store must never see a watermark before the rows it covers. Two
    // walks of the primary key in its order, not one sorted query: a builder step takes a
    // few rows at a time, and sorting all pending rows for each (tens of thousands after a
    // full count) made publishing quadratic.
    this.pendingRows = db.prepare<[number], { kind: PendingKind; key: string }>(
      "SELECT kind, key FROM recommendation_pending WHERE kind <> 'origin' ORDER BY kind, key LIMIT ?",
    );
    this.pendingOrigins = db.prepare<[number], { kind: PendingKind; key: string }>(
      "SELECT kind, key FROM recommendation_pending WHERE kind = 'origin' ORDER BY key LIMIT ?",
    );
    this.donePending = db.prepare('DELETE FROM recommendation_pending WHERE kind = ? AND key = ?');
    this.productBills = db.prepare<[string], Pick<RecommendationProductsRow, 'bills'>>(
      'SELECT bills FROM recommendation_products WHERE product_id = ?',
    );
    this.markPublished = db.prepare('UPDATE recommendation_products SET published_bills = bills WHERE product_id = ?');
    this.pairs = db.prepare<[string, number], PairCount>(
      `SELECT other.product_id AS other_id, pair.bills AS both, other.bills AS other_bills
       FROM recommendation_pairs pair JOIN recommendation_products other ON other.key = pair.other_key
       WHERE pair.product_key = (SELECT key FROM recommendation_products WHERE product_id = ?) AND pair.bills >= ?`,
    );
    this.profile = db.prepare<[string], Pick<RecommendationProfilesRow, 'as_of_day' | 'bills_weight'>>(
      'SELECT as_of_day, bills_weight FROM recommendation_profiles WHERE customer_id = ?',
    );
    this.affinities = db.prepare<[string], Pick<RecommendationAffinitiesRow, 'key' | 'weight' | 'as_of_day'>>(
      'SELECT key, weight, as_of_day FROM recommendation_affinities WHERE customer_id = ?',
    );
    this.chainBills = db.prepare<[number], Pick<RecommendationProductsRow, 'product_id' | 'bills'>>(
      'SELECT product_id, bills FROM recommendation_products WHERE bills > 0 ORDER BY bills DESC, product_id LIMIT ?',
    );
    this.storeBills = db.prepare<[string, number], Pick<RecommendationStoreBillsRow, 'product_id' | 'bills'>>(
      'SELECT product_id, bills FROM recommendation_store_bills WHERE store_id = ? ORDER BY bills DESC, product_id LIMIT ?',
    );
    this.origin = db.prepare<[string], Pick<RecommendationOriginsRow, 'covered_hlc'>>(
      'SELECT covered_hlc FROM recommendation_origins WHERE node_id = ?',
    );
    const tables: ModelTable[] = ['recommendation_neighbours', 'recommendation_customers', 'recommendation_best_sellers', 'recommendation_coverage'];
    this.published = new Map(tables.map((table) => [table, db.prepare<[string], Row>(`SELECT * FROM ${table} WHERE id = ?`)]));
  }

  pending(limit: number): { kind: PendingKind; key: string }[] {
    const rows = this.pendingRows.all(limit);
    return rows.length < limit ? [...rows, ...this.pendingOrigins.all(limit - rows.length)] : rows;
  }

  done(kind: PendingKind, key: string): void {
    this.donePending.run(kind, key);
  }

  billsOfProduct(productId: string): number {
    return this.productBills.get(productId)?.bills ?? 0;
  }

  /** Notes the bills a product's neighbours were computed from. */
  neighboursPublished(productId: string): void {
    this.markPublished.run(productId);
  }

  /** The products bought with one in at least `minimum` bills, with the bills of each. */
  pairCounts(productId: string, minimum: number): PairCount[] {
    return this.pairs.all(productId, minimum);
  }

  customerProfile(customerId: string): { as_of_day: number; bills_weight: number } | undefined {
    return this.profile.get(customerId);
  }

  customerAffinities(customerId: string): { key: string; weight: number; as_of_day: number }[] {
    return this.affinities.all(customerId);
  }

  bestSellers(storeId: string | undefined, limit: number): { product_id: string; bills: number }[] {
    return storeId === undefined ? this.chainBills.all(limit) : this.storeBills.all(storeId, limit);
  }

  coveredStamp(nodeId: string): string | undefined {
    return this.origin.get(nodeId)?.covered_hlc;
  }

  publishedRow(table: ModelTable, id: string): Row | undefined {
    return this.published.get(table)!.get(id);
  }
}
