/**
 * The chain's limits on what one store's node may do (DESIGN §5 "Authority", config
 * `authority`): per customer per day, points earned by bills, points redeemed by bills and
 * vouchers, points and credit given or taken by hand; and per node per day in all, its daily
 * totals — points and credit created, points redeemed, vouchers issued and their value,
 * customers registered, card and profile changes, returns naming no original bill. Like a card
 * issuer's floor limit, a node may go that far on its own; an operation that would take it
 * further is *held* for an operator (src/sync/hub/held-commands.ts). So a compromised store
 * cheats at its own tills within a busy store's day, not across the chain.
 *
 * Judged from the rows the hub wrote for the operation (src/sync/hub/operation-totals.ts),
 * added to what the node did that day (`node_customer_days`, `node_days`), so no judgement
 * reads a customer's records. The day is the operation's as-of day, within the days from its
 * node's last contact with the hub to today (src/sync/hub/limit-days.ts). Why:
 * src/decisions/0103-per-node-totals.md.
 */
import type { Statement } from '../../db/engine.js';
import type { Clock } from '../../core/clock.js';
import type { Config } from '../../core/config.js';
import type { Db } from '../../db/open.js';
import type { RowChange } from '../../db/write-path.js';
import { fromMilli, fromMinor, toMilli, toMinor } from '../../core/money.js';
import { LimitDays, type CountedDay } from './limit-days.js';
import { NODE_TOTAL_COLUMNS, OperationTotals, type CustomerTotals, type NodeTotals } from './operation-totals.js';

type Limits = Config['authority'];
type NodeDaily = Limits['node_daily'];

/** Each node total: its column, its key under `authority.node_daily`, what it counts, and its amounts read in the API's units. */
const NODE_TOTALS: readonly { column: keyof NodeTotals; key: keyof NodeDaily; what: string; unit: 'points' | 'money' | 'count' }[] = [
  { column: 'points_created_milli', key: 'points_created', what: 'points created', unit: 'points' },
  { column: 'credit_created_minor', key: 'credit_created', what: 'credit created', unit: 'money' },
  { column: 'points_redeemed_milli', key: 'points_redeemed', what: 'points redeemed', unit: 'points' },
  { column: 'vouchers_issued', key: 'vouchers_issued', what: 'vouchers issued', unit: 'count' },
  { column: 'voucher_value_minor', key: 'voucher_value', what: 'value of vouchers issued', unit: 'money' },
  { column: 'customers_registered', key: 'customers_registered', what: 'customers registered', unit: 'count' },
  { column: 'card_changes', key: 'card_changes', what: 'cards moved from their customer', unit: 'count' },
  { column: 'profile_changes', key: 'profile_changes', what: "customers' e-mails or phones changed", unit: 'count' },
  { column: 'returns_without_original', key: 'returns_without_original', what: 'returns naming no original bill', unit: 'count' },
];

/** A limit in the API's units as its column keeps it: thousandths of a point, minor units of money. */
const SCALED = { points: (limit: number) => toMilli(limit)!, money: (limit: number) => toMinor(limit)!, count: (limit: number) => limit };
/** A column's amount in the API's units. */
const READ = { points: (milli: number) => `${fromMilli(milli)} points`, money: (minor: number) => String(fromMinor(minor)), count: String };

export class NodeLimits {
  private readonly add: Statement<[string, string, string, number, number, number, number], CustomerTotals>;
  private readonly addToNode: Statement<NodeTotals & { node_id: string; day: string }, NodeTotals>;
  private readonly forgetCustomerDays: Statement<[string, string]>;
  private readonly forgetNodeDays: Statement<[string, string]>;
  private readonly forgetUnheardCustomerDays: Statement<[string]>;
  private readonly forgetUnheardNodeDays: Statement<[string]>;
  private readonly days: LimitDays;
  private readonly totals: OperationTotals;
  /** The node totals' limits in their columns' units. */
  private readonly nodeLimits: Map<keyof NodeTotals, number>;

