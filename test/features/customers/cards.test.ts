import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, DEMO_IDS } from '../../../src/demo/demo.js';
import { createCard, createCustomer, invalidParam, janaSession, person, UNKNOWN_ID, type Session } from '../../support/customers-fixtures.js';
import { expectError } from '../../support/expect-error.js';
import { call, demoPosLogin, startTestServer, type JsonResponse, type TestServer, enterpriseGetter } from '../../support/server.js';
import { listChecks } from '../../support/list-checks.js';
import { queuedChangeCount } from '../../support/outbox.js';

let server: TestServer;
let pos: Record<string, string>;
const get = enterpriseGetter(
  () => server,
  () => pos,
);
let jana: Session;
let holder: string;
const card: Record<string, string> = {};
const post = (body: unknown) => call('POST', `${server.api('enterprise')}/cards`, { headers: pos, body });
const asJana = (path: string) => call('GET', `${server.api('customer')}${path}`, { headers: jana.headers });
const numbers = (response: JsonResponse) => response.body.data.cards.map((c: { card_number: string }) => c.card_number);

beforeAll(async () => {
  // Prague time, so that validity bounds sent without an offset are read in the store's zone.
  server = await startTestServer({ config: { time_zone: 'Europe/Prague' } });
  pos = await demoPosLogin(server);
  jana = await janaSession(server);
  holder = await createCustomer(server, pos, { customer: { personal_information: person(1) } });
  card.valid = await createCard(server, pos, {
    customer_id: holder,
    card_number: '3000000000001',
    card_type_id: 'plastic',
    valid_from: '2020-01-01',
    valid_to: '2099-12-31 23:59:59',
    store_id: DEMO_IDS.storeAirport,
  });
  card.expired = await createCard(server, pos, {
    customer_id: holder,
    card_number: '3000000000002',
    card_type_id: 'virtual',
    valid_to: '2021-01-01T00:00:00Z',
    state: 0,
  });
  card.future = await createCard(server, pos, {
    customer_id: holder,
    card_number: 3000000000003,
    card_type_id: 'virtual',
    secondary_card_number: 'SEC-3',
    valid_from: '2098-06-01T00:00:00+02:00',
  });
});
afterAll(() => server.close());

