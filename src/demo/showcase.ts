/**
 * What `npm start` (`serve --demo --showcase`) adds to the demo chain so that every resource
 * shows something: a wider range (tea, snacks and merchandise, 30 products in all, in groups
 * and brands), twenty customers with cards, bills and the points those earned, and event
 * properties with events that carry them. The tests' demo (`loadDemo`) stays small, so that
 * their worked examples stay hand-checkable; the showcase touches none of its records, and
 * its bills hold only its own products.
 */
import type { DemoNode } from './demo.js';
import type { TableName, WriteTransaction, WrittenRow } from '../db/write-path.js';
import { DEMO_IDS } from './demo.js';

const showcaseId = (n: number) => `de${(0x10000 + n).toString(16).padStart(24, '0')}`;

/** Groups and brands of the showcase range, and its products: name, group, brand, price in CZK. */
const GROUPS: [number, string][] = [
  [0x01, 'Tea'],
  [0x02, 'Snacks'],
  [0x03, 'Merchandise'],
];
const BRANDS: [number, string][] = [
  [0x11, 'Leaf & Kettle'],
  [0x12, 'Crunch Co.'],
  [0x13, 'Prague Central Goods'],
];
const PRODUCTS: [string, number, number, number][] = [
  ['Green tea', 0x01, 0x11, 55],
  ['Earl Grey', 0x01, 0x11, 55],
  ['Chai latte', 0x01, 0x11, 75],
  ['Rooibos', 0x01, 0x11, 55],
  ['Matcha latte', 0x01, 0x11, 89],
  ['Iced tea', 0x01, 0x11, 59],
  ['Mint tea', 0x01, 0x11, 49],
  ['Loose-leaf sencha 100 g', 0x01, 0x11, 190],
  ['Almond biscotti', 0x02, 0x12, 39],
  ['Chocolate cookie', 0x02, 0x12, 35],
  ['Banana bread', 0x02, 0x12, 49],
  ['Granola bar', 0x02, 0x12, 29],
  ['Cheese toast', 0x02, 0x12, 79],
  ['Muffin', 0x02, 0x12, 45],
  ['Brownie', 0x02, 0x12, 45],
  ['Fruit cup', 0x02, 0x12, 59],
  ['Travel mug', 0x03, 0x13, 390],
  ['Ceramic cup', 0x03, 0x13, 250],
  ['Tote bag', 0x03, 0x13, 190],
  ['Gift card box', 0x03, 0x13, 90],
  ['French press', 0x03, 0x13, 690],
  ['Hand grinder', 0x03, 0x13, 1290],
  ['Milk frother', 0x03, 0x13, 490],
  ['Coffee scale', 0x03, 0x13, 890],
];

const FIRST_NAMES = [
  'Adam',
  'Barbora',
  'Cyril',
  'Dana',
  'Emil',
  'Filip',
  'Gabriela',
  'Hana',
  'Igor',
  'Klára',
  'Lukáš',
  'Marie',
  'Nikola',
  'Ondřej',
  'Pavla',
  'Radek',
  'Simona',
];
const LAST_NAMES = [
  'Beneš',
  'Černá',
  'Doležal',
  'Fialová',
  'Horák',
  'Jelínek',
  'Kopecká',
  'Marek',
  'Novotná',
  'Pokorný',
  'Růžičková',
  'Šimek',
  'Tichá',
  'Urban',
  'Veselá',
  'Zeman',
  'Kratochvílová',
];

/** Whether the showcase is loaded: its first product exists. */
export function isShowcaseLoaded(app: Pick<DemoNode, 'node'>): boolean {
  return app.node.db.prepare('SELECT 1 FROM products WHERE id = ?').get(productId(0)) !== undefined;
}

const productId = (index: number) => showcaseId(0x100 + index);

/** Adds the showcase to a node that holds the demo chain (`serve --demo --showcase`), once. */
export function loadShowcase(app: Pick<DemoNode, 'node'>): void {
  if (isShowcaseLoaded(app)) return;
  app.node.writes.write(null, (tx) => {
    const insert = <T extends TableName>(table: T, row: WrittenRow<T>) => tx.insert(table, row);
    for (const [n, name] of GROUPS) insert('product_groups', { id: showcaseId(n), name });
    for (const [n, name] of BRANDS) insert('product_brands', { id: showcaseId(n), name });
    PRODUCTS.forEach(([name, group, brand], index) => {
      const id = productId(index);
      insert('products', {
        id,
        name,
        code: `SC-${String(index + 1).padStart(3, '0')}`,
        product_group_id: showcaseId(group),
        product_brand_id: showcaseId(brand),
      });
      insert('product_external_ids', {
        id: showcaseId(0x200 + index),
        product_id: id,
        list_code: 'GLOBAL',
        code: `859100${String(index + 1).padStart(3, '0')}`,
      });
    });
    loadCustomers(tx);
    loadEvents(tx);
  });
}