  constructor(
    db: Db,
    private readonly limits: Limits,
    timeZone: string,
    clock: Clock,
  ) {
    this.days = new LimitDays(db, timeZone, clock);
    this.totals = new OperationTotals(db);
    this.nodeLimits = new Map(NODE_TOTALS.map((total) => [total.column, SCALED[total.unit](limits.node_daily[total.key])]));
    this.add = db.prepare(
      `INSERT INTO node_customer_days (node_id, customer_id, day, earned_milli, redeemed_milli, manual_milli, manual_credit_minor) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (node_id, customer_id, day) DO UPDATE SET earned_milli = node_customer_days.earned_milli + excluded.earned_milli,
         redeemed_milli = node_customer_days.redeemed_milli + excluded.redeemed_milli, manual_milli = node_customer_days.manual_milli + excluded.manual_milli,
         manual_credit_minor = node_customer_days.manual_credit_minor + excluded.manual_credit_minor
       RETURNING earned_milli, redeemed_milli, manual_milli, manual_credit_minor`,
    );
    this.addToNode = db.prepare(
      `INSERT INTO node_days (node_id, day, ${NODE_TOTAL_COLUMNS.join(', ')}) VALUES (@node_id, @day, ${NODE_TOTAL_COLUMNS.map((column) => `@${column}`).join(', ')})
       ON CONFLICT (node_id, day) DO UPDATE SET ${NODE_TOTAL_COLUMNS.map((column) => `${column} = node_days.${column} + excluded.${column}`).join(', ')}
       RETURNING ${NODE_TOTAL_COLUMNS.join(', ')}`,
    );
    this.forgetCustomerDays = db.prepare('DELETE FROM node_customer_days WHERE node_id = ? AND day < ?');
    this.forgetNodeDays = db.prepare('DELETE FROM node_days WHERE node_id = ? AND day < ?');
    const unheard = 'AND node_id NOT IN (SELECT node_id FROM sync_node_clocks)';
    this.forgetUnheardCustomerDays = db.prepare(`DELETE FROM node_customer_days WHERE day < ? ${unheard}`);
    this.forgetUnheardNodeDays = db.prepare(`DELETE FROM node_days WHERE day < ? ${unheard}`);
  }

  /**
   * Counts the operation's rows and says why they take its node past a limit, or undefined
   * when they do not. Must run in the operation's savepoint, which a limit passed takes back,
   * counts included.
   */
  judge(nodeId: string, kind: string, asOf: number, changes: readonly RowChange[]): string | undefined {
    const counted = this.days.of(nodeId, asOf);
    const { customers, node } = this.totals.of(kind, changes);
    for (const [customerId, added] of customers) {
      const after = this.add.get(
        nodeId,
        customerId,
        counted.day,
        added.earned_milli,
        added.redeemed_milli,
        added.manual_milli,
        added.manual_credit_minor,
      )!;
      const past = this.pastForCustomer(after, added);
      if (past) return `${past} for customer ${customerId} on ${describe(counted)}, past this node's limit`;
    }
    if (!node) return undefined;
    const after = this.addToNode.get({ ...node, node_id: nodeId, day: counted.day })!;
    for (const total of NODE_TOTALS) {
      const limit = this.nodeLimits.get(total.column)!;
      if (node[total.column] > 0 && after[total.column] > limit) {
        const read = READ[total.unit];
        return `${total.what}: ${read(after[total.column])} on ${describe(counted)}, past this node's daily total ${total.key} of ${read(limit)}`;
      }
    }
    return undefined;
  }

  /** Forgets the totals of the days each node may no longer count on: those before its last contact's. */
  forgetDaysGoneBy(): number {
    const { nodes, today } = this.days.firstDays();
    let forgotten = this.forgetUnheardCustomerDays.run(today).changes + this.forgetUnheardNodeDays.run(today).changes;
    for (const { nodeId, day } of nodes) forgotten += this.forgetCustomerDays.run(nodeId, day).changes + this.forgetNodeDays.run(nodeId, day).changes;
    return forgotten;
  }

  /** What the day's totals, with the operation's `added`, pass of the per-customer limits. */
  private pastForCustomer(after: CustomerTotals, added: CustomerTotals): string | undefined {
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

/** The day counted on, with the day the operation was made on when it was moved. */
function describe(counted: CountedDay): string {
  if (!counted.moved) return counted.day;
  const onto = counted.moved === 'today' ? 'today' : "its node's last contact day";
  return `${counted.day} (made on ${counted.asOfDay}, counted on ${onto})`;
}
