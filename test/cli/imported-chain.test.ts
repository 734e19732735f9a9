/**
 * A chain loaded as a new user would load it — `loyaltyd import` and `program load`, with
 * no demo — serves the calls that need the lookups only master data writes (issue 18).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliJson } from '../support/cli.js';
import { expectError } from '../support/expect-error.js';
import { bearer, call, startTestServer, tempDir, type TestServer } from '../support/server.js';

const STORE = 'ad0000000000000000000000a1';
const CUSTOMER = 'ad0000000000000000000000a2';
const GROUP = 'ad0000000000000000000000a3';
const PRODUCT = 'ad0000000000000000000000a4';
const SOURCE = 'ad0000000000000000000000a5';

let dataDir: string;
let server: TestServer;
let pos: Record<string, string>;

async function load(resource: string, file: string, lines: string[]): Promise<void> {
  const path = join(dataDir, file);
  writeFileSync(path, lines.join('\n'));
  expect(await runCliJson(['import', resource, path, '--data-dir', dataDir])).toMatchObject({
    imported: lines.length - (file.endsWith('.csv') ? 1 : 0),
    rejected: 0,
  });
}

beforeAll(async () => {
  dataDir = tempDir();
  const app = await runCliJson(['apps', 'add', '--name', 'Till app', '--data-dir', dataDir]);
  await runCliJson(['users', 'add', '--login', 'till', '--password', 'till-password', '--app', app.external_application_id, '--data-dir', dataDir]);
  await load('stores', 'stores.csv', ['store_id,store.store_code,store.name,store.partner_id,store.system_id', `${STORE},S-1,High Street,P-1,1`]);
  await load('customers', 'customers.ndjson', [
    JSON.stringify({ customer_id: CUSTOMER, customer: { personal_information: { first_name: 'Ida', email: 'ida@example.com', store_id: STORE } } }),
  ]);
  await load('cards', 'cards.csv', ['card.customer_id,card.card_number,card.card_type_id', `${CUSTOMER},3000000000015,plastic`]);
  await load('product-groups', 'groups.csv', ['product_group_id,name', `${GROUP},Tea`]);
  await load('products', 'products.csv', ['product_id,name,product_group_id,external_ids.GLOBAL', `${PRODUCT},Green tea,${GROUP},8591111`]);
  await load('purchase-item-types', 'item-types.csv', ['type_id,name', 'goods,Goods']);
  await load('event-properties', 'event-properties.ndjson', [
    JSON.stringify({ property_id: 'favourite_tea', name: 'Favourite tea', data_type: 'string' }),
  ]);
  await load('event-groups', 'event-groups.csv', ['name,text_id', 'Mobile app,mobile_app']);
  await load('product-reservation-sources', 'sources.csv', ['product_reservation_source_id,name', `${SOURCE},E-shop`]);
  const program = join(dataDir, 'program.json');
  writeFileSync(
    program,
    JSON.stringify({ currency_id: 'EUR', point_value: '0.10', earning: [{ kind: 'per_currency_unit', per_amount: '1', points: '1' }], rewards: [] }),
  );
  await runCliJson(['program', 'load', program, '--data-dir', dataDir]);
  server = await startTestServer({ dataDir, demo: false });
  const login = await call('POST', `${server.api('enterprise')}/users/actions/login`, {
    body: { user_external_application_id: app.external_application_id, login: 'till', password: 'till-password' },
  });
  expect(login.status).toBe(200);
  pos = bearer(login.body.data.bearer_token as string);
});
afterAll(() => server.close());

describe('a chain loaded only through loyaltyd import and program load', () => {
  it('holds nothing but what was imported', async () => {
    const customers = await call('GET', `${server.api('enterprise')}/customers`, { headers: pos });
    expect(customers.body.data.customers.map((customer: { customer_id: string }) => customer.customer_id)).toEqual([CUSTOMER]);
  });

  it('records an event with property records of an imported property, and refuses a property nobody imported', async () => {
    const enterprise = server.api('enterprise');
    const created = await call('POST', `${enterprise}/events`, {
      headers: pos,
      body: {
        event: { event_type_id: 'app_opened', customer_id: CUSTOMER, external_id: 'E-1' },
        property_records: [{ property_id: 'favourite_tea', property_value: 'sencha' }],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const records = await call('GET', `${enterprise}/events/${created.body.data.event_id}/property-records`, { headers: pos });
    expect(records.body.data.property_records).toEqual([expect.objectContaining({ property_id: 'favourite_tea', property_value: 'sencha' })]);
    const unknown = await call('POST', `${enterprise}/events`, {
      headers: pos,
      body: {
        event: { event_type_id: 'app_opened', customer_id: CUSTOMER, external_id: 'E-2' },
        property_records: [{ property_id: 'favourite_coffee', property_value: 'flat white' }],
      },
    });
    expect(expectError(unknown, 400, 'invalid_params_exception').error_data.invalid_params).toEqual([
      expect.objectContaining({ name: 'property_records.0.property_id', reason: 'not_found' }),
    ]);
  });

  it('takes a product reservation from an imported source in an imported store', async () => {
    const enterprise = server.api('enterprise');
    const created = await call('POST', `${enterprise}/product-reservations`, {
      headers: pos,
      body: {
        product_reservation: {
          customer_id: CUSTOMER,
          store_id: STORE,
          product_reservation_source_id: SOURCE,
          product_reservation_items: [{ reservable_product_id: 'green-tea', amount: 2, unit_price: '3.50', vat_rate: 12 }],
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const reservation = await call('GET', `${enterprise}/product-reservations/${created.body.data.product_reservation_id}`, { headers: pos });
    expect(reservation.body.data).toMatchObject({ customer_id: CUSTOMER, store_id: STORE, product_reservation_source_id: SOURCE });
  });
});
