/**
 * The wallet's overviews (2021 spec): what a customer earned and redeemed in an interval,
 * their balance now, and when points expire — points and credit on the same fold as every
 * other balance (src/loyalty/balance-reader.ts). The balance is the one accept-payment
 * reads. Credit never expires, so its expiration overview is always empty.
 *
 * The hub, and a store without one, hold every fact and sum those in the interval. A store
 * with a hub (answering while its hub does not) holds its own facts alone: without an
 * interval it answers the totals of every fact from the customer's state, the same as the
 * hub's; with one it leaves the sums out, as it does while the state it holds has none
 * (src/decisions/0081-offline-overview-totals.md).
 */
import type { Clock } from '../../core/clock.js';
import { invalidParam } from '../../core/errors.js';
import type { RequestContext } from '../../http/endpoint.js';
import { customerFilter } from '../../http/customer-scope.js';
import type { Totals } from '../../loyalty/balance-reader.js';
import type { Ledger } from '../../loyalty/ledger.js';
import { fromMilli, fromMinor } from '../../core/money.js';
import { formatTimestamp, parseTimestamp } from '../../core/time.js';
import type { WalletRepo } from './wallet.repo.js';
import type {
  BalanceOverviewQuery,
  CreditsOverviewAnswer,
  ExpirationOverviewAnswer,
  ExpirationOverviewQuery,
  PointsOverviewAnswer,
} from './wallet.schemas.js';

/** What the wallet knows of its node: the chain's time zone, and whether every fact of every customer is here (the hub, or a store without one). */
export interface WalletNode {
  timeZone: string;
  holdsEveryFact: boolean;
}

const FIRST = '0000';
const LAST = '9999';

export class WalletService {
  constructor(
    private readonly repo: WalletRepo,
    private readonly ledger: Ledger,
    private readonly clock: Clock,
    private readonly node: WalletNode,
  ) {}

  pointsOverview(query: BalanceOverviewQuery, context: RequestContext): PointsOverviewAnswer {
    const customerId = this.customer(query.customer_id, context);
    const available_points = fromMilli(this.ledger.balances.balancesAt(customerId, this.clock()).pointsMilli);
    if (this.node.holdsEveryFact) {
      const { from, to } = this.interval(query);
      const turnover = this.repo.pointsBetween(customerId, from, to);
      return { earned_points: fromMilli(turnover.earned), redeemed_points: fromMilli(turnover.redeemed), available_points };
    }
    const totals = this.knownTotals(customerId, query);
    if (!totals) return { available_points };
    return { earned_points: fromMilli(totals.earnedMilli), redeemed_points: fromMilli(totals.redeemedMilli), available_points };
  }

  creditsOverview(query: BalanceOverviewQuery, context: RequestContext): CreditsOverviewAnswer {
    const customerId = this.customer(query.customer_id, context);
    const available_credits = fromMinor(this.ledger.balances.balancesAt(customerId, this.clock()).creditMinor);
    if (this.node.holdsEveryFact) {
      const { from, to } = this.interval(query);
      const turnover = this.repo.creditsBetween(customerId, from, to);
      return { earned_credits: fromMinor(turnover.earned), redeemed_credits: fromMinor(turnover.redeemed), available_credits };
    }
    const totals = this.knownTotals(customerId, query);
    if (!totals) return { available_credits };
    return { earned_credits: fromMinor(totals.earnedCreditMinor), redeemed_credits: fromMinor(totals.redeemedCreditMinor), available_credits };
  }

  /**
   * At a store with a hub: the totals of every fact, read from the customer's state, when the
   * query asks for them all; undefined for an interval, whose facts of other stores it lacks.
   */
  private knownTotals(customerId: string, query: BalanceOverviewQuery): Totals | undefined {
    const { from, to } = this.interval(query);
    return from === FIRST && to === LAST ? this.ledger.balances.totals(customerId) : undefined;
  }

  /**
   * The points that expire first (on their day, in the configured zone) and those that expire
   * this month, from the fold's lots: at a store with a hub answering offline, the same as the
   * hub's, other stores' collections among them.
   */
  pointsExpiration(query: ExpirationOverviewQuery, context: RequestContext): ExpirationOverviewAnswer {
    const customerId = this.customer(query.customer_id, context);
    const now = this.clock();
    const byDay = new Map<string, number>();
    for (const { validTo, leftMilli } of this.ledger.balances.expiringAfter(customerId, now)) {
      const day = formatTimestamp(validTo, this.node.timeZone).slice(0, 10);
      byDay.set(day, (byDay.get(day) ?? 0) + leftMilli);
    }
    const days = [...byDay.keys()].sort();
    const month = formatTimestamp(now, this.node.timeZone).slice(0, 7);
    const thisMonth = days.filter((day) => day.startsWith(month)).reduce((total, day) => total + byDay.get(day)!, 0);
    const next = days[0];
    return { next_amount: fromMilli(next === undefined ? 0 : byDay.get(next)!), next_date: next ?? null, current_month_amount: fromMilli(thisMonth) };
  }

  creditsExpiration(query: ExpirationOverviewQuery, context: RequestContext): ExpirationOverviewAnswer {
    this.customer(query.customer_id, context);
    return { next_amount: 0, next_date: null, current_month_amount: 0 };
  }

  /** The customer asked about: the one named, or in the customer interface the logged-in one. */
  private customer(requested: string | undefined, context: RequestContext): string {
    const customerId = customerFilter(context, requested);
    if (customerId === undefined) throw invalidParam('customer_id', 'required');
    if (!this.repo.hasCustomer(customerId)) throw invalidParam('customer_id', 'not_found', customerId);
    return customerId;
  }

  /** The interval's first and last instants as stored text; an open end reaches every fact. */
  private interval(query: BalanceOverviewQuery): { from: string; to: string } {
    const from = query.date_from === undefined ? FIRST : this.instant(`${query.date_from} 00:00:00`, 'date_from');
    const to = query.date_to === undefined ? LAST : this.instant(`${query.date_to} 23:59:59.999`, 'date_to');
    if (from > to) throw invalidParam('date_to', 'not_allowed_value', query.date_to, 'date_to is before date_from');
    return { from, to };
  }

  private instant(text: string, field: string): string {
    const ms = parseTimestamp(text, this.node.timeZone);
    if (ms === undefined) throw invalidParam(field, 'invalid_value_format', text.slice(0, 10));
    return new Date(ms).toISOString();
  }
}
