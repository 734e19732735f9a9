/**
 * The hub publishes each customer's compacted state (customer_states) in the
 * transaction that changes their point or credit records: the fold of their point records up
 * to a horizon (its lots, one per expiry, and its debt) and the point facts after it (the
 * tail), the credit balance up to the horizon and the credit facts after it. Stores fold on
 * from it with their own facts the state does not hold (src/loyalty/balance-reader.ts).
 *
 * A store without a hub publishes its own customers' states the same way, folded up to its
 * newest stamp: it is the one node that makes its facts, so none can arrive before that stamp
 * later, and a card's balance is read from a lot per expiry instead of a fact per bill.
 *
 * The horizon is the oldest stamp a store reported having pushed everything up to (its
 * pushed-through stamp, reported at its bootstrap and with every pull), among the stores
 * heard from within the offline age: any fact a store has not pushed yet is stamped after
 * it, so merging a store's later facts into the tail gives the HLC order of all facts, and a
 * store takes its own facts at or before a state's horizon as folded into it. A store silent
 * for longer (it has stopped redeeming, DESIGN §5) no longer holds the horizon back: until its
 * round pushes what it holds, states it pulls may fold past its unpushed facts, which its
 * balance then misses, and it may be inexact in the order of old expiring lots; the states
 * published after its push are exact again. The hub's offline age must be at least the
 * stores' (both default to 24 h).
 *
 * A state with a tail is published again once the horizon has passed its first fact
 * (settle): the tail folds into the lots, so a state row at rest holds a lot per expiry, not
 * a fact per bill.
 *
 * A state is folded on from the one published before, with the facts stamped after that one's
 * horizon, as a store folds on from it: the lots, merged by expiry, fold on to the same
 * balances. A fold from every fact read all the customer's records each time, and each bill of
 * a card used at every till (a house card) cost the hub more than the one before: 45 ms a
 * publish at 10,000 facts. The state is folded from every fact again when that does not hold:
 * a write changed a record, or inserted one stamped at or before the published horizon (a
 * store silent past the offline age), or the horizon moved back (such a store reported again),
 * or the state published before has no sums (one published before states carried them).
 *
 * A state also sums what the customer's live records up to its horizon earned and redeemed, of
 * points and of credit (its totals), folded on as the lots are, so that a store answers the
 * wallet's overviews with the chain's totals while its hub is down (src/loyalty/balance-reader.ts).
 */
import type { Statement } from '../db/engine.js';
import type { Db } from '../db/open.js';
import type { CustomerStatesRow } from '../db/tables.generated.js';
import type { WriteTransaction, WrittenRow } from '../db/write-path.js';
import { msOfStamp } from '../core/hlc.js';
import { EMPTY_FOLD, foldFrom, mergedByExpiry } from './ledger-fold.js';
import {
  creditOfRecord,
  creditRecordsAfter,
  decodeLots,
  encodeCredits,
  encodeLots,
  encodePointFacts,
  factOfRecord,
  pointRecordsAfter,
  type PointFactRecord,
} from './stored-facts.js';

/** Lots that expired this long before the horizon can no longer be taken by a later fact, and are dropped. */
const EXPIRED_LOT_KEPT_MS = 7 * 86_400_000;

/** What a customer's live records earned and redeemed up to a state's horizon; null on a state published before states carried them. */
type StateTotals = Pick<CustomerStatesRow, 'earned_milli' | 'redeemed_milli' | 'earned_credit_minor' | 'redeemed_credit_minor'>;

/** The published state a customer's next one is folded on from. */
interface Published extends StateTotals {
  horizon: string;
  lots: string;
  debt_milli: number;
  credit_minor: number;
}

/**
 * Per customer whose records a write touched, the oldest stamp of the records it inserted;
 * '' (before every stamp) when it changed or moved one, which folds the state from every fact.
 */
export type TouchedRecords = Map<string, string>;

export class CustomerStates {
  private readonly facts: Statement<[string, string], PointFactRecord>;
  private readonly credits: Statement<[string, string], { id: string; signed_minor: number; hlc: string }>;
  private readonly published: Statement<[string], Published>;
  private readonly unpublished: Statement<[number], string>;
  private readonly keepTail: Statement<[string, string]>;
  private readonly dropTail: Statement<[string]>;
  private readonly unsettled: Statement<[string, number], string>;
  private readonly unsummed: Statement<[number], string>;
  private readonly unsummedCounted: Statement<[], number>;
  private gathered: TouchedRecords | undefined;

