/**
 * What one operation the hub ran again adds to its node's daily totals and to each customer's
 * (src/sync/hub/node-limits.ts), read from the rows the hub wrote for it:
 *
 * - points created: collections not linked to another record — earned by bills, assigned by
 *   hand; points redeemed: redemptions not linked to another — paid with on bills, vouchers'
 *   costs, taken by hand and by returns. A transfer's two records and a cancellation's
 *   reversals are linked: they move or give back points, and create none.
 * - credit created: credit collections not linked to another — deposited by hand, earned back
 *   on a bill's money (src/loyalty/credit-back.ts).
 * - vouchers issued, and their value; customers registered: the rows inserted.
 * - returns without original: a purchase with a returned item (a negative quantity) or a
 *   cancellation that names no original purchase.
 * - card changes and profile changes: a card moved from its customer, a customer's e-mail or
 *   phone changed. A replicated update carries only the row as it became, so two triggers note
 *   such updates made on the hub's connection, with the stamp they wrote, in a temporary table;
 *   an operation counts those whose row and stamp are among its own changes. The table is
 *   emptied at each count, and a savepoint taken back takes its notes back with it.
 */
import type { Statement } from '../../db/engine.js';
import { spelt, type Dialect } from '../../db/dialect.js';
import type { Db } from '../../db/open.js';
import type { RowChange } from '../../db/write-path.js';
import type { NodeDaysRow } from '../../db/tables.generated.js';

/** The kinds whose records are given or taken by hand; the others' are earned and redeemed by bills and vouchers. */
const MANUAL_KINDS = new Set(['points.assign', 'points.reduce', 'points.transfer', 'credits.deposit', 'credits.reduce', 'credits.transfer']);

/** What an operation adds to one customer's day at its node. */
export interface CustomerTotals {
  earned_milli: number;
  redeemed_milli: number;
  manual_milli: number;
  manual_credit_minor: number;
}

/** What an operation adds to its node's day, one field to a column of `node_days`. */
export type NodeTotals = Omit<NodeDaysRow, 'node_id' | 'day'>;

export const NODE_TOTAL_COLUMNS = [
  'points_created_milli',
  'credit_created_minor',
  'points_redeemed_milli',
  'vouchers_issued',
  'voucher_value_minor',
  'customers_registered',
  'card_changes',
  'profile_changes',
  'returns_without_original',
] as const satisfies readonly (keyof NodeTotals)[];

/**
 * The temporary table and its triggers. SQLite's triggers are temporary too, the connection's
 * own. PostgreSQL has no temporary trigger: its two are the tables', made by a migration
 * (src/db/migrations/0032-operation-totals-triggers.ts), and note an update in the temporary
 * table of the connection that made one, which no other connection has.
 */
const NOTED_UPDATES_SQL: Record<Dialect, string> = {
  sqlite: `
CREATE TEMP TABLE IF NOT EXISTS limit_noted_updates (entity TEXT NOT NULL, entity_id TEXT NOT NULL, hlc TEXT NOT NULL);
CREATE TEMP TRIGGER IF NOT EXISTS limit_card_moved AFTER UPDATE OF customer_id ON main.cards
  WHEN NEW.customer_id IS NOT OLD.customer_id
  BEGIN INSERT INTO limit_noted_updates (entity, entity_id, hlc) VALUES ('cards', NEW.id, NEW.hlc); END;
CREATE TEMP TRIGGER IF NOT EXISTS limit_profile_changed AFTER UPDATE OF email, phone ON main.customers
  WHEN NEW.email IS NOT OLD.email OR NEW.phone IS NOT OLD.phone
  BEGIN INSERT INTO limit_noted_updates (entity, entity_id, hlc) VALUES ('customers', NEW.id, NEW.hlc); END;
`,
  postgres: `CREATE TEMP TABLE IF NOT EXISTS limit_noted_updates (entity TEXT NOT NULL, entity_id TEXT NOT NULL, hlc TEXT NOT NULL);`,
};

