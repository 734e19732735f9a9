import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../src/demo/demo.js';
import { runCli, runCliJson } from '../support/cli.js';
import { call, demoPosLogin, startTestServer, tempDir } from '../support/server.js';

const ANA = 'aa0000000000000000000000a1';
/** Master data is loaded at head office: a hub's folder, whose change feed serves what it loads to the stores. */
const HUB = { LOYALTYD_MODE: 'hub' };
let dataDir: string;

beforeAll(async () => {
  dataDir = tempDir();
  await runCliJson(['demo', '--data-dir', dataDir], HUB);
});

describe('loyaltyd import into a hub', () => {
  it('loads NDJSON customers, reports each rejected line with its reason, and keeps going', async () => {
    const file = join(dataDir, 'customers.ndjson');
    writeFileSync(
      file,
      [
        JSON.stringify({
          customer_id: ANA,
          customer: { personal_information: { first_name: 'Ana', email: 'ana@example.com' } },
          customer_source: { customer_source_id: 'legacy-crm', external_id: 'L-1' },
        }),
        JSON.stringify({ customer: { personal_information: { first_name: 'Bob', email: 'not-an-email' } } }),
        'not json',
        '',
        JSON.stringify({ customer: { personal_information: { first_name: 'Cid', store_id: 'ffffffffffffffffffffffffff' } } }),
        JSON.stringify({ customer_id: ANA, customer: { personal_information: { first_name: 'Again' } } }),
        JSON.stringify({ customer: { personal_information: { first_name: 'Dan' } }, password: 'secret-password' }),
        JSON.stringify({ customer: { personal_information: { first_name: 'Eve', gender: 2 } } }),
      ].join('\n'),
    );
    const result = await runCli(['import', 'customers', file, '--data-dir', dataDir, '--json', '--batch-size', '2'], HUB);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ resource: 'customers', read: 7, imported: 2, rejected: 5 });
    expect(result.stderr.trim().split('\n')).toEqual([
      `${file}:2: customer.personal_information.email: invalid_value_format`,
      expect.stringMatching(new RegExp(`^${file}:3: the line is not valid JSON`)),
      `${file}:5: customer.personal_information.store_id: not_found`,
      `${file}:6: customer_id: already_exists`,
      `${file}:7: password: not_allowed_value`,
    ]);
  });

  it('loads CSV cards with dotted headers and quoted fields; the imported data answers over HTTP', async () => {
    const file = join(dataDir, 'cards.csv');
    writeFileSync(
      file,
      `card.customer_id,card.card_number,card.card_type_id\n${ANA},777001,plastic\n${ANA},"777,002","virtual ""app"""\nffffffffffffffffffffffffff,777003,x\n`,
    );
    const result = await runCliJson(['import', 'cards', file, '--data-dir', dataDir], HUB);
    expect(result).toMatchObject({ read: 3, imported: 2, rejected: 1 });
    const server = await startTestServer({ dataDir, demo: false, config: { mode: 'hub' } });
    try {
      const auth = await demoPosLogin(server);
      const cards = await call('GET', `${server.api('enterprise')}/cards?customer_id=${ANA}&sort_field=card_number`, { headers: auth });
      expect(cards.body.data.cards.map((card: { card_number: string; card_type_id: string }) => [card.card_number, card.card_type_id])).toEqual([
        ['777,002', 'virtual "app"'],
        ['777001', 'plastic'],
      ]);
      const customers = await call('GET', `${server.api('enterprise')}/customers?customer_source_id=legacy-crm`, { headers: auth });
      expect(customers.body.data.customers.map((customer: { customer_id: string }) => customer.customer_id)).toEqual([ANA]);
    } finally {
      await server.close();
    }
  });

  it('reads numbers and booleans out of CSV cells where the schema wants them', async () => {
    const file = join(dataDir, 'typed.csv');
    writeFileSync(
      file,
      'customer.personal_information.first_name,customer.personal_information.gender,customer.personal_information.phone\nFay,1,420600111222\n',
    );
    expect(await runCliJson(['import', 'customers', file, '--data-dir', dataDir], HUB)).toMatchObject({ imported: 1, rejected: 0 });
  });

  it('loads the catalogue and campaigns from CSV and NDJSON; they answer over HTTP and reach the change feed', async () => {
    const BRAND = 'bb0000000000000000000000b1';
    const GROUP = 'cc0000000000000000000000c1';
    const PRODUCT = 'dd0000000000000000000000d1';
    const CAMPAIGN = 'ee0000000000000000000000e1';
    const brands = join(dataDir, 'brands.csv');
    writeFileSync(brands, `product_brand_id,name,external_id\n${BRAND},Acme,ACME-1\n,,nameless\n${BRAND},Acme again,\n`);
    const brandResult = await runCli(['import', 'brands', brands, '--data-dir', dataDir, '--json'], HUB);
    expect(JSON.parse(brandResult.stdout)).toMatchObject({ resource: 'brands', read: 3, imported: 1, rejected: 2 });
    expect(brandResult.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^${brands}:3: name: `)),
      `${brands}:4: product_brand_id: already_exists`,
    ]);
    const groups = join(dataDir, 'groups.ndjson');
    writeFileSync(
      groups,
      [
        JSON.stringify({ name: 'Orphan', parent_product_group_id: 'ffffffffffffffffffffffffff' }),
        JSON.stringify({ product_group_id: GROUP, name: 'Drinks', code: 'DR' }),
      ].join('\n'),
    );
    const groupResult = await runCli(['import', 'product-groups', groups, '--data-dir', dataDir, '--json'], HUB);
    expect(JSON.parse(groupResult.stdout)).toMatchObject({ imported: 1, rejected: 1 });
    expect(groupResult.stderr.trim()).toBe(`${groups}:1: parent_product_group_id: not_found`);
    const products = join(dataDir, 'products.csv');
    writeFileSync(
      products,
      `product_id,name,product_group_id,product_brand_id,external_ids.GLOBAL\n${PRODUCT},Juice,${GROUP},${BRAND},8590001\n,Copy,${GROUP},,8590001\n`,
    );
    const productResult = await runCli(['import', 'products', products, '--data-dir', dataDir, '--json'], HUB);
    expect(JSON.parse(productResult.stdout)).toMatchObject({ imported: 1, rejected: 1 });
    expect(productResult.stderr.trim()).toBe(`${products}:3: external_ids.GLOBAL: already_exists`);
    const campaigns = join(dataDir, 'campaigns.ndjson');
    writeFileSync(
      campaigns,
      [
        JSON.stringify({ campaign_id: CAMPAIGN, campaign: { name: 'Summer' } }),
        JSON.stringify({ campaign: { name: 'Lost', parent_id: 'ffffffffffffffffffffffffff' } }),
      ].join('\n'),
    );
    expect(await runCliJson(['import', 'campaigns', campaigns, '--data-dir', dataDir], HUB)).toMatchObject({ imported: 1, rejected: 1 });
    const server = await startTestServer({ dataDir, demo: false, config: { mode: 'hub' } });
    try {
      const auth = await demoPosLogin(server);
      const brand = await call('GET', `${server.api('enterprise')}/product-brands/${BRAND}`, { headers: auth });
      expect(brand.body.data).toMatchObject({ product_brand_id: BRAND, name: 'Acme', external_id: 'ACME-1' });
      const group = await call('GET', `${server.api('enterprise')}/product-groups/${GROUP}`, { headers: auth });
      expect(group.body.data).toMatchObject({ name: 'Drinks' });
      const product = await call('GET', `${server.api('enterprise')}/products/${PRODUCT}`, { headers: auth });
      expect(product.body.data).toMatchObject({ name: 'Juice', external_id: '8590001' });
      const campaign = await call('GET', `${server.api('enterprise')}/campaigns/${CAMPAIGN}`, { headers: auth });
      expect(campaign.body.data).toMatchObject({ name: 'Summer' });
    } finally {
      await server.close();
    }
    const db = new Database(join(dataDir, 'loyaltyd.sqlite'), { readonly: true });
    try {
      const fed = db.prepare('SELECT entity FROM changes WHERE entity_id IN (?, ?, ?, ?) ORDER BY entity').all(BRAND, GROUP, PRODUCT, CAMPAIGN);
      expect(fed).toEqual([{ entity: 'campaigns' }, { entity: 'product_brands' }, { entity: 'product_groups' }, { entity: 'products' }]);
    } finally {
      db.close();
    }
  });

  it('loads stores from CSV and rewards from NDJSON; they answer over HTTP', async () => {
    const STORE = 'ab0000000000000000000000f1';
    const REWARD = 'ab0000000000000000000000f2';
    const stores = join(dataDir, 'stores.csv');
    writeFileSync(stores, `store_id,store.store_code,store.name,store.partner_id,store.system_id\n${STORE},S-9,Harbour,P-1,42\n,S-10,,P-1,43\n`);
    const storeResult = await runCli(['import', 'stores', stores, '--data-dir', dataDir, '--json'], HUB);
    expect(JSON.parse(storeResult.stdout)).toMatchObject({ imported: 1, rejected: 1 });
    expect(storeResult.stderr.trim()).toMatch(new RegExp(`^${stores}:3: store.name: `));
    const rewards = join(dataDir, 'rewards.ndjson');
    writeFileSync(
      rewards,
      [
        JSON.stringify({
          id: REWARD,
          code: 'COFFEE',
          name: 'Free coffee',
          priority: 3,
          points_cost: 50000,
          discount: { type: 'percent', value: 100 },
        }),
        JSON.stringify({ id: 'ab0000000000000000000000f3', code: 'X', name: 'Bad', priority: 12, discount: { type: 'percent', value: 100 } }),
      ].join('\n'),
    );
    const rewardResult = await runCli(['import', 'rewards', rewards, '--data-dir', dataDir, '--json'], HUB);
    expect(JSON.parse(rewardResult.stdout)).toMatchObject({ imported: 1, rejected: 1 });
    expect(rewardResult.stderr.trim()).toMatch(new RegExp(`^${rewards}:2: priority: `));
    const server = await startTestServer({ dataDir, demo: false, config: { mode: 'hub' } });
    try {
      const auth = await demoPosLogin(server);
      const store = await call('GET', `${server.api('enterprise')}/stores/${STORE}`, { headers: auth });
      expect(store.body.data).toMatchObject({ name: 'Harbour', store_code: 'S-9', system_id: '42' });
      const reward = await call('GET', `${server.api('enterprise')}/rewards/${REWARD}`, { headers: auth });
      expect(reward.status).toBe(200);
      expect(JSON.stringify(reward.body.data)).toContain('Free coffee');
    } finally {
      await server.close();
    }
  });

  it('loads the lookups the API only reads, rejecting duplicates and dangling references; they answer over HTTP and reach the change feed', async () => {
    const EVENT_GROUP = 'ac0000000000000000000000a1';
    const SOURCE = 'ac0000000000000000000000a2';
    const STORE_GROUP = 'ac0000000000000000000000a3';
    const VOUCHER = 'ac0000000000000000000000a4';
    const USED_VOUCHER = 'ac0000000000000000000000a5';
    const UNKNOWN = 'ffffffffffffffffffffffffff';
    const load = async (resource: string, file: string, content: string) => {
      const path = join(dataDir, file);
      writeFileSync(path, content);
      const result = await runCli(['import', resource, path, '--data-dir', dataDir, '--json'], HUB);
      return { path, result: JSON.parse(result.stdout), rejections: result.stderr.trim().split('\n').filter(Boolean) };
    };
    const types = await load('purchase-item-types', 'item-types.csv', 'type_id,name\nfuel,Fuel\n,Deposit\nfuel,Fuel again\n');
    expect(types.result).toMatchObject({ resource: 'purchase-item-types', read: 3, imported: 2, rejected: 1 });
    expect(types.rejections).toEqual([`${types.path}:4: type_id: already_exists`]);
    const properties = await load(
      'event-properties',
      'event-properties.ndjson',
      [
        JSON.stringify({
          property_id: 'favourite_drink',
          name: 'Favourite drink',
          data_type: 'enum',
          items: [{ id: 'tea', name: 'Tea', state: 1 }],
          is_required: 1,
        }),
        JSON.stringify({ property_id: 'favourite_drink', name: 'Again', data_type: 'string' }),
        JSON.stringify({ property_id: 'untyped', name: 'Untyped' }),
      ].join('\n'),
    );
    expect(properties.result).toMatchObject({ imported: 1, rejected: 2 });
    // A record the schema rejects is reported as it is read, one its service rejects when its batch is written.
    expect(properties.rejections).toEqual([`${properties.path}:3: data_type: required`, `${properties.path}:2: property_id: already_exists`]);
    const groups = await load(
      'event-groups',
      'event-groups.csv',
      `event_group_id,name,text_id,state\n${EVENT_GROUP},Kiosk,kiosk,1\n,Kiosk again,kiosk,\n`,
    );
    expect(groups.result).toMatchObject({ imported: 1, rejected: 1 });
    expect(groups.rejections).toEqual([`${groups.path}:3: text_id: already_exists`]);
    const sources = await load(
      'product-reservation-sources',
      'sources.csv',
      `product_reservation_source_id,name\n${SOURCE},Call centre\n${SOURCE},\n`,
    );
    expect(sources.result).toMatchObject({ imported: 1, rejected: 1 });
    expect(sources.rejections).toEqual([`${sources.path}:3: name: required`]);
    expect((await load('store-groups', 'store-groups.csv', `store_group_id,name\n${STORE_GROUP},Airports\n`)).result).toMatchObject({ imported: 1 });
    const records = await load(
      'store-group-records',
      'store-group-records.csv',
      `store_id,store_group_id\n${DEMO_IDS.storeAirport},${STORE_GROUP}\n${DEMO_IDS.storeAirport},${STORE_GROUP}\n${DEMO_IDS.storeCentral},${UNKNOWN}\n`,
    );
    expect(records.result).toMatchObject({ imported: 1, rejected: 2 });
    expect(records.rejections).toEqual([
      `${records.path}:3: store_group_id: relation_already_exists`,
      `${records.path}:4: store_group_id: not_found`,
    ]);
    const vouchers = await load(
      'vouchers',
      'vouchers.ndjson',
      [
        JSON.stringify({
          voucher_id: VOUCHER,
          customer_id: DEMO_IDS.customerPetr,
          code: 'MIGRATED-1',
          value: '50.00',
          valid_from: '2026-01-01 00:00:00',
          valid_to: '2099-12-31 23:59:59',
        }),
        JSON.stringify({ voucher_id: USED_VOUCHER, code: 'MIGRATED-2', applied_date: '2026-03-01 10:00:00', store_id: DEMO_IDS.storeAirport }),
        JSON.stringify({ code: 'MIGRATED-1' }),
        JSON.stringify({ code: 'MIGRATED-3', valid_from: 'yesterday' }),
        JSON.stringify({ code: 'MIGRATED-4', store_id: DEMO_IDS.storeCentral }),
        JSON.stringify({ code: 'MIGRATED-5', customer_id: UNKNOWN }),
        JSON.stringify({ code: 'MIGRATED-6', valid_from: '2026-02-01 00:00:00', valid_to: '2026-01-01 00:00:00' }),
      ].join('\n'),
    );
    expect(vouchers.result).toMatchObject({ imported: 2, rejected: 5 });
    expect(vouchers.rejections).toEqual([
      `${vouchers.path}:3: code: already_exists`,
      `${vouchers.path}:4: valid_from: invalid_value_format`,
      `${vouchers.path}:5: applied_date: required`,
      `${vouchers.path}:6: customer_id: not_found`,
      `${vouchers.path}:7: valid_to: not_allowed_value`,
    ]);
    const server = await startTestServer({ dataDir, demo: false, config: { mode: 'hub' } });
    try {
      const auth = await demoPosLogin(server);
      const enterprise = server.api('enterprise');
      const itemTypes = await call('GET', `${enterprise}/purchase-item-types?sort_field=name`, { headers: auth });
      expect(itemTypes.body.data.purchase_item_types).toEqual(
        expect.arrayContaining([{ type_id: 'fuel', name: 'Fuel' }, expect.objectContaining({ name: 'Deposit' })]),
      );
      const property = await call('GET', `${enterprise}/event-properties/favourite_drink`, { headers: auth });
      expect(property.body.data).toMatchObject({
        name: 'Favourite drink',
        data_type: 'enum',
        items: [{ id: 'tea', name: 'Tea', state: 1 }],
        is_required: 1,
        is_unique: 0,
        state: 1,
      });
      const group = await call('GET', `${enterprise}/event-groups?text_id=kiosk`, { headers: auth });
      expect(group.body.data.event_groups).toEqual([{ event_group_id: EVENT_GROUP, name: 'Kiosk', text_id: 'kiosk', state: 1 }]);
      const source = await call('GET', `${enterprise}/product-reservation-sources/${SOURCE}`, { headers: auth });
      expect(source.body.data).toMatchObject({ name: 'Call centre', state: 1 });
      const membership = await call('GET', `${enterprise}/stores/${DEMO_IDS.storeAirport}/store-group-records`, { headers: auth });
      expect(membership.body.data.store_group_records).toEqual([
        expect.objectContaining({ store_id: DEMO_IDS.storeAirport, store_group_id: STORE_GROUP }),
      ]);
      const voucher = await call('GET', `${enterprise}/vouchers/${VOUCHER}`, { headers: auth });
      expect(voucher.body.data).toMatchObject({
        customer_id: DEMO_IDS.customerPetr,
        code: 'MIGRATED-1',
        value: 50,
        applied_date: null,
        valid_from: '2026-01-01 00:00:00',
        valid_to: '2099-12-31 23:59:59',
      });
      const used = await call('GET', `${enterprise}/vouchers/${USED_VOUCHER}`, { headers: auth });
      expect(used.body.data).toMatchObject({ store_id: DEMO_IDS.storeAirport, applied_date: '2026-03-01 10:00:00' });
    } finally {
      await server.close();
    }
    const db = new Database(join(dataDir, 'loyaltyd.sqlite'), { readonly: true });
    try {
      const fed = db.prepare('SELECT DISTINCT entity FROM changes WHERE entity_id IN (?, ?, ?, ?, ?, ?) OR entity IN (?, ?, ?) ORDER BY entity');
      expect(
        fed.all(
          EVENT_GROUP,
          SOURCE,
          STORE_GROUP,
          VOUCHER,
          USED_VOUCHER,
          'favourite_drink',
          'purchase_item_types',
          'store_group_records',
          'voucher_applications',
        ),
      ).toEqual([
        { entity: 'event_groups' },
        { entity: 'event_properties' },
        { entity: 'product_reservation_sources' },
        { entity: 'purchase_item_types' },
        { entity: 'store_group_records' },
        { entity: 'store_groups' },
        { entity: 'voucher_applications' },
        { entity: 'vouchers' },
      ]);
    } finally {
      db.close();
    }
  });

  it('names the resources it can import when asked for another', async () => {
    const result = await runCli(['import', 'coupons', join(dataDir, 'cards.csv'), '--data-dir', dataDir], HUB);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'resources: customers, cards, products, product-groups, brands, stores, rewards, campaigns, purchase-item-types, event-properties, event-groups, product-reservation-sources, store-groups, store-group-records, vouchers',
    );
  });
});
