/**
 * The builder's node-local tables: its place in the history, the bills it counted, and the
 * counters and weights the model rows are computed from.
 */
import { spelt } from '../../db/dialect.js';
import type { Statement } from '../../db/engine.js';
import type { Db, SqliteDb } from '../../db/open.js';
import { isSqlite, prepareOnSqlite } from '../../db/sqlite.js';
import { jsonListRows } from '../../db/json-list.js';
import { jsonRows } from '../../db/json-rows.js';
import { purchaseLines, type PurchaseLine } from './purchase-lines.js';
import { carry } from './recency-weights.js';
import type { RecommendationProductsRow, RecommendationStateRow } from '../../db/tables.generated.js';

export interface TouchingChange {
  entity: string;
  entity_id: string;
  purchase_id: string | null;
  cancels_purchase_id: string | null;
  hlc: string;
}

export interface RecordedBill {
  purchase_id: string;
  customer_id: string | null;
  store_id: string;
  day: number;
}

export type PendingKind = 'product' | 'customer' | 'store' | 'origin';

/** The tables whose changes the builder reads in the feed: a purchase, its lines, its customer assigned later. */
export const MODEL_INPUT: readonly string[] = ['purchases', 'purchase_items', 'purchase_assignments'];

/**
 * Followed changes a step deletes at most, on a node whose feed the builder alone reads: a
 * bill makes about seven, and a feed an older release kept whole goes a step at a time.
 */
const FORGOTTEN_PER_STEP = 200;

/** Bills per store and product, and per pair of product keys. */
export type BillCounter = 'stores' | 'pairs';

/** What a batch adds to a customer's weights, as of a day: its bills' weight, and each key's. */
export interface CustomerWeights {
  customerId: string;
  asOfDay: number;
  billsWeight: number;
  weights: [string, number][];
}

/** A page of the first count: the lines of its purchases, and where the next page begins. */
export interface PurchasesPage {
  lines: PurchaseLine[];
  next: string;
}

/**
 * How the first count walks every purchase stored, a page at a time, from a position kept in
 * the builder's state between steps. Purchases stored after the count began are the feed's
 * (ModelBuilder.startBuild), so a walk needs only to meet each purchase that was there.
 */
interface PurchaseWalk {
  /** The position before every purchase. */
  start: string;
  /** The purchases stored, exactly or as an upper bound, at least up to `limit`. */
  stored(limit: number): number;
  /** The page of at most `size` purchases after `position`; undefined when none is left. */
  pageAfter(position: string, size: number): PurchasesPage | undefined;
}

/**
 * SQLite's walk goes by rowid ranges: the newest rowid says how many purchases a walk has to
 * meet, with no count of the table, and a range is a search of the table's own B-tree.
 */
function rowidWalk(db: SqliteDb): PurchaseWalk {
  const newestRowid = prepareOnSqlite<[], { row: number }>(db, 'SELECT coalesce(max(rowid), 0) AS row FROM purchases');
  const linesInRows = prepareOnSqlite<[number, number], PurchaseLine>(db, `${purchaseLines()} WHERE p.rowid > ? AND p.rowid <= ?`);
  return {
    start: '0',
    stored: () => newestRowid.get()!.row,
    pageAfter(position, size) {
      const after = Number(position);
      if (after >= newestRowid.get()!.row) return undefined;
      return { lines: linesInRows.all(after, after + size), next: String(after + size) };
    },
  };
}

/**
 * PostgreSQL has no rowid: its walk goes by the primary key, a page the next `size` ids after
 * the last one counted, and counts the purchases only up to `limit`. Ids do not follow the
 * order purchases were stored in (a store's purchase reaches the hub after others it made
 * later), so a purchase stored during the walk may fall behind its position: the feed after
 * the build's cursor holds it. Every purchase stored before the walk began is met, whatever
 * its id. The feed's seqs would not do for the walk: compaction drops a purchase's change from
 * the hub's feed once the retention has passed, and a first count meets every purchase held.
 */
function idWalk(db: Db): PurchaseWalk {
  const storedUpTo = db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM (SELECT 1 FROM purchases LIMIT ?) AS stored');
  const pageEnd = db.prepare<[string, number], { last: string | null }>(
    'SELECT max(id) AS last FROM (SELECT id FROM purchases WHERE id > ? ORDER BY id LIMIT ?) AS page',
  );
  const linesInIds = db.prepare<[string, string], PurchaseLine>(`${purchaseLines()} WHERE p.id > ? AND p.id <= ?`);
  return {
    start: '',
    stored: (limit) => storedUpTo.get(limit)!.n,
    pageAfter(position, size) {
      const last = pageEnd.get(position, size)!.last;
      if (last === null) return undefined;
      return { lines: linesInIds.all(position, last), next: last };
    },
  };
}

