/**
 * What the hub's apply of one send-purchase operation writes (src/sync/hub/hub-operations.ts
 * running the checkout feature, as `npm run bench hub-scale` found it in a hub's file): the
 * purchase with its bill, its items, a collection point record and the credit given back, the
 * customer's state (its tail of facts past the horizon, upserted), the feed's change of each of
 * those rows, the command's result, and the node's progress. The same statements on SQLite and
 * on PostgreSQL: the tables with the keys and indexes the hub's migrations give them (the
 * ledger triggers and the recommendation model left out, on both).
 */
import { hex } from '../../support/ids.js';

/** Each table and index, as plain SQL both engines take; `$SERIAL` is the feed's key. */
export function schema(serial: string): string[] {
  return [
    `CREATE TABLE purchases (id TEXT PRIMARY KEY, customer_id TEXT, store_id TEXT NOT NULL, external_purchase_id TEXT NOT NULL, payment_time TEXT NOT NULL,
       total_price_minor BIGINT NOT NULL, currency_id TEXT NOT NULL, card_number TEXT, cashdesk_number INTEGER, canceled INTEGER NOT NULL, bill TEXT,
       state INTEGER NOT NULL, hlc TEXT NOT NULL, last_change TEXT NOT NULL, UNIQUE (store_id, external_purchase_id))`,
    'CREATE INDEX purchases_by_customer ON purchases (customer_id, payment_time)',
    'CREATE INDEX purchases_by_time ON purchases (payment_time)',
    'CREATE INDEX purchases_by_origin ON purchases (substr(hlc, 19), hlc)',
    `CREATE TABLE purchase_items (id TEXT PRIMARY KEY, purchase_id TEXT NOT NULL, external_id TEXT, price_minor BIGINT NOT NULL, amount_milli BIGINT,
       additional_properties TEXT NOT NULL, hlc TEXT NOT NULL, last_change TEXT NOT NULL)`,
    'CREATE INDEX purchase_items_by_purchase ON purchase_items (purchase_id)',
    `CREATE TABLE point_records (id TEXT PRIMARY KEY, customer_id TEXT NOT NULL, kind TEXT NOT NULL, points_milli BIGINT NOT NULL, point_type_id TEXT,
       valid_to TEXT, purchase_id TEXT, created_at TEXT NOT NULL, state INTEGER NOT NULL, hlc TEXT NOT NULL, last_change TEXT NOT NULL)`,
    'CREATE INDEX point_records_by_customer ON point_records (customer_id, hlc)',
    'CREATE INDEX point_records_by_purchase ON point_records (purchase_id)',
    `CREATE TABLE credit_records (id TEXT PRIMARY KEY, customer_id TEXT NOT NULL, kind TEXT NOT NULL, amount_minor BIGINT NOT NULL, purchase_id TEXT,
       created_at TEXT NOT NULL, state INTEGER NOT NULL, hlc TEXT NOT NULL, last_change TEXT NOT NULL)`,
    'CREATE INDEX credit_records_by_customer ON credit_records (customer_id, hlc)',
    'CREATE INDEX credit_records_by_purchase ON credit_records (purchase_id)',
    'CREATE INDEX credit_records_for_balance ON credit_records (customer_id, state, hlc, kind, amount_minor)',
    `CREATE TABLE customer_states (id TEXT PRIMARY KEY, horizon TEXT NOT NULL, lots TEXT NOT NULL, debt_milli BIGINT NOT NULL, tail TEXT NOT NULL,
       credit_minor BIGINT NOT NULL, credit_tail TEXT NOT NULL, hlc TEXT NOT NULL, last_change TEXT NOT NULL)`,
    `CREATE TABLE changes (seq ${serial}, entity TEXT NOT NULL, entity_id TEXT NOT NULL, op TEXT NOT NULL, row TEXT, hlc TEXT NOT NULL)`,
    'CREATE INDEX changes_by_hlc ON changes (hlc)',
    `CREATE TABLE applied_commands (command_id TEXT PRIMARY KEY, node_id TEXT NOT NULL, generation TEXT NOT NULL, seq BIGINT NOT NULL, status TEXT NOT NULL,
       reason TEXT, applied_at TEXT NOT NULL)`,
    `CREATE TABLE sync_node_progress (node_id TEXT NOT NULL, generation TEXT NOT NULL, last_seq BIGINT NOT NULL, last_seen_at TEXT NOT NULL,
       PRIMARY KEY (node_id, generation))`,
    "INSERT INTO sync_node_progress VALUES ('spike-node', 'spike', 0, '')",
  ];
}

/** One statement and its parameters, in order; `?` placeholders (turned into `$n` for PostgreSQL). */
export interface Statement {
  sql: string;
  params: unknown[];
}

const CUSTOMERS = 10_000;