describe('POST /cards', () => {
  it('answers 201 with the id; the card reads back in the OpenAPI Card shape with times in the store zone', async () => {
    const read = await get(`/cards/${card.valid}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({
      card_id: card.valid,
      customer_id: holder,
      card_type_id: 'plastic',
      card_number: '3000000000001',
      secondary_card_number: null,
      valid_from: '2020-01-01 00:00:00',
      valid_to: '2099-12-31 23:59:59',
      store_id: DEMO_IDS.storeAirport,
      last_change: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/),
      state: 1,
    });
    expect((await get(`/cards/${card.expired}`)).body.data).toMatchObject({ valid_from: null, valid_to: '2021-01-01 01:00:00', state: 0 });
    expect((await get(`/cards/${card.future}`)).body.data).toMatchObject({
      card_number: '3000000000003',
      secondary_card_number: 'SEC-3',
      valid_from: '2098-06-01 00:00:00',
    });
  });

  it('queues one row change', async () => {
    const before = queuedChangeCount(server);
    const created = await post({ card: { customer_id: DEMO_IDS.customerEva, card_number: '2000000000999' } });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body.data)).toEqual(['card_id']);
    expect(queuedChangeCount(server) - before).toBe(1);
  });

  it('refuses a taken number, an unknown customer or store, a malformed or reversed validity', async () => {
    expect(invalidParam(await post({ card: { customer_id: holder, card_number: demoCredentials.customer_card } }))).toMatchObject({
      name: 'card.card_number',
      reason: 'already_exists',
    });
    expect(invalidParam(await post({ card: { customer_id: UNKNOWN_ID, card_number: '1' } }))).toMatchObject({
      name: 'card.customer_id',
      reason: 'not_found',
    });
    expect(invalidParam(await post({ card: { customer_id: holder, card_number: '2', store_id: UNKNOWN_ID } }))).toMatchObject({
      name: 'card.store_id',
      reason: 'not_found',
    });
    expect(invalidParam(await post({ card: { customer_id: holder, card_number: '3', valid_from: 'next monday' } }))).toMatchObject({
      name: 'card.valid_from',
      reason: 'invalid_value_format',
    });
    expect(
      invalidParam(await post({ card: { customer_id: holder, card_number: '4', valid_from: '2030-01-01', valid_to: '2029-01-01' } })),
    ).toMatchObject({ name: 'card.valid_to', reason: 'not_allowed_value' });
    expect(invalidParam(await post({ card: { customer_id: holder, card_number: '5', state: 2 } }))).toMatchObject({
      name: 'card.state',
      reason: 'not_allowed_value',
    });
    expect(invalidParam(await post({ card: { customer_id: holder } }))).toMatchObject({ name: 'card.card_number', reason: 'required' });
  });

  it('is not offered in the customer interface (403)', async () => {
    const response = await call('POST', `${server.api('customer')}/cards`, {
      headers: jana.headers,
      body: { card: { customer_id: DEMO_IDS.customerJana, card_number: '9' } },
    });
    expectError(response, 403, 'interface_not_allowed_exception');
  });
});

describe('GET /cards', () => {
  it('answers the cards key and a total_items that counts every card, not just the page', async () => {
    const response = await get('/cards?count=2');
    expect(Object.keys(response.body.data)).toEqual(['cards', 'total_items']);
    expect(response.body.data.cards).toHaveLength(2);
    const all = server.app.node.db.prepare('SELECT count(*) AS n FROM cards').get() as { n: number };
    expect(response.body.data.total_items).toBe(all.n);
  });

  it('finds the customer of a card number, the way a POS identifies customers', async () => {
    const response = await get(`/cards?card_number=${demoCredentials.customer_card}`);
    expect(response.body.data).toMatchObject({
      total_items: 1,
      cards: [{ customer_id: DEMO_IDS.customerJana, card_number: demoCredentials.customer_card }],
    });
  });

  it('each filter narrows the list', async () => {
    expect(numbers(await get(`/cards?customer_id=${holder}&sort_field=card_number`))).toEqual(['3000000000001', '3000000000002', '3000000000003']);
    expect(numbers(await get(`/cards?customer_id=${holder}&card_type_id=virtual&sort_field=card_number`))).toEqual([
      '3000000000002',
      '3000000000003',
    ]);
    expect(numbers(await get(`/cards?customer_id=${holder}&state=0`))).toEqual(['3000000000002']);
    expect(numbers(await get(`/cards?customer_id=${holder}&is_valid=true`))).toEqual(['3000000000001']);
    expect(numbers(await get(`/cards?customer_id=${holder}&is_valid=false&sort_field=card_number`))).toEqual(['3000000000002', '3000000000003']);
    expect(numbers(await get('/cards?card_number_list[]=3000000000001&card_number_list[]=2000000000024&sort_field=card_number'))).toEqual([
      '2000000000024',
      '3000000000001',
    ]);
    expect(numbers(await get('/cards?card_number_list=3000000000002,3000000000003&sort_field=card_number'))).toEqual([
      '3000000000002',
      '3000000000003',
    ]);
    expect(numbers(await get('/cards?card_number=SEC-3&search_secondary_card_number=true'))).toEqual(['3000000000003']);
    expect(numbers(await get('/cards?card_number=SEC-3'))).toEqual([]);
    expect(numbers(await get('/cards?card_number=3000000000003&search_secondary_card_number=true'))).toEqual([]);
  });

  it('sorts by card number and card_id in both directions; valid_to, which no index orders, answers 400 not_allowed_value', async () => {
    expect(invalidParam(await get('/cards?sort_field=valid_to'))).toMatchObject({ name: 'sort_field', reason: 'not_allowed_value' });
    for (const field of ['card_number', 'card_id']) {
      const up = (await get(`/cards?sort_field=${field}&sort_direction=ASC`)).body.data.cards.map((c: { card_id: string }) => c.card_id);
      const down = (await get(`/cards?sort_field=${field}&sort_direction=DESC`)).body.data.cards.map((c: { card_id: string }) => c.card_id);
      expect(down).toEqual([...up].reverse());
    }
    const up = numbers(await get('/cards?sort_field=card_number'));
    expect(up).toEqual([...up].sort());
  });

  it('pages with count and offset, and answers [] past the end with the total', async () => {
    const all = numbers(await get('/cards?sort_field=card_number'));
    expect(numbers(await get('/cards?sort_field=card_number&count=2&offset=1'))).toEqual(all.slice(1, 3));
    expect((await get('/cards?offset=1000')).body.data).toEqual({ cards: [], total_items: all.length });
  });

  it('answers an invalid filter value with 400 and its reason', async () => {
    expect(invalidParam(await get('/cards?state=7'))).toMatchObject({ name: 'state', reason: 'not_allowed_value' });
    expect(invalidParam(await get('/cards?is_valid=maybe'))).toMatchObject({ name: 'is_valid', reason: 'invalid_value_format' });
    expect(invalidParam(await get('/cards?sort_field=colour'))).toMatchObject({ name: 'sort_field', reason: 'not_allowed_value' });
    expect(invalidParam(await get('/cards?card_number_list[]='))).toMatchObject({ reason: 'empty' });
  });

  it('serves card-number lookups from an index', () => {
    const plan = (sql: string) =>
      (server.app.node.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('x') as { detail: string }[]).map((step) => step.detail).join('; ');
    expect(plan('SELECT id FROM cards WHERE card_number = ? ORDER BY id LIMIT 100')).toMatch(/SEARCH cards USING INDEX/);
    expect(plan('SELECT id FROM cards WHERE secondary_card_number = ? ORDER BY id LIMIT 100')).toMatch(/SEARCH cards USING INDEX/);
  });
});

describe('GET /cards/{card_id}', () => {
  it('answers 404 naming an unknown card', async () => {
    expect(expectError(await get(`/cards/${UNKNOWN_ID}`), 404, 'not_found_exception').error_data).toEqual({
      resource_name: 'cards',
      resource_id: UNKNOWN_ID,
    });
  });
});

describe('GET /customers/{customer_id}/cards', () => {
  it('lists the cards of one customer with the card filters, and 404 for an unknown customer', async () => {
    const response = await get(`/customers/${holder}/cards?sort_field=card_number&count=2`);
    expect(response.body.data.total_items).toBe(3);
    expect(numbers(response)).toEqual(['3000000000001', '3000000000002']);
    expect(numbers(await get(`/customers/${holder}/cards?card_type_id=plastic`))).toEqual(['3000000000001']);
    expectError(await get(`/customers/${UNKNOWN_ID}/cards`), 404, 'not_found_exception');
  });
});

describe('cards in the customer interface', () => {
  it('lists only the logged-in customer’s cards; naming another customer answers not_belong_to_logged_in_customer', async () => {
    expect((await asJana('/cards')).body.data).toEqual({ total_items: 1, cards: [expect.objectContaining({ customer_id: DEMO_IDS.customerJana })] });
    expect((await asJana('/cards?card_number=3000000000001')).body.data.total_items).toBe(0);
    expect(invalidParam(await asJana(`/cards?customer_id=${holder}`))).toMatchObject({
      name: 'customer_id',
      reason: 'not_belong_to_logged_in_customer',
    });
  });

  it('reads its own card; another customer’s card or card list answers not_belong_to_logged_in_customer', async () => {
    const own = (await asJana('/cards')).body.data.cards[0].card_id;
    expect((await asJana(`/cards/${own}`)).body.data.card_number).toBe(demoCredentials.customer_card);
    expect(invalidParam(await asJana(`/cards/${card.valid}`))).toMatchObject({ name: 'card_id', reason: 'not_belong_to_logged_in_customer' });
    expect((await asJana(`/customers/${DEMO_IDS.customerJana}/cards`)).body.data.total_items).toBe(1);
    expect(invalidParam(await asJana(`/customers/${holder}/cards`))).toMatchObject({ reason: 'not_belong_to_logged_in_customer' });
  });
});

describe('PUT /cards/{card_id}', () => {
  const put = (id: string, body: unknown, headers = pos, iface: 'enterprise' | 'customer' = 'enterprise') =>
    call('PUT', `${server.api(iface)}/cards/${id}`, { headers, body });

  it('changes only the fields sent (204), queuing one row change', async () => {
    const id = await createCard(server, pos, {
      customer_id: holder,
      card_number: '4000000000001',
      card_type_id: 'plastic',
      valid_from: '2024-01-01',
    });
    const before = queuedChangeCount(server);
    const response = await put(id, { card: { state: 0, valid_to: '2030-06-30 12:00:00' } });
    expect(response.status).toBe(204);
    expect(queuedChangeCount(server) - before).toBe(1);
    expect((await get(`/cards/${id}`)).body.data).toMatchObject({
      card_number: '4000000000001',
      card_type_id: 'plastic',
      valid_from: '2024-01-01 00:00:00',
      valid_to: '2030-06-30 12:00:00',
      state: 0,
    });
  });

  it('moves a card to another customer and keeps its own number; refuses a taken number, an unknown customer, a validity ending before it starts', async () => {
    const id = await createCard(server, pos, { customer_id: holder, card_number: '4000000000002', valid_from: '2024-01-01' });
    expect((await put(id, { card: { customer_id: DEMO_IDS.customerPetr, card_number: '4000000000002' } })).status).toBe(204);
    expect((await get(`/cards/${id}`)).body.data.customer_id).toBe(DEMO_IDS.customerPetr);
    expect(invalidParam(await put(id, { card: { card_number: demoCredentials.customer_card } }))).toMatchObject({
      name: 'card.card_number',
      reason: 'already_exists',
    });
    expect(invalidParam(await put(id, { card: { customer_id: UNKNOWN_ID } }))).toMatchObject({ name: 'card.customer_id', reason: 'not_found' });
    expect(invalidParam(await put(id, { card: { valid_to: '2023-12-31' } }))).toMatchObject({ name: 'card.valid_to', reason: 'not_allowed_value' });
    expectError(await put(UNKNOWN_ID, { card: { state: 0 } }), 404, 'not_found_exception');
  });

  it('lets a logged-in customer change its own card but not another’s, nor hand its card to someone else', async () => {
    const own = await createCard(server, pos, { customer_id: DEMO_IDS.customerJana, card_number: '4000000000003' });
    expect((await put(own, { card: { state: 0 } }, jana.headers, 'customer')).status).toBe(204);
    expect((await get(`/cards/${own}`)).body.data.state).toBe(0);
    expect(invalidParam(await put(own, { card: { customer_id: holder } }, jana.headers, 'customer'))).toMatchObject({
      name: 'card.customer_id',
      reason: 'not_belong_to_logged_in_customer',
    });
    expect(invalidParam(await put(card.valid!, { card: { state: 0 } }, jana.headers, 'customer'))).toMatchObject({
      name: 'card_id',
      reason: 'not_belong_to_logged_in_customer',
    });
    expect((await get(`/cards/${card.valid}`)).body.data.state).toBe(1);
  });

  it('lets a customer block its card but not reactivate a blocked one, which the shop does', async () => {
    const own = await createCard(server, pos, { customer_id: DEMO_IDS.customerJana, card_number: '4000000000004' });
    expect((await put(own, { card: { state: 0 } }, jana.headers, 'customer')).status).toBe(204);
    expect(invalidParam(await put(own, { card: { state: 1 } }, jana.headers, 'customer'))).toMatchObject({
      name: 'card.state',
      reason: 'not_allowed_value',
    });
    expect((await get(`/cards/${own}`)).body.data.state).toBe(0);
    expect((await put(own, { card: { state: 1 } })).status).toBe(204);
    expect((await get(`/cards/${own}`)).body.data.state).toBe(1);
  });
});

listChecks('GET /cards (enterprise)', () => ({ url: `${server.api('enterprise')}/cards`, headers: pos, plural: 'cards', idField: 'card_id' }));
