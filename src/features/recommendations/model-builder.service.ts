/**
 * Builds the recommendation model incrementally on the node that owns it — the hub, or a
 * store with no hub. The first run counts every purchase, a page at a time; from then on
 * the builder follows the change feed after its cursor and recounts each purchase a change
 * touched (a new bill, a customer assigned later, a cancellation of it). A purchase's
 * recorded state makes recounting idempotent. Then it publishes the model rows whose
 * inputs changed. Each page, batch or publication is one transaction, and API calls are
 * served between them. On a store with no hub the builder is the feed's one reader, so the
 * changes it has followed go as it follows them.
 */
import type { Db } from '../../db/open.js';
import type { ModelAccumulatorsRepo, PendingKind, RecordedBill } from './model-accumulators.repo.js';
import { ModelDelta } from './model-delta.js';
import type { ModelPublisher } from './model-publisher.js';
import { CHAIN } from './model-rows.schemas.js';
import { billsOf, type CountedBill } from './purchase-lines.js';

/**
 * Pages of the first count are large: each page's pair counts land all over that table, and
 * each transaction writes every page it touched once more to the write-ahead log.
 */
const PURCHASES_PER_PAGE = 50_000;
/**
 * Small, so that the step budget below is checked often: a purchase at the cash desk makes
 * about ten changes, and recounting one bill of five items updates some thirty counters
 * on pages all over their tables — with 200 changes a batch, a hub taking 100 bills a
 * second ran steps of 40–80 ms (checkout bench: send-purchase p99 23 ms).
 */
const CHANGES_PER_BATCH = 20;
const ROWS_PER_PUBLISH = 2_000;
/**
 * Following the feed and publishing, a step takes more work only while it has run less
 * than this and no call waits for the thread (`callsWaiting`: handed to it, or committed and
 * waiting for its flush): the thread answers no call during a step, and a hub or a store
 * with no hub closing 100 bills a second would otherwise make a send-purchase wait for the
 * recount of earlier bills (checkout bench: send-purchase p99 16 ms with whole seconds of
 * bills a step; with steps of 5 ms, 21 ms on a chain that had taken thousands of bills,
 * 15–19 ms with 2 ms).
 */
const STEP_BUDGET_MS = 2;
/** Catching up before an answer is done only when at most this many changes and model rows wait. */
const ON_DEMAND_LIMIT = 2_000;

export interface BuilderLog {
  error(fields: object, message: string): void;
}

/** What a builder is built with besides its tables. */
export interface ModelBuilderOptions {
  /** Whether a call waits for this thread (FeaturePorts.callsWaiting). */
  callsWaiting?: () => boolean;
  /** Whether the change feed is served to stores (the hub's), or read by the builder alone. */
  feedServed: boolean;
}

export class ModelBuilder {
  private running = false;
  private readonly callsWaiting: () => boolean;
  private readonly feedServed: boolean;

  constructor(
    private readonly db: Db,
    private readonly accumulators: ModelAccumulatorsRepo,
    private readonly publisher: ModelPublisher,
    options: ModelBuilderOptions,
  ) {
    this.callsWaiting = options.callsWaiting ?? (() => false);
    this.feedServed = options.feedServed;
  }

