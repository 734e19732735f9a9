/**
 * The demo chain: a small retailer with two stores, a product range, customers with cards,
 * points and credit, rewards and vouchers, and known credentials, so that every feature shows
 * something on a fresh `npm start`. Demo records have fixed ids so the README's curl
 * walk-through works as printed.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Db } from '../db/open.js';
import type { WritePath } from '../db/write-path.js';
import type { ProgramService } from '../loyalty/program.service.js';
import { hashPassword } from '../auth/passwords.js';
import { md5Hex } from '../auth/secrets.js';
import type { TableName, WriteTransaction, WrittenRow } from '../db/write-path.js';

/** The demo's loyalty program, also the documented example of a program file. */
export const DEMO_PROGRAM = fileURLToPath(new URL('../../config/program.example.json', import.meta.url));

const demoId = (n: number) => `de${n.toString(16).padStart(24, '0')}`;

export const DEMO_IDS = {
  app: demoId(0xa1),
  storeCentral: demoId(0x51),
  storeAirport: demoId(0x52),
  customerJana: demoId(0xc1),
  customerPetr: demoId(0xc2),
  customerEva: demoId(0xc3),
};

export const demoCredentials = {
  external_application_id: DEMO_IDS.app,
  pos_login: 'pos',
  pos_password: 'pos-demo-password',
  legacy_basic_login: 'pos-legacy',
  api_user: 'demo-api-user',
  customer_email: 'jana.novak@example.com',
  customer_card: '2000000000017',
  customer_password: 'customer-demo-password',
};

/** The parts of a node the demo is written through. */
export interface DemoNode {
  node: { db: Db; writes: WritePath };
  services: { program: Pick<ProgramService, 'load'> };
}

export function isDemoLoaded(app: Pick<DemoNode, 'node'>): boolean {
  return app.node.db.prepare('SELECT 1 FROM external_applications WHERE id = ?').get(DEMO_IDS.app) !== undefined;
}

export async function loadDemo(app: DemoNode): Promise<typeof demoCredentials> {
  if (isDemoLoaded(app)) return demoCredentials;
  app.services.program.load(JSON.parse(readFileSync(DEMO_PROGRAM, 'utf8')));
  const posHash = await hashPassword(demoCredentials.pos_password);
  const customerHash = await hashPassword(demoCredentials.customer_password);
  app.node.writes.write(null, (tx) => {
    const insert = <T extends TableName>(table: T, row: WrittenRow<T>) => tx.insert(table, row);
    insert('external_applications', { id: DEMO_IDS.app, name: 'Demo POS and customer app', state: 1 });
    // The POS users are Prague Central's: its store node is sent them, and they log in at its tills.
    insert('users', {
      id: demoId(0x101),
      login: demoCredentials.pos_login,
      password_hash: posHash,
      external_application_id: DEMO_IDS.app,
      legacy_basic_md5: null,
      state: 1,
      store_id: DEMO_IDS.storeCentral,
    });
    insert('users', {
      id: demoId(0x102),
      login: demoCredentials.legacy_basic_login,
      password_hash: posHash,
      external_application_id: DEMO_IDS.app,
      legacy_basic_md5: md5Hex(demoCredentials.pos_password),
      state: 1,
      store_id: DEMO_IDS.storeCentral,
    });
    insert('api_users', { id: demoId(0x103), user_name: demoCredentials.api_user, name: 'Demo customer app', state: 1 });
    loadChain(tx, customerHash);
  });
  return demoCredentials;
}

