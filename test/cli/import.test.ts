import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliJson } from '../support/cli.js';
import { call, demoPosLogin, startTestServer, tempDir } from '../support/server.js';

const ANA = 'aa0000000000000000000000a1';
let dataDir: string;

beforeAll(async () => {
  dataDir = tempDir();
  await runCliJson(['demo', '--data-dir', dataDir]);
});

describe('loyaltyd import', () => {
  it('loads NDJSON customers, reports each rejected line with its reason, and keeps going', async () => {
    const file = join(dataDir, 'customers.ndjson');
    writeFileSync(
      file,
      [
        JSON.stringify({ customer_id: ANA, customer: { personal_information: { first_name: 'Ana', email: 'ana@example.com' } }, customer_source: { customer_source_id: 'legacy-crm', external_id: 'L-1' } }),
        JSON.stringify({ customer: { personal_information: { first_name: 'Bob', email: 'not-an-email' } } }),
        'not json',
        '',
        JSON.stringify({ customer: { personal_information: { first_name: 'Cid', store_id: 'ffffffffffffffffffffffffff' } } }),
        JSON.stringify({ customer_id: ANA, customer: { personal_information: { first_name: 'Again' } } }),
        JSON.stringify({ customer: { personal_information: { first_name: 'Dan' } }, password: 'secret-password' }),
        JSON.stringify({ customer: { personal_information: { first_name: 'Eve', gender: 2 } } }),
      ].join('\n'),
    );
    const result = await runCli(['import', 'customers', file, '--data-dir', dataDir, '--json', '--batch-size', '2']);
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
    writeFileSync(file, `card.customer_id,card.card_number,card.card_type_id\n${ANA},777001,plastic\n${ANA},"777,002","virtual ""app"""\nffffffffffffffffffffffffff,777003,x\n`);
    const result = await runCliJson(['import', 'cards', file, '--data-dir', dataDir]);
    expect(result).toMatchObject({ read: 3, imported: 2, rejected: 1 });
    const server = await startTestServer({ dataDir, demo: false });
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
    writeFileSync(file, 'customer.personal_information.first_name,customer.personal_information.gender,customer.personal_information.phone\nFay,1,420600111222\n');
    expect(await runCliJson(['import', 'customers', file, '--data-dir', dataDir])).toMatchObject({ imported: 1, rejected: 0 });
  });

  it('loads the catalogue and campaigns from CSV and NDJSON; they answer over HTTP and reach the change feed', async () => {
    const BRAND = 'bb0000000000000000000000b1';
    const GROUP = 'cc0000000000000000000000c1';
    const PRODUCT = 'dd0000000000000000000000d1';
    const CAMPAIGN = 'ee0000000000000000000000e1';
    const brands = join(dataDir, 'brands.csv');
    writeFileSync(brands, `product_brand_id,name,external_id\n${BRAND},Acme,ACME-1\n,,nameless\n${BRAND},Acme again,\n`);
    const brandResult = await runCli(['import', 'brands', brands, '--data-dir', dataDir, '--json']);
    expect(JSON.parse(brandResult.stdout)).toMatchObject({ resource: 'brands', read: 3, imported: 1, rejected: 2 });
    expect(brandResult.stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^${brands}:3: name: `)), `${brands}:4: product_brand_id: already_exists`]);
    const groups = join(dataDir, 'groups.ndjson');
    writeFileSync(groups, [JSON.stringify({ name: 'Orphan', parent_product_group_id: 'ffffffffffffffffffffffffff' }), JSON.stringify({ product_group_id: GROUP, name: 'Drinks', code: 'DR' })].join('\n'));
    const groupResult = await runCli(['import', 'product-groups', groups, '--data-dir', dataDir, '--json']);
    expect(JSON.parse(groupResult.stdout)).toMatchObject({ imported: 1, rejected: 1 });
    expect(groupResult.stderr.trim()).toBe(`${groups}:1: parent_product_group_id: not_found`);
    const products = join(dataDir, 'products.csv');
    writeFileSync(products, `product_id,name,product_group_id,product_brand_id,external_ids.GLOBAL\n${PRODUCT},Juice,${GROUP},${BRAND},8590001\n,Copy,${GROUP},,8590001\n`);
    const productResult = await runCli(['import', 'products', products, '--data-dir', dataDir, '--json']);
    expect(JSON.parse(productResult.stdout)).toMatchObject({ imported: 1, rejected: 1 });
    expect(productResult.stderr.trim()).toBe(`${products}:3: external_ids.GLOBAL: already_exists`);
    const campaigns = join(dataDir, 'campaigns.ndjson');
    writeFileSync(campaigns, [JSON.stringify({ campaign_id: CAMPAIGN, campaign: { name: 'Summer' } }), JSON.stringify({ campaign: { name: 'Lost', parent_id: 'ffffffffffffffffffffffffff' } })].join('\n'));
    expect(await runCliJson(['import', 'campaigns', campaigns, '--data-dir', dataDir])).toMatchObject({ imported: 1, rejected: 1 });
    const server = await startTestServer({ dataDir, demo: false });
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
    const storeResult = await runCli(['import', 'stores', stores, '--data-dir', dataDir, '--json']);
    expect(JSON.parse(storeResult.stdout)).toMatchObject({ imported: 1, rejected: 1 });
    expect(storeResult.stderr.trim()).toMatch(new RegExp(`^${stores}:3: store.name: `));
    const rewards = join(dataDir, 'rewards.ndjson');
    writeFileSync(rewards, [JSON.stringify({ id: REWARD, code: 'COFFEE', name: 'Free coffee', priority: 3, points_cost: 50000, discount: { type: 'percent', value: 100 } }), JSON.stringify({ id: 'ab0000000000000000000000f3', code: 'X', name: 'Bad', priority: 12, discount: { type: 'percent', value: 100 } })].join('\n'));
    const rewardResult = await runCli(['import', 'rewards', rewards, '--data-dir', dataDir, '--json']);
    expect(JSON.parse(rewardResult.stdout)).toMatchObject({ imported: 1, rejected: 1 });
    expect(rewardResult.stderr.trim()).toMatch(new RegExp(`^${rewards}:2: priority: `));
    const server = await startTestServer({ dataDir, demo: false });
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

  it('names the resources it can import when asked for another', async () => {
    const result = await runCli(['import', 'vouchers', join(dataDir, 'cards.csv'), '--data-dir', dataDir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('resources: customers, cards, products, product-groups, brands, stores, rewards, campaigns');
  });
});
