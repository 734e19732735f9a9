import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertEventGroup, insertEventProperty } from '../../support/events-fixtures.js';
import { OpenApiContract } from '../../support/openapi.js';
import { call, demoPosLogin, demoToken, startTestServer, type TestServer } from '../../support/server.js';
import { listChecks } from '../../support/list-checks.js';

let server: TestServer;
let pos: Record<string, string>;
let token: Record<string, string>;
let groups: Record<string, string>;
const contract = new OpenApiContract();

beforeAll(async () => {
  server = await startTestServer();
  pos = await demoPosLogin(server);
  token = (await demoToken(server)).headers;
  insertEventProperty(server, {
    id: 'preferred_time',
    name: 'Preferred time',
    description: 'When the customer likes to shop',
    data_type: 'multiselect',
    items: [{ id: 'de0000000000000000000000e1', name: '{"en":"evening","cz":"vecer"}', state: 1 }],
    is_required: 1,
  });
  insertEventProperty(server, { id: 'basket_size', name: 'Basket size', data_type: 'integer', is_unique: 1 });
  insertEventProperty(server, { id: 'visit_channel', name: 'Visit channel' });
  groups = {
    cart: insertEventGroup(server, 'Shopping cart', 'shopping_cart'),
    web: insertEventGroup(server, 'Web shop', 'web_shop'),
    pos: insertEventGroup(server, 'Cash desk', 'cash_desk'),
  };
});
afterAll(() => server.close());

describe.each([
  ['enterprise', () => pos],
  ['customer', () => token],
] as const)('event properties in the %s interface', (iface, headers) => {
  const get = (path: string) => call('GET', `${server.api(iface)}${path}`, { headers: headers() });
  const names = (response: { body: any }) => response.body.data.event_properties.map((p: any) => p.property_id);

  it('lists with total_items counting every property beyond one page', async () => {
    const response = await get('/event-properties?count=2');
    expect(response.status).toBe(200);
    expect(response.body.data.event_properties).toHaveLength(2);
    expect(response.body.data.total_items).toBe(3);
  });

  it('filters by name or a part of it, ignoring case', async () => {
    expect(names(await get('/event-properties?name=time'))).toEqual(['preferred_time']);
    expect(names(await get('/event-properties?name=S'))).toEqual(['basket_size', 'visit_channel']);
    expect((await get('/event-properties?name=nothing')).body.data).toEqual({ event_properties: [], total_items: 0 });
  });

  it('sorts in both directions and answers [] with the total past the end', async () => {
    expect(names(await get('/event-properties?sort_field=name'))).toEqual(['basket_size', 'preferred_time', 'visit_channel']);
    const descending = await get('/event-properties?sort_field=name&sort_direction=DESC');
    expect(names(descending)).toEqual(['visit_channel', 'preferred_time', 'basket_size']);
    expect((await get('/event-properties?offset=3')).body.data).toEqual({ event_properties: [], total_items: 3 });
  });

  it('refuses an empty name and an unknown sort field', async () => {
    const empty = await get('/event-properties?name=');
    expect(empty.status).toBe(400);
    expect(empty.body.error.error_data.invalid_params[0]).toMatchObject({ name: 'name', reason: 'empty' });
    const sort = await get('/event-properties?sort_field=colour');
    expect(sort.body.error.error_data.invalid_params[0]).toMatchObject({ name: 'sort_field', reason: 'not_allowed_value' });
  });

  it('reads a property by its textual id in the Property shape', async () => {
    const response = await get('/event-properties/preferred_time');
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      property_id: 'preferred_time',
      name: 'Preferred time',
      description: 'When the customer likes to shop',
      data_type: 'multiselect',
      items: [{ id: 'de0000000000000000000000e1', name: '{"en":"evening","cz":"vecer"}', state: 1 }],
      is_required: 1,
      is_unique: 0,
      state: 1,
    });
    expect(Object.keys(response.body.data)).toEqual([
      'property_id',
      'name',
      'description',
      'data_type',
      'items',
      'is_required',
      'is_unique',
      'last_change',
      'state',
    ]);
  });

  it('answers 404 for an unknown property', async () => {
    expect((await get('/event-properties/no_such_property')).status).toBe(404);
  });
});

describe.each([
  ['enterprise', () => pos],
  ['customer', () => token],
] as const)('event groups in the %s interface', (iface, headers) => {
  const get = (path: string) => call('GET', `${server.api(iface)}${path}`, { headers: headers() });
  const textIds = (response: { body: any }) => response.body.data.event_groups.map((g: any) => g.text_id);

  it('lists with total_items counting every group beyond one page', async () => {
    const response = await get('/event-groups?count=3');
    expect(response.status).toBe(200);
    expect(response.body.data.event_groups).toHaveLength(3);
    expect(contract.check('get', '/event-groups', 200, response.body)).toEqual([]);
    expect(response.body.data.total_items).toBe(4);
  });

  it('filters by name or a part of it and by text_id', async () => {
    expect(textIds(await get('/event-groups?name=shop&sort_field=text_id'))).toEqual(['shopping_cart', 'web_shop']);
    expect(textIds(await get('/event-groups?text_id=cash_desk'))).toEqual(['cash_desk']);
    expect(textIds(await get('/event-groups?text_id=cash'))).toEqual([]);
  });

  it('sorts in both directions and answers [] with the total past the end', async () => {
    expect(textIds(await get('/event-groups?sort_field=name'))).toEqual(['cash_desk', 'mobile_app', 'shopping_cart', 'web_shop']);
    const descending = await get('/event-groups?sort_field=name&sort_direction=DESC');
    expect(textIds(descending)).toEqual(['web_shop', 'shopping_cart', 'mobile_app', 'cash_desk']);
    expect((await get('/event-groups?offset=10')).body.data).toEqual({ event_groups: [], total_items: 4 });
  });

  it('refuses an unknown sort field', async () => {
    const response = await get('/event-groups?sort_field=last_change');
    expect(response.status).toBe(400);
    expect(response.body.error.error_data.invalid_params[0]).toMatchObject({ name: 'sort_field', reason: 'not_allowed_value' });
  });

  it('reads a group in the EventGroup shape and answers 404 for an unknown one', async () => {
    const response = await get(`/event-groups/${groups.cart}`);
    expect(response.status).toBe(200);
    expect(contract.check('get', '/event-groups/{event_group_id}', 200, response.body)).toEqual([]);
    expect(response.body.data).toEqual({ event_group_id: groups.cart, name: 'Shopping cart', text_id: 'shopping_cart', state: 1 });
    expect((await get('/event-groups/ffffffffffffffffffffffffff')).status).toBe(404);
  });
});

listChecks('GET /event-properties (enterprise)', () => ({
  url: `${server.api('enterprise')}/event-properties`,
  headers: pos,
  plural: 'event_properties',
  idField: 'property_id',
}));

listChecks('GET /event-groups (enterprise)', () => ({
  url: `${server.api('enterprise')}/event-groups`,
  headers: pos,
  plural: 'event_groups',
  idField: 'event_group_id',
}));

listChecks('GET /event-groups (customer)', () => ({
  url: `${server.api('customer')}/event-groups`,
  headers: token,
  plural: 'event_groups',
  idField: 'event_group_id',
}));

listChecks('GET /event-properties (customer)', () => ({
  url: `${server.api('customer')}/event-properties`,
  headers: token,
  plural: 'event_properties',
  idField: 'property_id',
}));