  /** Builds on a timer until stopped or the node closes its database; returns the stop. */
  schedule(intervalMs: number, log: BuilderLog): () => void {
    const timer = setInterval(() => {
      if (!this.db.open) {
        clearInterval(timer);
        return;
      }
      this.run().catch((error: unknown) => log.error({ err: error }, 'recommendation model build failed'));
    }, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Does all pending work, yielding to the event loop between steps. */
  async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.db.open && this.step()) await new Promise((resolve) => setImmediate(resolve));
    } finally {
      this.running = false;
    }
  }

  /**
   * Brings the model up to date now when little is left to do, so an answer sees the latest
   * bills. Steps are whole transactions, so this may run between two steps of a timed run.
   */
  catchUpIfCheap(): void {
    if (!this.hasHistoryToCount() && !this.accumulators.hasPendingRows()) return;
    const cursor = this.accumulators.state('cursor');
    const backlog =
      cursor === undefined
        ? this.accumulators.storedPurchases(ON_DEMAND_LIMIT + 1)
        : this.accumulators.state('rebuilt_to') !== undefined
          ? Infinity
          : this.accumulators.newestChange() - Number(cursor);
    if (backlog > ON_DEMAND_LIMIT || this.accumulators.pendingRows(ON_DEMAND_LIMIT + 1) > ON_DEMAND_LIMIT) return;
    while (this.step());
  }

  /** One unit of work in one transaction; false when there was nothing left to do. */
  step(): boolean {
    if (this.hasHistoryToCount()) {
      this.db.transaction(() => {
        if (!(this.startBuild() || this.countPage())) this.followFeed();
        // Changes up to the cursor are counted: by the first count, or followed.
        if (!this.feedServed) this.accumulators.forgetChangesThrough(Number(this.accumulators.state('cursor')));
      })();
      return true;
    }
    return this.publisher.publish(ROWS_PER_PUBLISH, Number(this.accumulators.state('bills') ?? 0), this.stepDone()) > 0;
  }

  /** Whether a step begun now has done enough: its budget spent, or a call waiting for the thread. */
  private stepDone(): () => boolean {
    const deadline = performance.now() + STEP_BUDGET_MS;
    return () => performance.now() >= deadline || this.callsWaiting();
  }

  private hasHistoryToCount(): boolean {
    const cursor = this.accumulators.state('cursor');
    return cursor === undefined || this.accumulators.state('rebuilt_to') !== undefined || this.accumulators.newestChange() > Number(cursor);
  }

  /**
   * A first run counts every purchase already stored, then follows the feed from where it
   * stood when the count began: purchases made meanwhile are met twice, and counted once.
   */
  private startBuild(): boolean {
    if (this.accumulators.state('cursor') !== undefined) return false;
    this.accumulators.setState('cursor', this.accumulators.newestChange());
    this.accumulators.setState('rebuilt_to', this.accumulators.firstCountStart());
    return true;
  }

  private countPage(): boolean {
    const rebuiltTo = this.accumulators.state('rebuilt_to');
    if (rebuiltTo === undefined) return false;
    const page = this.accumulators.purchasesAfter(rebuiltTo, PURCHASES_PER_PAGE);
    if (page === undefined) {
      this.accumulators.clearState('rebuilt_to');
      return true;
    }
    const delta = new ModelDelta();
    const bills = billsOf(page.lines);
    for (const bill of bills) delta.saw(bill.hlc);
    this.recount(bills, delta);
    this.accumulators.setState('rebuilt_to', page.next);
    return true;
  }

  private followFeed(): boolean {
    let cursor = Number(this.accumulators.state('cursor'));
    const newest = this.accumulators.newestChange();
    if (newest <= cursor) return false;
    const done = this.stepDone();
    do {
      const upTo = Math.min(newest, cursor + CHANGES_PER_BATCH);
      this.followChanges(cursor, upTo);
      cursor = upTo;
    } while (cursor < newest && !done());
    this.accumulators.setState('cursor', cursor);
    return true;
  }

  private followChanges(after: number, upTo: number): void {
    const delta = new ModelDelta();
    const touched = new Set<string>();
    for (const change of this.accumulators.touchingChanges(after, upTo)) {
      delta.saw(change.hlc);
      const purchaseId = change.entity === 'purchases' ? change.entity_id : change.purchase_id;
      if (purchaseId) touched.add(purchaseId);
      if (change.cancels_purchase_id) touched.add(change.cancels_purchase_id);
    }
    if (touched.size > 0) this.recount(billsOf(this.accumulators.linesOf([...touched])), delta);
    else this.save(delta);
  }

  /** Counts each bill as it now stands, against how it was counted before. */
  private recount(bills: CountedBill[], delta: ModelDelta): void {
    const recorded = this.accumulators.recorded(bills.map((bill) => bill.purchaseId));
    const newlyCounted: RecordedBill[] = [];
    for (const bill of bills) {
      const before = recorded.get(bill.purchaseId);
      if (bill.counts && !before) {
        delta.count(bill, bill.customerId, 1);
        newlyCounted.push({ purchase_id: bill.purchaseId, customer_id: bill.customerId, store_id: bill.storeId, day: bill.day });
      } else if (!bill.counts && before) {
        delta.count({ ...bill, storeId: before.store_id, day: before.day }, before.customer_id, -1);
        this.accumulators.forgetBill(bill.purchaseId);
      } else if (bill.counts && before && before.customer_id !== bill.customerId) {
        if (before.customer_id) delta.countForCustomer({ ...bill, day: before.day }, before.customer_id, -1);
        if (bill.customerId) delta.countForCustomer(bill, bill.customerId, 1);
        this.accumulators.changeBillCustomer(bill.purchaseId, bill.customerId);
      }
    }
    this.accumulators.recordBills(newlyCounted);
    this.save(delta);
  }

  /**
   * Adds a batch's delta to the accumulators and marks the model rows it changes, a statement
   * a table. Counters are written in key order, so that each page of their indexes is written
   * once a batch.
   */
  private save(delta: ModelDelta): void {
    const { accumulators } = this;
    const products = [...delta.products].sort(byKey);
    const counted = accumulators.addBillsOfProducts(products);
    const pending: [PendingKind, string][] = [];
    for (const [product, bills] of products) {
      const now = counted.get(product)!;
      if (bills !== 0 && neighboursMayHaveMoved(now.bills, now.published_bills)) pending.push(['product', product]);
    }
    const keys = accumulators.keysOfProducts(products.map(([product]) => product));
    const pairs: [number, number, number][] = [];
    for (const [product, others] of delta.pairs) {
      for (const [other, bills] of others) if (bills !== 0) pairs.push([keys.get(product)!, keys.get(other)!, bills]);
    }
    accumulators.addBills(
      'pairs',
      pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]),
    );
    const sold: [string, string, number][] = [];
    for (const [store, products] of [...delta.stores].sort(byKey)) {
      for (const [product, bills] of [...products].sort(byKey)) if (bills !== 0) sold.push([store, product, bills]);
      pending.push(['store', store], ['store', CHAIN]);
    }
    accumulators.addBills('stores', sold);
    const customers = [...delta.customers].sort(byKey);
    accumulators.addCustomerWeights(
      customers.map(([customerId, affinity]) => ({
        customerId,
        asOfDay: affinity.asOfDay,
        billsWeight: affinity.billsWeight,
        weights: [...affinity.weights].sort(byKey),
      })),
    );
    for (const [customer] of customers) pending.push(['customer', customer]);
    accumulators.sawPurchaseFacts([...delta.origins]);
    for (const [node] of delta.origins) pending.push(['origin', node]);
    accumulators.pending(pending);
    if (delta.bills !== 0) accumulators.setState('bills', Number(accumulators.state('bills') ?? 0) + delta.bills);
  }
}

/**
 * A product's neighbours are recomputed once its bills moved by 1 % since they were last
 * published. Below that their cosines, kept to two significant digits, hardly change — and a
 * best seller, in a bill every second, would otherwise be recomputed every batch. A rare
 * product is recomputed with every bill, since each moves it by more than 1 %.
 */
function neighboursMayHaveMoved(bills: number, publishedBills: number): boolean {
  return Math.abs(bills - publishedBills) * 100 >= publishedBills;
}

function byKey(a: [string, unknown], b: [string, unknown]): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}