  /** `horizon` gives the stamp a state is folded up to: the hub's Horizon (src/loyalty/horizon.ts), or a store's own newest. */
  constructor(
    db: Db,
    private readonly horizonNow: () => string,
  ) {
    this.facts = pointRecordsAfter(db);
    this.credits = creditRecordsAfter(db);
    this.published = db.prepare(
      'SELECT horizon, lots, debt_milli, credit_minor, earned_milli, redeemed_milli, earned_credit_minor, redeemed_credit_minor FROM customer_states WHERE id = ?',
    );
    this.unpublished = db
      .prepare<[number], string>(
        `SELECT owner.customer_id FROM (SELECT customer_id FROM point_records UNION SELECT customer_id FROM credit_records) AS owner
         WHERE NOT EXISTS (SELECT 1 FROM customer_states s WHERE s.id = owner.customer_id) LIMIT ?`,
      )
      .pluck();
    this.keepTail = db.prepare(
      'INSERT INTO customer_state_tails (customer_id, first_stamp) VALUES (?, ?) ON CONFLICT (customer_id) DO UPDATE SET first_stamp = excluded.first_stamp',
    );
    this.dropTail = db.prepare('DELETE FROM customer_state_tails WHERE customer_id = ?');
    this.unsettled = db
      .prepare<[string, number], string>('SELECT customer_id FROM customer_state_tails WHERE first_stamp <= ? ORDER BY first_stamp LIMIT ?')
      .pluck();
    this.unsummed = db.prepare<[number], string>('SELECT id FROM customer_states WHERE earned_milli IS NULL LIMIT ?').pluck();
    this.unsummedCounted = db.prepare<[], number>('SELECT count(*) FROM customer_states WHERE earned_milli IS NULL').pluck();
  }

  /**
   * Runs `work` with the publishing of the writes inside it gathered (`gather`) and done once
   * at its end, in a write of its own: a batch of a store's commands publishes each customer
   * once. Only for work that reads no balance it changed.
   */
  publishingOnce<T>(writes: { write(command: null, work: (tx: WriteTransaction) => void): void }, work: () => T): T {
    const outer = this.gathered;
    const gathered: TouchedRecords = new Map();
    this.gathered = gathered;
    try {
      const value = work();
      if (gathered.size > 0) writes.write(null, (tx) => this.publish(tx, gathered.keys(), gathered));
      return value;
    } finally {
      this.gathered = outer;
    }
  }

  /** Publishes the customers a write touched now, or gathers them while publishingOnce runs. */
  publishTouched(tx: WriteTransaction, touched: TouchedRecords): void {
    if (touched.size === 0) return;
    if (this.gathered) this.gather(touched);
    else this.publish(tx, touched.keys(), touched);
  }

  /** Adds customers to those publishingOnce publishes at its end; only while it runs. */
  gather(touched: TouchedRecords): void {
    if (!this.gathered) throw new Error('customer states are gathered only while publishingOnce runs');
    for (const [customer, stamp] of touched) {
      const known = this.gathered.get(customer);
      if (known === undefined || stamp < known) this.gathered.set(customer, stamp);
    }
  }

  /** The customers whose point or credit records these changes touched, added to `into` (TouchedRecords). */
  static touched(
    changes: readonly { entity: string; op: string; row: Record<string, unknown> | null; hlc: string }[],
    into: TouchedRecords = new Map(),
  ): TouchedRecords {
    for (const change of changes) {
      if (change.entity !== 'point_records' && change.entity !== 'credit_records') continue;
      const customer = change.row?.customer_id;
      if (typeof customer !== 'string') continue;
      const stamp = change.op === 'insert' ? change.hlc : '';
      const known = into.get(customer);
      if (known === undefined || stamp < known) into.set(customer, stamp);
    }
    return into;
  }