/** The statements the hub's apply of the n-th send-purchase runs, in order. */
export function operation(n: number, run: string): Statement[] {
  const at = Date.now();
  const time = new Date(at).toISOString();
  const stamp = (counter: number) => `${hex(at, 12)}-${hex(counter, 4)}-5a1e0001`;
  const id = (kind: number) => `${hex(at, 12)}${kind}${hex(n, 13)}`;
  const customerId = `c1${hex((n * 7_919) % CUSTOMERS, 24)}`;
  const items = Array.from({ length: 2 + (n % 2) }, (_, k) => ({
    id: id(1 + k),
    price: 3_000 + ((n + k * 7) % 170) * 100,
    code: `859000${769 + ((n + k) % 6)}`,
  }));
  const total = items.reduce((sum, item) => sum + item.price, 0);
  const bill = JSON.stringify({
    lines: items.map((item, k) => ({ bill_item_id: String(k + 1), quantity_milli: 1000, unit_price_minor: item.price, paid_minor: item.price })),
  });
  const validTo = new Date(at + 365 * 86_400_000).toISOString();
  const points = Math.floor(total / 1000) * 1000;
  const credit = Math.floor(total / 50);
  const purchase = [
    id(0),
    customerId,
    's1spike',
    `${run}-${n}`,
    time,
    total,
    'CZK',
    `700000${n % CUSTOMERS}`,
    1 + (n % 8),
    0,
    bill,
    1,
    stamp(0),
    time,
  ];
  const point = [id(6), customerId, 'collection', points, 'purchase', validTo, id(0), time, 1, stamp(4), time];
  const creditRow = [id(7), customerId, 'collection', credit, id(0), time, 1, stamp(5), time];
  const tail = JSON.stringify([['c', points, validTo, stamp(4), id(6)]]);
  const creditTail = JSON.stringify([[credit, stamp(5), id(7)]]);
  const state = [customerId, '0', '[]', 0, tail, 0, creditTail, stamp(6), time];
  const change = (entity: string, entityId: string, row: unknown[]) => ({
    sql: "INSERT INTO changes (entity, entity_id, op, row, hlc) VALUES (?, ?, 'insert', ?, ?)",
    params: [entity, entityId, JSON.stringify(row), stamp(0)],
  });
  return [
    {
      sql: `INSERT INTO purchases (id, customer_id, store_id, external_purchase_id, payment_time, total_price_minor, currency_id, card_number, cashdesk_number,
              canceled, bill, state, hlc, last_change) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      params: purchase,
    },
    change('purchases', id(0), purchase),
    ...items.flatMap((item, k) => {
      const row = [item.id, id(0), item.code, item.price, 1000, '[]', stamp(1 + k), time];
      return [
        {
          sql: 'INSERT INTO purchase_items (id, purchase_id, external_id, price_minor, amount_milli, additional_properties, hlc, last_change) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
          params: row,
        },
        change('purchase_items', item.id, row),
      ];
    }),
    {
      sql: 'INSERT INTO point_records (id, customer_id, kind, points_milli, point_type_id, valid_to, purchase_id, created_at, state, hlc, last_change) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      params: point,
    },
    change('point_records', id(6), point),
    {
      sql: 'INSERT INTO credit_records (id, customer_id, kind, amount_minor, purchase_id, created_at, state, hlc, last_change) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      params: creditRow,
    },
    change('credit_records', id(7), creditRow),
    {
      sql: `INSERT INTO customer_states (id, horizon, lots, debt_milli, tail, credit_minor, credit_tail, hlc, last_change) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET tail = excluded.tail, credit_tail = excluded.credit_tail, hlc = excluded.hlc, last_change = excluded.last_change`,
      params: state,
    },
    change('customer_states', customerId, state),
    {
      sql: "INSERT INTO applied_commands (command_id, node_id, generation, seq, status, applied_at) VALUES (?, 'spike-node', 'spike', ?, 'applied', ?)",
      params: [id(8), n + 1, time],
    },
    {
      sql: "UPDATE sync_node_progress SET last_seq = ?, last_seen_at = ? WHERE node_id = 'spike-node' AND generation = 'spike'",
      params: [n + 1, time],
    },
  ];
}

/** A page of the feed after a cursor, as the hub serves `GET /sync/v1/changes?after=`. */
export const FEED_PAGE = 'SELECT seq, entity, entity_id, op, row, hlc FROM changes WHERE seq > ? ORDER BY seq LIMIT ?';

/**
 * The statements of a commit with each INSERT's rows gathered into one multi-row INSERT a
 * table (an upsert keeps the last row of each key, as one statement may not change a row
 * twice) and each UPDATE run once with its last parameters: what an apply written for a
 * client-server database sends, a statement a table rather than a statement a row.
 */
export function grouped(statements: Statement[]): Statement[] {
  const bySql = new Map<string, unknown[][]>();
  for (const { sql, params } of statements) (bySql.get(sql) ?? bySql.set(sql, []).get(sql)!).push(params);
  return [...bySql].map(([sql, all]) => {
    const values = sql.indexOf('VALUES (');
    if (values < 0) return { sql, params: all.at(-1)! };
    const close = sql.indexOf(')', values);
    const tuple = sql.slice(values + 'VALUES '.length, close + 1);
    const rows = sql.includes('ON CONFLICT') ? [...new Map(all.map((params) => [params[0], params])).values()] : all;
    return { sql: `${sql.slice(0, values)}VALUES ${rows.map(() => tuple).join(', ')}${sql.slice(close + 1)}`, params: rows.flat() };
  });
}

/** `?` placeholders as PostgreSQL's `$1, $2, …`. */
export function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${(n += 1)}`);
}
