/**
 * A chain's history written in bulk straight into a hub's file while no process serves it, for
 * `npm run bench hub-scale`: the rows the hub's apply of each store's send-purchase leaves
 * behind (src/sync/hub/hub-operations.ts), in key order (DESIGN §7: bulk loads in key order
 * are ~15× faster), as a hub at rest holds them:
 *
 * - customers with a card each, and their feed changes (chain scope: the newest change of each row stays);
 * - per bill, in payment order over the period: the purchase with its bill, two or three items,
 *   and for two bills in three (those with a card) a collection point record and the credit the
 *   demo program gives back; the feed's changes of those facts and the applied commands' results for the last
 *   `sync.feed_retention_days` (7; src/decisions/0023, 0025), older ones compacted away;
 * - each customer's state settled to its lots (src/loyalty/state-settling.ts) and the state's
 *   newest change; its ledger of facts past the horizon is kept by the migrations' triggers,
 *   as the records and the state go in; the node limits' counts of the last day.
 *
 * Not written: the recommendation model's tables (the model's cursor is put past the generated
 * feed, so the hub does not fold a month of bills at start) and one node per store (the
 * stores' origins are in the stamps; the bench registers the one store it runs).
 */
import Database from 'better-sqlite3';
import { databaseFile } from '../../src/root/node.js';
import { hex } from '../support/ids.js';

export interface ChainScale {
  stores: number;
  billsPerDay: number;
  days: number;
  customers: number;
}

export const DAY_MS = 86_400_000;
const FEED_DAYS = 7;
const BATCH = 20_000;
const PRODUCTS = ['8590000769', '8590000770', '8590000771', '8590000772', '8590000773', '8590000774'];

export const scaleCustomerId = (i: number) => `c1${hex(i, 24)}`;
export const scaleCardNumber = (i: number) => String(7_000_000_000_000 + i);
export const scaleStoreId = (s: number) => `s1${hex(s, 24)}`;
const storeOrigin = (s: number) => `5${hex(s, 7)}`;
const stampOf = (ms: number, counter: number, origin: string) => `${hex(ms, 12)}-${hex(counter, 4)}-${origin}`;

/** Bills in the period: every store's bills of every day. */
export function billsOf(scale: ChainScale): number {
  return Math.round(scale.stores * scale.billsPerDay * scale.days);
}

/** The bill j: its time (spread evenly over the period ending at `end`), store, items and customer (none for one in three). */
export function billOf(scale: ChainScale, end: number, j: number) {
  const total = billsOf(scale);
  const start = end - scale.days * DAY_MS;
  const at = start + Math.floor((j * scale.days * DAY_MS) / total);
  const store = j % scale.stores;
  const customer = j % 3 === 0 ? undefined : (j * 7_919) % scale.customers;
  const items = Array.from({ length: 2 + (j % 2) }, (_, k) => ({
    code: PRODUCTS[(j + k) % PRODUCTS.length]!,
    price: 3_000 + ((j + k * 7) % 170) * 100,
  }));
  return { at, store, customer, items, total: items.reduce((sum, item) => sum + item.price, 0) };
}

/** Writes the chain's customers and `scale.days` of its bills, ending at `end` (ms). Returns the rows written by table. */
export function writeChain(hubDir: string, scale: ChainScale, end: number): Record<string, number> {
  const db = new Database(databaseFile(hubDir));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  const rows: Record<string, number> = {};
  const count = (table: string, n = 1) => (rows[table] = (rows[table] ?? 0) + n);
  const change = db.prepare('INSERT INTO changes (entity, entity_id, op, row, hlc) VALUES (?, ?, ?, ?, ?)');
  const feed = (table: string, row: { id: string; hlc: string }) => {
    change.run(table, row.id, 'insert', JSON.stringify(row), row.hlc);
    count('changes');
  };
  writeCustomers(db, scale, end, feed, count);
  writeBills(db, scale, end, feed, count);
  writeStates(db, end, count);
  db.prepare("INSERT OR REPLACE INTO recommendation_state (key, value) SELECT 'cursor', max(seq) FROM changes").run();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return rows;
}

type Feed = (table: string, row: { id: string; hlc: string }) => void;
type Count = (table: string, n?: number) => void;

