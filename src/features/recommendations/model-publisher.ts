/**
 * Recomputes the model rows the builder marked pending and writes, through the write path
 * (so they reach the change feed and every store), only those whose content changed.
 * Scores keep two significant digits: rankings need no more, and a popular product's
 * neighbours then stay as published while its counts creep up, instead of being rewritten
 * with every bill.
 */
import type { Row, WriteTransaction, WritePath } from '../../db/write-path.js';
import type { ModelRowsRepo, ModelTable } from './model-rows.repo.js';
import { CHAIN, type ScoredList } from './model-rows.schemas.js';
import { publishedKey } from './profile-keys.js';
import { carry } from './recency-weights.js';

const NEIGHBOURS = 20;
const CUSTOMER_KEYS = 48;
const BEST_SELLERS = 100;
/** A pairing seen in one bill is chance; from two on it may be a habit. */
const MIN_PAIR_BILLS = 2;

export class ModelPublisher {
  constructor(
    private readonly rows: ModelRowsRepo,
    private readonly writes: WritePath,
  ) {}

  /**
   * Publishes up to `limit` pending rows in one transaction, taking no further row once
   * `enough` says so; returns how many it published.
   */
  publish(limit: number, totalBills: number, enough: () => boolean): number {
    const pending = this.rows.pending(limit);
    if (pending.length === 0) return 0;
    return this.writes.write(null, (tx) => {
      let published = 0;
      for (const { kind, key } of pending) {
        if (published > 0 && enough()) break;
        published += 1;
        if (kind === 'product') this.save(tx, 'recommendation_neighbours', key, this.neighbours(key, totalBills));
        else if (kind === 'customer') this.save(tx, 'recommendation_customers', key, this.customer(key));
        else if (kind === 'store') this.save(tx, 'recommendation_best_sellers', key, this.bestSellers(key));
        else this.save(tx, 'recommendation_coverage', key, this.coverage(key));
        this.rows.done(kind, key);
      }
      return published;
    });
  }

  /**
   * The products bought with `productId` more often than chance (lift above 1), scored by
   * cosine — bills with both over the geometric mean of the bills with each — so that
   * staples bought with everything do not crowd out real pairings.
   */
  private neighbours(productId: string, totalBills: number): Row | undefined {
    this.rows.neighboursPublished(productId);
    const bills = this.rows.billsOfProduct(productId);
    if (bills <= 0) return undefined;
    const scored: ScoredList = this.rows
      .pairCounts(productId, MIN_PAIR_BILLS)
      .filter((pair) => pair.both * totalBills > bills * pair.other_bills)
      .map((pair) => [pair.other_id, twoSignificantDigits(cosine(pair.both, bills, pair.other_bills))]);
    return scored.length === 0 ? undefined : { neighbours: JSON.stringify(best(scored, NEIGHBOURS)) };
  }

  private customer(customerId: string): Row | undefined {
    const profile = this.rows.customerProfile(customerId);
    if (!profile || profile.bills_weight <= 0) return undefined;
    const weights: ScoredList = this.rows
      .customerAffinities(customerId)
      .map((affinity): [string, number] => [affinity.key, carry(affinity.weight, affinity.as_of_day, profile.as_of_day)])
      .filter(([, weight]) => weight > 0);
    return {
      as_of_day: profile.as_of_day,
      bills_weight: profile.bills_weight,
      affinities: JSON.stringify(best(weights, CUSTOMER_KEYS).map(([key, weight]) => [publishedKey(key), weight])),
    };
  }

  private bestSellers(storeId: string): Row | undefined {
    const sold: ScoredList = this.rows
      .bestSellers(storeId === CHAIN ? undefined : storeId, BEST_SELLERS)
      .map((row) => [row.product_id, twoSignificantDigits(row.bills)]);
    return sold.length === 0 ? undefined : { products: JSON.stringify(best(sold, BEST_SELLERS)) };
  }

  private coverage(nodeId: string): Row | undefined {
    const covered = this.rows.coveredStamp(nodeId);
    return covered === undefined ? undefined : { covered_hlc: covered };
  }

  /** Inserts, updates or removes a model row — or leaves it, when nothing in it changed. */
  private save(tx: WriteTransaction, table: ModelTable, id: string, content: Row | undefined): void {
    const published = this.rows.publishedRow(table, id);
    if (!content) {
      if (published) tx.remove(table, id);
      return;
    }
    if (!published) tx.insert(table, { id, ...content });
    else if (Object.entries(content).some(([column, value]) => published[column] !== value)) tx.update(table, id, content);
  }
}

/** The `count` highest scores, ties by key, so that every node lists them alike. */
function best(scored: ScoredList, count: number): ScoredList {
  return scored.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).slice(0, count);
}

function twoSignificantDigits(value: number): number {
  if (value < 100) return value;
  const unit = 10 ** (String(value).length - 2);
  return Math.round(value / unit) * unit;
}

/** Bills with both over the geometric mean of the bills with each, in thousandths: one rounding, no sum. */
function cosine(both: number, bills: number, otherBills: number): number {
  return Math.floor((both * 1000) / Math.sqrt(bills * otherBills));
}
