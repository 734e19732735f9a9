/**
 * The chain's limits on what one store's node may do to one customer per day (DESIGN §5
 * "Authority", config `authority`): points earned by bills, points redeemed by bills and
 * vouchers, points and credit given or taken by hand. Like a card issuer's floor limit, a
 * node may go that far on its own; an operation that would take it further is *held* for an
 * operator (src/sync/hub/held-commands.ts). So a compromised store cheats at its own tills, not
 * across the chain.
 *
 * Judged from the rows the hub wrote for the operation, added to what the node gave the
 * customer that day (`node_customer_days`, the day of the operation's as-of time in the
 * chain's time zone), so no judgement reads a customer's records. An operation whose as-of
 * time is before yesterday (a store back after days offline, a clock a year behind, or a
 * node claiming days gone by) counts on yesterday: the as-of time is the store's to say, and
 * counted on its own day each day before would be a day's limit of its own, forgotten the
 * hour after by the compaction, which keeps the totals from yesterday on. So a node gives a
 * customer at most a day's limit for each day the hub lives through, and one more.
 * Why: src/decisions/0099-limits-of-days-gone-by.md.
 */
import type { Statement } from 'better-sqlite3';
import type { Clock } from '../../core/clock.js';
import type { Config } from '../../core/config.js';
import type { Db } from '../../db/open.js';
import type { RowChange } from '../../db/write-path.js';
import { fromMilli, fromMinor, toMilli, toMinor } from '../../core/money.js';
import { formatTimestamp } from '../../core/time.js';

/** The kinds whose records are given or taken by hand; the others' are earned and redeemed by bills and vouchers. */
const MANUAL_KINDS = new Set(['points.assign', 'points.reduce', 'points.transfer', 'credits.deposit', 'credits.reduce', 'credits.transfer']);

interface DayTotals {
  earned_milli: number;
  redeemed_milli: number;
  manual_milli: number;
  manual_credit_minor: number;
}

type Limits = Config['authority'];

const DAY_MS = 86_400_000;

export class NodeLimits {
  private readonly add: Statement<[string, string, string, number, number, number, number], DayTotals>;
  private readonly forgetBefore: Statement<[string]>;
  /** The last day computed of an operation's as-of time and of yesterday, each for its minute. */
  private readonly lastDays: Record<'asOf' | 'yesterday', { minute: number; day: string } | undefined> = { asOf: undefined, yesterday: undefined };

  constructor(
    db: Db,
    private readonly limits: Limits,
    private readonly timeZone: string,
    private readonly clock: Clock,
  ) {
    this.add = db.prepare(
      `INSERT INTO node_customer_days (node_id, customer_id, day, earned_milli, redeemed_milli, manual_milli, manual_credit_minor) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (node_id, customer_id, day) DO UPDATE SET earned_milli = earned_milli + excluded.earned_milli,
         redeemed_milli = redeemed_milli + excluded.redeemed_milli, manual_milli = manual_milli + excluded.manual_milli,
         manual_credit_minor = manual_credit_minor + excluded.manual_credit_minor
       RETURNING earned_milli, redeemed_milli, manual_milli, manual_credit_minor`,
    );
    this.forgetBefore = db.prepare('DELETE FROM node_customer_days WHERE day < ?');
  }

  /**
   * Counts the operation's rows and says why they take its node past a limit, or undefined
   * when they do not. Must run in the operation's savepoint, which a limit passed takes back,
   * counts included.
   */
  judge(nodeId: string, kind: string, asOf: number, changes: readonly RowChange[]): string | undefined {
    const asOfDay = this.dayOf(asOf, 'asOf');
    const yesterday = this.dayOf(this.clock() - DAY_MS, 'yesterday');
    const day = asOfDay < yesterday ? yesterday : asOfDay;
    for (const [customerId, added] of totalsOf(kind, changes)) {
      const after = this.add.get(nodeId, customerId, day, added.earned_milli, added.redeemed_milli, added.manual_milli, added.manual_credit_minor)!;
      const past = this.past(after, added);
      if (!past) continue;
      const counted = day === asOfDay ? day : `${day} (made on ${asOfDay}, counted on yesterday)`;
      return `${past} for customer ${customerId} on ${counted}, past this node's limit`;
    }
    return undefined;
  }

  /** Forgets the totals of the days before the day of `instant` (a day ago: yesterday's are kept, as `judge` counts on them). */
  forgetDaysBefore(instant: number): number {
    return this.forgetBefore.run(formatTimestamp(instant, this.timeZone).slice(0, 10)).changes;
  }

  /**
   * The day of an instant in the chain's time zone, kept for its minute: a push's operations
   * mostly share a minute, and a day always begins on one.
   */
  private dayOf(instant: number, of: 'asOf' | 'yesterday'): string {
    const minute = Math.floor(instant / 60_000);
    const kept = this.lastDays[of];
    if (kept?.minute === minute) return kept.day;
    const day = formatTimestamp(instant, this.timeZone).slice(0, 10);
    this.lastDays[of] = { minute, day };
    return day;
  }

  /** What the day's totals, with the operation's `added`, pass of the limits. */
  private past(after: DayTotals, added: DayTotals): string | undefined {
    const points = (milli: number) => `${fromMilli(milli)} points`;
    const limits = this.limits;
    if (added.earned_milli > 0 && after.earned_milli > toMilli(limits.earned_points_per_customer_day)!) return `${points(after.earned_milli)} earned`;
    if (added.redeemed_milli > 0 && after.redeemed_milli > toMilli(limits.redeemed_points_per_customer_day)!)
      return `${points(after.redeemed_milli)} redeemed`;
    if (added.manual_milli > 0 && after.manual_milli > toMilli(limits.manual_points_per_customer_day)!)
      return `${points(after.manual_milli)} given or taken by hand`;
    if (added.manual_credit_minor > 0 && after.manual_credit_minor > toMinor(limits.manual_credit_per_customer_day)!) {
      return `${fromMinor(after.manual_credit_minor)} in credit given or taken by hand`;
    }
    return undefined;
  }
}

function totalsOf(kind: string, changes: readonly RowChange[]): Map<string, DayTotals> {
  const manual = MANUAL_KINDS.has(kind);
  const totals = new Map<string, DayTotals>();
  for (const change of changes) {
    if (change.op !== 'insert' || !change.row) continue;
    const customerId = change.row.customer_id;
    if (typeof customerId !== 'string') continue;
    const entry = totals.get(customerId) ?? { earned_milli: 0, redeemed_milli: 0, manual_milli: 0, manual_credit_minor: 0 };
    if (change.entity === 'point_records') {
      const milli = Number(change.row.points_milli);
      if (manual) entry.manual_milli += milli;
      else if (change.row.kind === 'collection') entry.earned_milli += milli;
      else entry.redeemed_milli += milli;
    } else if (change.entity === 'credit_records' && manual) {
      entry.manual_credit_minor += Number(change.row.amount_minor);
    } else {
      continue;
    }
    totals.set(customerId, entry);
  }
  return totals;
}