function loadChain(tx: WriteTransaction, customerPasswordHash: string): void {
  const insert = <T extends TableName>(table: T, row: WrittenRow<T>) => tx.insert(table, row);
  const address = (city: string, street: string) => JSON.stringify({ address1: street, zip: '11000', city, country_code: 'cz' });
  insert('stores', {
    id: DEMO_IDS.storeCentral,
    store_code: 'PRG-01',
    name: 'Prague Central',
    details: JSON.stringify({ store_address: JSON.parse(address('Prague', 'Na Příkopě 1')) }),
  });
  insert('stores', {
    id: DEMO_IDS.storeAirport,
    store_code: 'PRG-02',
    name: 'Prague Airport',
    details: JSON.stringify({ store_address: JSON.parse(address('Prague', 'Aviatická 1')) }),
  });

  insert('product_groups', { id: demoId(0x201), name: 'Coffee' });
  insert('product_groups', { id: demoId(0x202), name: 'Bakery' });
  insert('product_brands', { id: demoId(0x211), name: 'Roastery' });
  insert('product_brands', { id: demoId(0x212), name: 'Home Bakery' });
  const products: [number, string, string, number, number][] = [
    [0x301, 'Espresso beans 1 kg', 'ESP-1KG', 0x201, 0x211],
    [0x302, 'Filter coffee 250 g', 'FLT-250', 0x201, 0x211],
    [0x303, 'Cappuccino', 'CAP', 0x201, 0x211],
    [0x304, 'Croissant', 'CRO', 0x202, 0x212],
    [0x305, 'Sourdough bread', 'SRD', 0x202, 0x212],
    [0x306, 'Cinnamon roll', 'CIN', 0x202, 0x212],
  ];
  for (const [n, name, code, group, brand] of products) {
    insert('products', { id: demoId(n), name, code, product_group_id: demoId(group), product_brand_id: demoId(brand) });
    insert('product_external_ids', { id: demoId(n + 0x100), product_id: demoId(n), list_code: 'GLOBAL', code: `859000${n}` });
  }

  const customers: [string, string, string, string, string | null][] = [
    [DEMO_IDS.customerJana, 'Jana', 'Nováková', demoCredentials.customer_email, demoCredentials.customer_card],
    [DEMO_IDS.customerPetr, 'Petr', 'Svoboda', 'petr.svoboda@example.com', '2000000000024'],
    [DEMO_IDS.customerEva, 'Eva', 'Dvořáková', 'eva.dvorakova@example.com', '2000000000031'],
  ];
  customers.forEach(([id, first, last, email, card], index) => {
    insert('customers', {
      id,
      first_name: first,
      last_name: last,
      email,
      gender: index === 1 ? 1 : 2,
      language_id: 'cs',
      store_id: DEMO_IDS.storeCentral,
      address: address('Prague', `Vinohradská ${index + 10}`),
      agreement: JSON.stringify({ agreement_gtc: 1, agreement_profiling: 1, agreement_marketing_communication: index === 0 ? 1 : 0 }),
      password_hash: id === DEMO_IDS.customerJana ? customerPasswordHash : null,
    });
    if (card) insert('cards', { id: demoId(0x400 + index), customer_id: id, card_number: card, card_type_id: 'standard' });
  });

  insert('point_records', {
    id: demoId(0x501),
    customer_id: DEMO_IDS.customerJana,
    kind: 'collection',
    points_milli: 250_000,
    point_type_id: 'purchase',
    valid_to: '2099-12-31T23:59:59.000Z',
    created_at: '2026-01-15T10:00:00.000Z',
  });
  insert('point_records', {
    id: demoId(0x502),
    customer_id: DEMO_IDS.customerPetr,
    kind: 'collection',
    points_milli: 80_000,
    point_type_id: 'purchase',
    valid_to: '2099-12-31T23:59:59.000Z',
    created_at: '2026-02-01T09:30:00.000Z',
  });

  // Jana's opening credit: 200 CZK she can pay with (max_credit).
  insert('credit_records', {
    id: demoId(0x511),
    customer_id: DEMO_IDS.customerJana,
    kind: 'collection',
    amount_minor: 20_000,
    created_at: '2026-01-15T10:00:00.000Z',
  });

  insert('vouchers', {
    id: demoId(0x701),
    customer_id: DEMO_IDS.customerJana,
    reward_id: demoId(0x601),
    code: 'CAPPU-2026',
    value_minor: 0,
    valid_from: '2026-01-01T00:00:00.000Z',
    valid_to: '2099-12-31T23:59:59.000Z',
    reward_group: 'coffee',
  });
  insert('campaigns', { id: demoId(0x801), name: 'Autumn coffee week', external_id: 'AUTUMN-2026' });
  insert('campaign_products', {
    id: demoId(0x811),
    product_id: demoId(0x302),
    campaign_id: demoId(0x801),
    name: 'Filter coffee -20 %',
    currency_id: 'CZK',
    value_minor: 2000,
    value_type_id: 1,
    valid_from: '2026-01-01T00:00:00.000Z',
    valid_to: '2099-12-31T23:59:59.000Z',
    display_in: JSON.stringify(['cash desk', 'web']),
    presentation_data: JSON.stringify({ name: 'Filter coffee -20 %', subtitle: null, note: null, description: 'Autumn offer', image_url: '' }),
  });
  loadHistory(tx);
  insert('purchase_item_types', { id: demoId(0x901), name: 'Goods' });
  insert('purchase_item_types', { id: demoId(0x902), name: 'Service' });
  insert('product_reservation_sources', { id: demoId(0xa01), name: 'E-shop' });
  insert('event_groups', { id: demoId(0xb01), name: 'Mobile app', text_id: 'mobile_app' });
}

/**
 * A little purchase history for the recommendation engine: Jana drinks cappuccinos, Petr
 * buys beans with filter coffee, and croissants go with cinnamon rolls.
 */
function loadHistory(tx: WriteTransaction): void {
  const bills: [string | null, number[]][] = [
    [DEMO_IDS.customerJana, [0x303]],
    [DEMO_IDS.customerJana, [0x303]],
    [DEMO_IDS.customerJana, [0x303, 0x304]],
    [DEMO_IDS.customerPetr, [0x301, 0x302]],
    [DEMO_IDS.customerPetr, [0x301, 0x302]],
    [null, [0x304, 0x306]],
    [null, [0x304, 0x306]],
    [null, [0x304, 0x306]],
    [null, [0x305]],
  ];
  bills.forEach(([customerId, products], index) => {
    const purchaseId = demoId(0xc00 + index);
    tx.insert('purchases', {
      id: purchaseId,
      customer_id: customerId,
      store_id: DEMO_IDS.storeCentral,
      external_purchase_id: `DEMO-${index + 1}`,
      bill_number: `DEMO-${index + 1}`,
      payment_time: `2026-10-${String(index + 10).padStart(2, '0')}T09:00:00.000Z`,
      total_price_minor: products.length * 5000,
      currency_id: 'CZK',
      cashdesk_number: 1,
    });
    products.forEach((product, line) => {
      tx.insert('purchase_items', {
        id: demoId(0xd00 + index * 10 + line),
        purchase_id: purchaseId,
        product_id: demoId(product),
        price_minor: 5000,
        amount_milli: 1000,
      });
    });
  });
}
