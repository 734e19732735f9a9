/**
 * What an answer reads: the replicated model rows, the catalogue, and this node's own
 * purchases newer than the model's watermark for this node.
 */
import { hlcOriginSql } from '../../core/hlc.js';
import type { Db } from '../../db/open.js';
import type {
  CustomersRow,
  ProductsRow,
  PurchasesRow,
  RecommendationBestSellersRow,
  RecommendationCatalogVersionRow,
  RecommendationCoverageRow,
  RecommendationCustomersRow,
  RecommendationNeighboursRow,
} from '../../db/tables.generated.js';
import { featureColumns } from '../column-codecs.js';
import { jsonListRows } from '../../db/json-list.js';
import type { ScoredList } from './model-rows.schemas.js';
import { ParsedRows } from './parsed-rows.js';
import { purchaseLines, type ProductKind, type PurchaseLine } from './purchase-lines.js';

/** Parsed rows kept in memory: the products answers touch most (some 2 KB each), and every best-seller list. */
const PARSED_NEIGHBOURS = 20_000;
const PARSED_BEST_SELLERS = 1_000;

/** A customer's model row, their affinities parsed. */
export type CustomerModel = Pick<RecommendationCustomersRow, 'id' | 'as_of_day' | 'bills_weight'> & { affinities: ScoredList };

export class RecommendationsRepo {
  private readonly parsedNeighbours = new ParsedRows(
    (row: Pick<RecommendationNeighboursRow, 'id' | 'hlc' | 'neighbours'>) =>
      new Map(featureColumns['recommendation_neighbours.neighbours'](row.neighbours)),
    PARSED_NEIGHBOURS,
  );
  private readonly parsedBestSellers = new ParsedRows(
    (row: Pick<RecommendationBestSellersRow, 'id' | 'hlc' | 'products'>) => featureColumns['recommendation_best_sellers.products'](row.products),
    PARSED_BEST_SELLERS,
  );
  private readonly customer;
  private readonly version;
  private readonly customerModel;
  private readonly neighbourRows;
  private readonly bestSellerRows;
  private readonly kinds;
  private readonly catalog;
  private readonly coverage;
  private readonly newestOwnPurchase;
  private readonly ownPurchaseLines;

  constructor(db: Db) {
    const idsIn = jsonListRows(db);
    this.customer = db.prepare<[string], Pick<CustomersRow, 'id' | 'store_id'>>('SELECT id, store_id FROM customers WHERE id = ?');
    this.version = db.prepare<[], Pick<RecommendationCatalogVersionRow, 'version'>>('SELECT version FROM recommendation_catalog_version');
    this.customerModel = db.prepare<[string], Pick<RecommendationCustomersRow, 'id' | 'as_of_day' | 'bills_weight' | 'affinities'>>(
      'SELECT id, as_of_day, bills_weight, affinities FROM recommendation_customers WHERE id = ?',
    );
    this.neighbourRows = db.prepare<[string], Pick<RecommendationNeighboursRow, 'id' | 'hlc' | 'neighbours'>>(
      `SELECT id, hlc, neighbours FROM recommendation_neighbours WHERE id IN (${idsIn})`,
    );
    this.bestSellerRows = db.prepare<[string], Pick<RecommendationBestSellersRow, 'id' | 'hlc' | 'products'>>(
      `SELECT id, hlc, products FROM recommendation_best_sellers WHERE id IN (${idsIn})`,
    );
    this.kinds = db.prepare<[string], { id: string; group: string | null; brand: string | null }>(
      `SELECT id, product_group_id AS "group", product_brand_id AS brand FROM products WHERE id IN (${idsIn})`,
    );
    this.catalog = db.prepare<[number], Pick<ProductsRow, 'id'>>('SELECT id FROM products WHERE state = 1 ORDER BY id LIMIT ?');
    this.coverage = db.prepare<[string], Pick<RecommendationCoverageRow, 'covered_hlc'>>(
      'SELECT covered_hlc FROM recommendation_coverage WHERE id = ?',
    );
    this.newestOwnPurchase = db.prepare<[string], Pick<PurchasesRow, 'hlc'>>(
      `SELECT hlc FROM purchases WHERE ${hlcOriginSql('hlc')} = ? ORDER BY hlc DESC LIMIT 1`,
    );
    this.ownPurchaseLines = db.prepare<[string, string], PurchaseLine>(`${purchaseLines()} WHERE ${hlcOriginSql('p.hlc')} = ? AND p.hlc > ?`);
  }

  customerById(id: string): { id: string; store_id: string | null } | undefined {
    return this.customer.get(id);
  }

  customerRow(id: string): CustomerModel | undefined {
    const row = this.customerModel.get(id);
    return row === undefined ? undefined : { ...row, affinities: featureColumns['recommendation_customers.affinities'](row.affinities) };
  }

  neighbours(productIds: string[]): Map<string, Map<string, number>> {
    const rows = productIds.length === 0 ? [] : this.neighbourRows.all(JSON.stringify(productIds));
    return new Map(rows.map((row) => [row.id, this.parsedNeighbours.of(row)]));
  }

  bestSellers(keys: string[]): Map<string, ScoredList> {
    return new Map(this.bestSellerRows.all(JSON.stringify(keys)).map((row) => [row.id, this.parsedBestSellers.of(row)]));
  }

  /** Changes with every change to products (recommendation_catalog_version, bumped by triggers on products). */
  catalogVersion(): number {
    return this.version.get()!.version;
  }

  productKinds(productIds: string[]): Map<string, ProductKind> {
    return new Map(this.kinds.all(JSON.stringify(productIds)).map((kind) => [kind.id, kind]));
  }

  /** Products of the catalogue by id, to complete an answer when best sellers run out. */
  catalogProducts(limit: number): string[] {
    return this.catalog.all(limit).map((row) => row.id);
  }

  /** The newest stamp of this node's purchase facts that the model holds. */
  coveredStamp(nodeId: string): string | undefined {
    return this.coverage.get(nodeId)?.covered_hlc;
  }

  newestPurchaseStamp(nodeId: string): string | undefined {
    return this.newestOwnPurchase.get(nodeId)?.hlc;
  }

  purchaseLinesAfter(nodeId: string, stamp: string): PurchaseLine[] {
    return this.ownPurchaseLines.all(nodeId, stamp);
  }
}