function writeCustomers(db: Database.Database, scale: ChainScale, end: number, feed: Feed, count: Count): void {
  const made = end - scale.days * DAY_MS - DAY_MS;
  const time = new Date(made).toISOString();
  const customer = db.prepare(
    'INSERT INTO customers (id, first_name, last_name, email, hlc, last_change) VALUES (@id, @first_name, @last_name, @email, @hlc, @last_change)',
  );
  const card = db.prepare(
    'INSERT INTO cards (id, customer_id, card_number, hlc, last_change) VALUES (@id, @customer_id, @card_number, @hlc, @last_change)',
  );
  for (let from = 0; from < scale.customers; from += BATCH) {
    db.transaction(() => {
      for (let i = from; i < Math.min(scale.customers, from + BATCH); i += 1) {
        const hlc = stampOf(made, 0, 'c0000000');
        const row = { id: scaleCustomerId(i), first_name: `First${i}`, last_name: `Last${i}`, email: `c${i}@example.com`, hlc, last_change: time };
        customer.run(row);
        feed('customers', row);
        const cardRow = { id: `c2${hex(i, 24)}`, customer_id: row.id, card_number: scaleCardNumber(i), hlc, last_change: time };
        card.run(cardRow);
        feed('cards', cardRow);
      }
    })();
    count('customers', Math.min(BATCH, scale.customers - from));
    count('cards', Math.min(BATCH, scale.customers - from));
  }
}

function writeBills(db: Database.Database, scale: ChainScale, end: number, feed: Feed, count: Count): void {
  const purchase = db.prepare(
    `INSERT INTO purchases (id, customer_id, store_id, external_purchase_id, bill_number, payment_time, type_id, total_price_minor, currency_id, card_number,
       cashdesk_number, canceled, cancels_purchase_id, bill, state, hlc, last_change)
     VALUES (@id, @customer_id, @store_id, @external_purchase_id, @bill_number, @payment_time, @type_id, @total_price_minor, @currency_id, @card_number,
       @cashdesk_number, @canceled, @cancels_purchase_id, @bill, @state, @hlc, @last_change)`,
  );
  const item = db.prepare(
    `INSERT INTO purchase_items (id, purchase_id, product_id, external_id, purchase_item_type_id, price_minor, amount_milli, vat_rate, additional_properties, hlc, last_change)
     VALUES (@id, @purchase_id, @product_id, @external_id, @purchase_item_type_id, @price_minor, @amount_milli, @vat_rate, '[]', @hlc, @last_change)`,
  );
  const point = db.prepare(
    `INSERT INTO point_records (id, customer_id, kind, points_milli, point_type_id, partner_id, valid_to, purchase_id, linked_point_id, created_at, state, hlc, last_change)
     VALUES (@id, @customer_id, @kind, @points_milli, @point_type_id, @partner_id, @valid_to, @purchase_id, @linked_point_id, @created_at, @state, @hlc, @last_change)`,
  );
  const credit = db.prepare(
    `INSERT INTO credit_records (id, customer_id, kind, amount_minor, purchase_id, linked_credit_id, credit_type_id, partner_id, note, created_at, state, hlc, last_change)
     VALUES (@id, @customer_id, @kind, @amount_minor, @purchase_id, @linked_credit_id, @credit_type_id, @partner_id, @note, @created_at, @state, @hlc, @last_change)`,
  );
  const applied = db.prepare(
    "INSERT INTO applied_commands (command_id, node_id, generation, seq, status, applied_at) VALUES (?, ?, 'bench', ?, 'applied', ?)",
  );
  const day = db.prepare('INSERT OR IGNORE INTO node_customer_days (node_id, customer_id, day, earned_milli) VALUES (?, ?, ?, ?)');
  const total = billsOf(scale);
  const feedFrom = end - FEED_DAYS * DAY_MS;
  const lastDay = new Date(end).toISOString().slice(0, 10);
  for (let from = 0; from < total; from += BATCH) {
    db.transaction(() => {
      for (let j = from; j < Math.min(total, from + BATCH); j += 1) {
        const bill = billOf(scale, end, j);
        const origin = storeOrigin(bill.store);
        const time = new Date(bill.at).toISOString();
        const key = (kind: number) => `${hex(bill.at, 12)}${kind}${hex(j, 13)}`;
        const fed = bill.at >= feedFrom;
        const customerId = bill.customer === undefined ? null : scaleCustomerId(bill.customer);
        const lines = bill.items.map((line, k) => ({
          bill_item_id: String(k + 1),
          product_id: null,
          product_group_id: null,
          brand_id: null,
          quantity_milli: 1000,
          unit_price_minor: line.price,
          paid_minor: line.price,
          loyalty_off: false,
        }));
        const row = {
          id: key(0),
          customer_id: customerId,
          store_id: scaleStoreId(bill.store),
          external_purchase_id: `B-${j}`,
          bill_number: null,
          payment_time: time,
          type_id: null,
          total_price_minor: bill.total,
          currency_id: 'CZK',
          card_number: bill.customer === undefined ? null : scaleCardNumber(bill.customer),
          cashdesk_number: 1 + (j % 8),
          canceled: 0,
          cancels_purchase_id: null,
          bill: JSON.stringify({ lines }),
          state: 1,
          hlc: stampOf(bill.at, 0, origin),
          last_change: time,
        };
        purchase.run(row);
        if (fed) feed('purchases', row);
        bill.items.forEach((line, k) => {
          const itemRow = {
            id: `${hex(bill.at, 12)}${1 + k}${hex(j, 13)}`,
            purchase_id: row.id,
            product_id: null,
            external_id: line.code,
            purchase_item_type_id: null,
            price_minor: line.price,
            amount_milli: 1000,
            vat_rate: null,
            hlc: stampOf(bill.at, 1 + k, origin),
            last_change: time,
          };
          item.run(itemRow);
          if (fed) feed('purchase_items', itemRow);
        });
        count('purchases');
        count('purchase_items', bill.items.length);
        if (fed) {
          applied.run(key(8), `n1${hex(bill.store, 24)}`, 1 + Math.floor(j / scale.stores), time);
          count('applied_commands');
        }
        if (customerId === null) continue;
        const validTo = new Date(Math.floor(bill.at / DAY_MS) * DAY_MS + 366 * DAY_MS - 1).toISOString();
        const points = Math.floor(bill.total / 1000) * 1000;
        const pointRow = {
          id: key(6),
          customer_id: customerId,
          kind: 'collection',
          points_milli: points,
          point_type_id: 'purchase',
          partner_id: null,
          valid_to: validTo,
          purchase_id: row.id,
          linked_point_id: null,
          created_at: time,
          state: 1,
          hlc: stampOf(bill.at, 4, origin),
          last_change: time,
        };
        point.run(pointRow);
        const creditRow = {
          id: key(7),
          customer_id: customerId,
          kind: 'collection',
          amount_minor: Math.floor(bill.total / 50),
          purchase_id: row.id,
          linked_credit_id: null,
          credit_type_id: null,
          partner_id: null,
          note: null,
          created_at: time,
          state: 1,
          hlc: stampOf(bill.at, 5, origin),
          last_change: time,
        };
        credit.run(creditRow);
        if (fed) {
          feed('point_records', pointRow);
          feed('credit_records', creditRow);
        }
        count('point_records');
        count('credit_records');
        if (time.slice(0, 10) === lastDay && day.run(`n1${hex(bill.store, 24)}`, customerId, lastDay, points).changes > 0)
          count('node_customer_days');
      }
    })();
  }
}