/** Seventeen customers beside the demo's three, each with a card and a bill or two that earned points. */
function loadCustomers(tx: WriteTransaction): void {
  FIRST_NAMES.forEach((first, index) => {
    const customerId = showcaseId(0x400 + index);
    const last = LAST_NAMES[index]!;
    tx.insert('customers', {
      id: customerId,
      first_name: first,
      last_name: last,
      email: `${first}.${index + 1}@example.com`
        .toLowerCase()
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, ''),
      gender: index % 2 === 0 ? 1 : 2,
      language_id: 'cs',
      store_id: index % 3 === 0 ? DEMO_IDS.storeAirport : DEMO_IDS.storeCentral,
      agreement: JSON.stringify({ agreement_gtc: 1, agreement_profiling: index % 2, agreement_marketing_communication: index % 3 === 0 ? 1 : 0 }),
    });
    tx.insert('cards', {
      id: showcaseId(0x500 + index),
      customer_id: customerId,
      card_number: `21000000${String(index + 1).padStart(5, '0')}`,
      card_type_id: 'standard',
    });
    const bills = index % 4 === 0 ? 1 : 2;
    for (let bill = 0; bill < bills; bill += 1) loadBill(tx, customerId, index * 2 + bill);
  });
}

/** A bill of two showcase products, with the points its total earned (a point per whole 10 CZK). */
function loadBill(tx: WriteTransaction, customerId: string, n: number): void {
  const purchaseId = showcaseId(0x600 + n);
  const lines = [n % PRODUCTS.length, (n * 7 + 3) % PRODUCTS.length];
  const total = lines.reduce((sum, index) => sum + PRODUCTS[index]![3], 0);
  const paidAt = new Date(Date.UTC(2026, 9, 1 + (n % 28), 8 + (n % 10), 15));
  tx.insert('purchases', {
    id: purchaseId,
    customer_id: customerId,
    store_id: n % 3 === 0 ? DEMO_IDS.storeAirport : DEMO_IDS.storeCentral,
    external_purchase_id: `SHOWCASE-${n + 1}`,
    bill_number: `SHOWCASE-${n + 1}`,
    payment_time: paidAt.toISOString(),
    total_price_minor: total * 100,
    currency_id: 'CZK',
    cashdesk_number: 1 + (n % 3),
  });
  lines.forEach((index, line) => {
    tx.insert('purchase_items', {
      id: showcaseId(0x800 + n * 2 + line),
      purchase_id: purchaseId,
      product_id: productId(index),
      price_minor: PRODUCTS[index]![3] * 100,
      amount_milli: 1000,
    });
  });
  tx.insert('point_records', {
    id: showcaseId(0xa00 + n),
    customer_id: customerId,
    kind: 'collection',
    points_milli: Math.floor(total / 10) * 1000,
    point_type_id: 'purchase',
    purchase_id: purchaseId,
    valid_to: new Date(paidAt.getTime() + 365 * 86_400_000).toISOString(),
    created_at: paidAt.toISOString(),
  });
}

/** Event properties an app sends, and events of two types that carry them. */
function loadEvents(tx: WriteTransaction): void {
  tx.insert('event_properties', {
    id: 'visit_channel',
    name: 'Visit channel',
    data_type: 'string',
    items: JSON.stringify([
      { id: 'app', name: 'Mobile app', state: 1 },
      { id: 'web', name: 'Web', state: 1 },
    ]),
  });
  tx.insert('event_properties', { id: 'favourite_drink', name: 'Favourite drink', data_type: 'string', items: '[]' });
  const events: [string, number, string, string][] = [
    ['app_opened', 0, 'visit_channel', 'app'],
    ['app_opened', 1, 'visit_channel', 'web'],
    ['survey_answered', 2, 'favourite_drink', 'matcha latte'],
    ['survey_answered', 3, 'favourite_drink', 'cappuccino'],
  ];
  events.forEach(([type, customer, property, value], index) => {
    const eventId = showcaseId(0xc00 + index);
    tx.insert('events', {
      id: eventId,
      event_type_id: type,
      customer_id: showcaseId(0x400 + customer),
      external_id: `SHOWCASE-EVENT-${index + 1}`,
      created_at: `2026-11-0${index + 1}T12:00:00.000Z`,
    });
    tx.insert('event_property_records', {
      id: showcaseId(0xd00 + index),
      event_id: eventId,
      property_id: property,
      property_value: JSON.stringify(value),
    });
  });
}