export class OperationTotals {
  private readonly noted: Statement<[], { entity: string; entity_id: string; hlc: string }>;
  private readonly forgetNoted: Statement;

  constructor(db: Db) {
    db.exec(spelt(db, NOTED_UPDATES_SQL));
    this.noted = db.prepare('SELECT entity, entity_id, hlc FROM limit_noted_updates');
    this.forgetNoted = db.prepare('DELETE FROM limit_noted_updates');
  }

  /** What the operation's changes add, per customer and to its node; undefined for the node when it adds nothing. */
  of(kind: string, changes: readonly RowChange[]): { customers: Map<string, CustomerTotals>; node: NodeTotals | undefined } {
    const node = { ...nodeTotalsOf(changes), ...this.notedUpdatesOf(changes) };
    return { customers: customerTotalsOf(kind, changes), node: NODE_TOTAL_COLUMNS.some((column) => node[column] !== 0) ? node : undefined };
  }

  /** The card and profile changes among the operation's own updates; every note is then forgotten. */
  private notedUpdatesOf(changes: readonly RowChange[]): Pick<NodeTotals, 'card_changes' | 'profile_changes'> {
    const counted = { card_changes: 0, profile_changes: 0 };
    const notes = this.noted.all();
    if (notes.length === 0) return counted;
    this.forgetNoted.run();
    const own = new Set(changes.filter((change) => change.op === 'update').map((change) => `${change.entity} ${change.entity_id} ${change.hlc}`));
    const rows = new Set(
      notes.filter((note) => own.has(`${note.entity} ${note.entity_id} ${note.hlc}`)).map((note) => `${note.entity} ${note.entity_id}`),
    );
    for (const row of rows) {
      if (row.startsWith('cards ')) counted.card_changes += 1;
      else counted.profile_changes += 1;
    }
    return counted;
  }
}

function nodeTotalsOf(changes: readonly RowChange[]): Omit<NodeTotals, 'card_changes' | 'profile_changes'> {
  const totals = {
    points_created_milli: 0,
    credit_created_minor: 0,
    points_redeemed_milli: 0,
    vouchers_issued: 0,
    voucher_value_minor: 0,
    customers_registered: 0,
    returns_without_original: 0,
  };
  const purchases: Record<string, unknown>[] = [];
  const returned = new Set<unknown>();
  for (const change of changes) {
    const row = change.row;
    if (change.op !== 'insert' || !row) continue;
    switch (change.entity) {
      case 'point_records':
        if (row.linked_point_id !== null && row.linked_point_id !== undefined) break;
        if (row.kind === 'collection') totals.points_created_milli += Number(row.points_milli);
        else totals.points_redeemed_milli += Number(row.points_milli);
        break;
      case 'credit_records':
        if (row.kind === 'collection' && (row.linked_credit_id === null || row.linked_credit_id === undefined))
          totals.credit_created_minor += Number(row.amount_minor);
        break;
      case 'vouchers':
        totals.vouchers_issued += 1;
        totals.voucher_value_minor += Number(row.value_minor ?? 0);
        break;
      case 'customers':
        totals.customers_registered += 1;
        break;
      case 'purchases':
        purchases.push(row);
        break;
      case 'purchase_items':
        if (Number(row.amount_milli) < 0) returned.add(row.purchase_id);
        break;
    }
  }
  for (const purchase of purchases) {
    if (purchase.cancels_purchase_id !== null && purchase.cancels_purchase_id !== undefined) continue;
    if (purchase.canceled === 1 || returned.has(purchase.id)) totals.returns_without_original += 1;
  }
  return totals;
}

function customerTotalsOf(kind: string, changes: readonly RowChange[]): Map<string, CustomerTotals> {
  const manual = MANUAL_KINDS.has(kind);
  const totals = new Map<string, CustomerTotals>();
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