/**
 * Each customer's state as the hub settles it at rest: its collections' points in lots, one
 * per expiry, earliest first; its credit summed; nothing left in its tail or ledger.
 */
function writeStates(db: Database.Database, end: number, count: Count): void {
  const horizon = stampOf(end, 0, 'b0000000');
  const time = new Date(end).toISOString();
  db.exec(
    `CREATE TEMP TABLE lots AS SELECT customer_id, valid_to, sum(points_milli) AS points FROM point_records
     WHERE customer_id >= 'c1' AND customer_id < 'c2' GROUP BY customer_id, valid_to ORDER BY customer_id, valid_to`,
  );
  db.prepare(
    `INSERT INTO customer_states (id, horizon, lots, debt_milli, tail, credit_minor, credit_tail, hlc, last_change, earned_milli, redeemed_milli, earned_credit_minor, redeemed_credit_minor)
     SELECT l.customer_id, @horizon, json_group_array(json_array(l.points, (CAST(strftime('%s', substr(l.valid_to, 1, 10)) AS INTEGER) + 86400) * 1000 - 1)), 0, '[]',
       c.credit, '[]', @horizon, @time, sum(l.points), 0, c.credit, 0
     FROM temp.lots l JOIN (SELECT customer_id, sum(amount_minor) AS credit FROM credit_records WHERE customer_id >= 'c1' AND customer_id < 'c2' GROUP BY customer_id) c USING (customer_id)
     GROUP BY l.customer_id ORDER BY l.customer_id`,
  ).run({ horizon, time });
  db.exec('DROP TABLE temp.lots');
  count('customer_states', db.prepare('SELECT count(*) FROM customer_states WHERE horizon = ?').pluck().get(horizon) as number);
  db.prepare(
    `INSERT INTO changes (entity, entity_id, op, row, hlc)
     SELECT 'customer_states', id, 'insert', json_object('id', id, 'horizon', horizon, 'lots', lots, 'debt_milli', debt_milli, 'tail', tail, 'credit_minor', credit_minor,
       'credit_tail', credit_tail, 'hlc', hlc, 'last_change', last_change, 'earned_milli', earned_milli, 'redeemed_milli', redeemed_milli,
       'earned_credit_minor', earned_credit_minor, 'redeemed_credit_minor', redeemed_credit_minor), hlc
     FROM customer_states WHERE horizon = ? ORDER BY id`,
  ).run(horizon);
}