/**
 * The later of two days or stamps, neither of them NULL, spelt as both engines take it: SQLite's
 * max of two values is PostgreSQL's greatest.
 */
function later(one: string, other: string): string {
  return `CASE WHEN ${one} > ${other} THEN ${one} ELSE ${other} END`;
}

export class ModelAccumulatorsRepo {
  private readonly readState;
  private readonly writeState;
  private readonly removeState;
  private readonly newestSeq;
  private readonly purchaseWalk: PurchaseWalk;
  private readonly linesOfPurchases;
  private readonly changesInRange;
  private readonly forgetChanges;
  private readonly recordedBills;
  private readonly insertBills;
  private readonly updateBill;
  private readonly deleteBill;
  private readonly counterStatements: Record<BillCounter, { add: Statement; dropEmpty: Statement }>;
  private readonly addProductBills;
  private readonly productKeys;
  private readonly addProfiles;
  private readonly addAffinities;
  private readonly dropEmptyAffinities;
  private readonly sawOrigins;
  private readonly markPending;
  private readonly countPending;
  private readonly anyPending;

  constructor(db: Db) {
    // The recency carry is JavaScript's on SQLite, given to each connection; PostgreSQL's
    // database holds it (src/db/migrations/postgres/recommendation-functions.ts), the same integers.
    if (isSqlite(db)) {
      db.function('recommendation_carry', { deterministic: true }, (weight: unknown, from: unknown, to: unknown) =>
        carry(Number(weight), Number(from), Number(to)),
      );
    }
    const idsIn = jsonListRows(db);
    this.readState = db.prepare<[string], Pick<RecommendationStateRow, 'value'>>('SELECT value FROM recommendation_state WHERE key = ?');
    this.writeState = db.prepare(
      'INSERT INTO recommendation_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
    this.removeState = db.prepare('DELETE FROM recommendation_state WHERE key = ?');
    this.newestSeq = db.prepare<[], { seq: number }>('SELECT coalesce(max(seq), 0) AS seq FROM changes');
    this.purchaseWalk = isSqlite(db) ? rowidWalk(db) : idWalk(db);
    // Purchases by id, the ids first (CROSS JOIN keeps that order): with `p.id IN (...)`,
    // statistics taken while purchases was small make SQLite scan every purchase instead.
    // PostgreSQL takes no ON after a CROSS JOIN, and its planner needs no such hint.
    this.linesOfPurchases = db.prepare<[string], PurchaseLine>(
      purchaseLines(
        spelt(db, {
          sqlite: 'json_each(?) AS wanted CROSS JOIN purchases p ON p.id = wanted.value',
          postgres: 'json_array_elements_text(CAST(? AS json)) AS wanted(value) JOIN purchases p ON p.id = wanted.value',
        }),
      ),
    );
    const field = (name: string) => spelt(db, { sqlite: `json_extract(row, '$.${name}')`, postgres: `CAST(row AS json) ->> '${name}'` });
    this.changesInRange = db.prepare<[number, number], TouchingChange>(
      `SELECT entity, entity_id, ${field('purchase_id')} AS purchase_id, ${field('cancels_purchase_id')} AS cancels_purchase_id, hlc
       FROM changes WHERE seq > ? AND seq <= ? AND entity IN (${MODEL_INPUT.map((table) => `'${table}'`).join(', ')})`,
    );
    this.forgetChanges = db.prepare(
      `DELETE FROM changes WHERE seq IN (SELECT seq FROM changes WHERE seq <= ? ORDER BY seq LIMIT ${FORGOTTEN_PER_STEP})`,
    );
    this.recordedBills = db.prepare<[string], RecordedBill>(
      `SELECT purchase_id, customer_id, store_id, day FROM recommendation_bills WHERE purchase_id IN (${idsIn})`,
    );
    this.insertBills = db.prepare(
      `INSERT INTO recommendation_bills (purchase_id, customer_id, store_id, day)
       ${jsonRows(db, { purchase_id: 'text', customer_id: 'text', store_id: 'text', day: 'integer' })}`,
    );
    this.updateBill = db.prepare('UPDATE recommendation_bills SET customer_id = ? WHERE purchase_id = ?');
    this.deleteBill = db.prepare('DELETE FROM recommendation_bills WHERE purchase_id = ?');
    const counter = (table: string, keys: Record<string, 'text' | 'integer'>) => {
      const names = Object.keys(keys).join(', ');
      return {
        add: db.prepare(
          `INSERT INTO ${table} (${names}, bills) SELECT ${names}, bills FROM (${jsonRows(db, { ...keys, bills: 'integer' })}) AS given WHERE true
           ON CONFLICT (${names}) DO UPDATE SET bills = ${table}.bills + excluded.bills`,
        ),
        dropEmpty: db.prepare(`DELETE FROM ${table} WHERE bills <= 0 AND (${names}) IN (SELECT ${names} FROM (${jsonRows(db, keys)}) AS given)`),
      };
    };
    this.counterStatements = {
      stores: counter('recommendation_store_bills', { store_id: 'text', product_id: 'text' }),
      pairs: counter('recommendation_pairs', { product_key: 'integer', other_key: 'integer' }),
    };
    // A product keeps its row, and so its key, when its bills drop to zero.
    this.addProductBills = db.prepare<[string], { product_id: string; bills: number; published_bills: number }>(
      `INSERT INTO recommendation_products (product_id, bills)
       SELECT product_id, bills FROM (${jsonRows(db, { product_id: 'text', bills: 'integer' })}) AS given WHERE true
       ON CONFLICT (product_id) DO UPDATE SET bills = recommendation_products.bills + excluded.bills
       RETURNING product_id, bills, published_bills`,
    );
    this.productKeys = db.prepare<[string], Pick<RecommendationProductsRow, 'product_id' | 'key'>>(
      `SELECT product_id, key FROM recommendation_products WHERE product_id IN (${idsIn})`,
    );
    // Weights kept as of different days are summed as of the later one.
    const profileDay = later('recommendation_profiles.as_of_day', 'excluded.as_of_day');
    this.addProfiles = db.prepare(
      `INSERT INTO recommendation_profiles (customer_id, as_of_day, bills_weight)
       SELECT customer_id, as_of_day, bills_weight FROM (${jsonRows(db, { customer_id: 'text', as_of_day: 'integer', bills_weight: 'integer' })}) AS given WHERE true
       ON CONFLICT (customer_id) DO UPDATE SET
         bills_weight = recommendation_carry(recommendation_profiles.bills_weight, recommendation_profiles.as_of_day, ${profileDay})
                      + recommendation_carry(excluded.bills_weight, excluded.as_of_day, ${profileDay}),
         as_of_day = ${profileDay}`,
    );
    const affinityDay = later('recommendation_affinities.as_of_day', 'excluded.as_of_day');
    this.addAffinities = db.prepare(
      `INSERT INTO recommendation_affinities (customer_id, key, weight, as_of_day)
       SELECT customer_id, key, weight, as_of_day FROM (${jsonRows(db, { customer_id: 'text', key: 'text', weight: 'integer', as_of_day: 'integer' })}) AS given WHERE true
       ON CONFLICT (customer_id, key) DO UPDATE SET
         weight = recommendation_carry(recommendation_affinities.weight, recommendation_affinities.as_of_day, ${affinityDay})
                + recommendation_carry(excluded.weight, excluded.as_of_day, ${affinityDay}),
         as_of_day = ${affinityDay}`,
    );
    this.dropEmptyAffinities = db.prepare(`DELETE FROM recommendation_affinities WHERE customer_id IN (${idsIn}) AND weight <= 0`);
    this.sawOrigins = db.prepare(
      `INSERT INTO recommendation_origins (node_id, covered_hlc)
       SELECT node_id, covered_hlc FROM (${jsonRows(db, { node_id: 'text', covered_hlc: 'text' })}) AS given WHERE true
       ON CONFLICT (node_id) DO UPDATE SET covered_hlc = ${later('recommendation_origins.covered_hlc', 'excluded.covered_hlc')}`,
    );
    this.markPending = db.prepare(
      `INSERT INTO recommendation_pending (kind, key) SELECT kind, key FROM (${jsonRows(db, { kind: 'text', key: 'text' })}) AS given WHERE true ON CONFLICT DO NOTHING`,
    );
    this.countPending = db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM (SELECT 1 FROM recommendation_pending LIMIT ?) AS waiting');
    this.anyPending = db.prepare('SELECT 1 FROM recommendation_pending LIMIT 1');
  }

  state(key: string): string | undefined {
    return this.readState.get(key)?.value;
  }

  setState(key: string, value: string | number): void {
    this.writeState.run(key, String(value));
  }

  clearState(key: string): void {
    this.removeState.run(key);
  }

  newestChange(): number {
    return this.newestSeq.get()!.seq;
  }

  /** Where the first count begins, before every purchase. */
  firstCountStart(): string {
    return this.purchaseWalk.start;
  }

  /** The purchases stored, for whether a first count is cheap: exact or an upper bound, counted at least up to `limit`. */
  storedPurchases(limit: number): number {
    return this.purchaseWalk.stored(limit);
  }

  /** The first count's page of at most `size` purchases after `position`; undefined when it has met every purchase. */
  purchasesAfter(position: string, size: number): PurchasesPage | undefined {
    return this.purchaseWalk.pageAfter(position, size);
  }

  linesOf(purchaseIds: string[]): PurchaseLine[] {
    return this.linesOfPurchases.all(JSON.stringify(purchaseIds));
  }

  /** Changes to purchase facts in the change feed, after `after` up to `upTo`. */
  touchingChanges(after: number, upTo: number): TouchingChange[] {
    return this.changesInRange.all(after, upTo);
  }

  /** Deletes the oldest changes up to `through`, a step's share of them. */
  forgetChangesThrough(through: number): void {
    this.forgetChanges.run(through);
  }

  recorded(purchaseIds: string[]): Map<string, RecordedBill> {
    return new Map(this.recordedBills.all(JSON.stringify(purchaseIds)).map((bill) => [bill.purchase_id, bill]));
  }

  recordBills(bills: RecordedBill[]): void {
    if (bills.length > 0) this.insertBills.run(JSON.stringify(bills.map((bill) => [bill.purchase_id, bill.customer_id, bill.store_id, bill.day])));
  }

  changeBillCustomer(purchaseId: string, customerId: string | null): void {
    this.updateBill.run(customerId, purchaseId);
  }

  forgetBill(purchaseId: string): void {
    this.deleteBill.run(purchaseId);
  }

  /** Adds to products' bills, creating the row (and key) of one that has none; each product's bills after, and when last published. */
  addBillsOfProducts(amounts: [string, number][]): Map<string, { bills: number; published_bills: number }> {
    if (amounts.length === 0) return new Map();
    return new Map(this.addProductBills.all(JSON.stringify(amounts)).map((row) => [row.product_id, row]));
  }

  /** The keys of products that have a row. */
  keysOfProducts(productIds: string[]): Map<string, number> {
    return new Map(this.productKeys.all(JSON.stringify(productIds)).map((row) => [row.product_id, row.key]));
  }

  /**
   * Adds to a bill counter (a store's product, or a pair), each row its keys then the bills
   * added, no keys twice; drops a counter taken down to zero.
   */
  addBills(counter: BillCounter, rows: [string | number, string | number, number][]): void {
    if (rows.length === 0) return;
    const statements = this.counterStatements[counter];
    statements.add.run(JSON.stringify(rows));
    const takenFrom = rows.filter((row) => row[2] < 0);
    if (takenFrom.length > 0) statements.dropEmpty.run(JSON.stringify(takenFrom.map(([one, other]) => [one, other])));
  }

  /** Adds to customers' weights, no customer twice; drops a key's weight taken down to zero. */
  addCustomerWeights(customers: CustomerWeights[]): void {
    if (customers.length === 0) return;
    this.addProfiles.run(JSON.stringify(customers.map((customer) => [customer.customerId, customer.asOfDay, customer.billsWeight])));
    const affinities = customers.flatMap((customer) => customer.weights.map(([key, weight]) => [customer.customerId, key, weight, customer.asOfDay]));
    if (affinities.length > 0) this.addAffinities.run(JSON.stringify(affinities));
    const takenFrom = customers.filter((customer) => customer.weights.some(([, weight]) => weight < 0)).map((customer) => customer.customerId);
    if (takenFrom.length > 0) this.dropEmptyAffinities.run(JSON.stringify(takenFrom));
  }

  /** Notes the newest stamp of each node's purchase facts seen, no node twice. */
  sawPurchaseFacts(newest: [string, string][]): void {
    if (newest.length > 0) this.sawOrigins.run(JSON.stringify(newest));
  }

  /** Marks model rows to publish; a row marked already stays marked once. */
  pending(rows: [PendingKind, string][]): void {
    const distinct = new Map(rows.map((row) => [`${row[0]}\u0000${row[1]}`, row]));
    if (distinct.size > 0) this.markPending.run(JSON.stringify([...distinct.values()]));
  }

  /** How many model rows wait to be published, counting up to `limit`. */
  pendingRows(limit: number): number {
    return this.countPending.get(limit)!.n;
  }

  hasPendingRows(): boolean {
    return this.anyPending.get() !== undefined;
  }
}