  /**
   * Writes the current state of each customer, folded on from the one published before unless
   * `touched` says a write changed what that one folded. Must run inside the write's transaction.
   */
  publish(tx: WriteTransaction, customers: Iterable<string>, touched: TouchedRecords = new Map()): void {
    const horizon = this.horizon();
    for (const customerId of customers) {
      const published = this.published.get(customerId);
      const oldest = touched.get(customerId);
      const foldsOn = published && summed(published) && published.horizon <= horizon && (oldest === undefined || oldest > published.horizon);
      const from = foldsOn ? published : undefined;
      const { row, firstAfter } = this.stateOf(customerId, horizon, from);
      if (published) tx.update('customer_states', customerId, row);
      else tx.insert('customer_states', { id: customerId, ...row });
      if (firstAfter === undefined) this.dropTail.run(customerId);
      else this.keepTail.run(customerId, firstAfter);
    }
  }

  /** Customers whose state has a tail the horizon has passed, oldest first, up to `limit`: publishing them again settles it. */
  unsettledCustomers(limit: number): string[] {
    return this.unsettled.all(this.horizon(), limit);
  }

  /** Customers whose state has no sums (published before states carried them), up to `limit`: publishing them again sums them. */
  unsummedCustomers(limit: number): string[] {
    return this.unsummed.all(limit);
  }

  /** How many states have no sums. */
  unsummedCount(): number {
    return this.unsummedCounted.get()!;
  }

  /** Customers with records and no state yet (a hub upgraded from a release before customer states), up to `limit`. */
  unpublishedCustomers(limit: number): string[] {
    return this.unpublished.all(limit);
  }

  /** The stamp states are folded up to now. */
  horizon(): string {
    return this.horizonNow();
  }

  /** The state at `horizon`, folded on from `from` with the facts stamped after it, or from every fact. */
  private stateOf(
    customerId: string,
    horizon: string,
    from: Published | undefined,
  ): { row: Omit<WrittenRow<'customer_states'>, 'id'>; firstAfter: string | undefined } {
    const after = from?.horizon ?? '';
    const records = this.facts.all(customerId, after);
    const folded = records.filter((record) => record.hlc <= horizon);
    const tail = records.filter((record) => record.hlc > horizon);
    const start = from ? { lots: decodeLots(from.lots), debtMilli: from.debt_milli } : EMPTY_FOLD;
    const { state } = foldFrom(start, folded.map(factOfRecord));
    const keptFrom = msOfStamp(horizon) - EXPIRED_LOT_KEPT_MS;
    const lots = mergedByExpiry(state.lots).filter((lot) => lot.valid_to === null || lot.valid_to > keptFrom);
    const credits = this.credits.all(customerId, after).map(creditOfRecord);
    const creditTail = credits.filter((credit) => credit.hlc > horizon);
    const firstAfter = [tail[0]?.hlc, creditTail[0]?.hlc].filter((stamp) => stamp !== undefined).sort()[0];
    const creditsFolded = credits.filter((credit) => credit.hlc <= horizon);
    const row = {
      horizon,
      lots: encodeLots(lots),
      debt_milli: state.debtMilli,
      tail: encodePointFacts(tail),
      credit_minor: creditsFolded.reduce((sum, credit) => sum + credit.signedMinor, from?.credit_minor ?? 0),
      credit_tail: encodeCredits(creditTail),
      earned_milli: sumOf(folded, (record) => (record.kind === 'collection' ? record.points_milli : 0), from?.earned_milli),
      redeemed_milli: sumOf(folded, (record) => (record.kind === 'redemption' ? record.points_milli : 0), from?.redeemed_milli),
      earned_credit_minor: sumOf(creditsFolded, (credit) => Math.max(credit.signedMinor, 0), from?.earned_credit_minor),
      redeemed_credit_minor: sumOf(creditsFolded, (credit) => Math.max(-credit.signedMinor, 0), from?.redeemed_credit_minor),
    };
    return { row, firstAfter };
  }
}

/** Whether a published state has its sums, which a state folded on from it adds to. */
function summed(published: StateTotals): boolean {
  return (
    published.earned_milli !== null &&
    published.redeemed_milli !== null &&
    published.earned_credit_minor !== null &&
    published.redeemed_credit_minor !== null
  );
}

/** `start` (0 when none) plus what `amount` gives of each item. */
function sumOf<T>(items: readonly T[], amount: (item: T) => number, start: number | null | undefined): number {
  return items.reduce((sum, item) => sum + amount(item), start ?? 0);
}
