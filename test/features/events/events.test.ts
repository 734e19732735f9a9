import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_NESTING_LIMIT } from '../../../src/core/schemas.js';
import { MAX_JSON_DEPTH } from '../../../src/core/json-depth.js';
import { DEMO_IDS } from '../../../src/demo/demo.js';
import { insertEventProperty } from '../../support/events-fixtures.js';
import { OpenApiContract } from '../../support/openapi.js';
import { demoCustomerSession } from '../../support/reservations-fixtures.js';
import { call, demoPosLogin, demoToken, startTestServer, type TestServer } from '../../support/server.js';
import { listChecks } from '../../support/list-checks.js';
import { lastOutboxSeq, outboxKindsSince, queuedChangesSince } from '../../support/outbox.js';

const VISIT = 'aaaaaaaaaaaaaaaaaaaaaaaaaa';
const SIGNUP = 'bbbbbbbbbbbbbbbbbbbbbbbbbb';
const REVIEW = 'cccccccccccccccccccccccccc';

let server: TestServer;
let pos: Record<string, string>;
let jana: Record<string, string>;
let enterprise: string;
let customer: string;
let externalIds = 0;
const contract = new OpenApiContract();

function event(overrides: Record<string, unknown> = {}) {
  externalIds += 1;
  return { event_type_id: VISIT, customer_id: DEMO_IDS.customerPetr, external_id: `ext-${externalIds}`, ...overrides };
}

async function post(body: unknown, headers = pos, base = enterprise) {
  return call('POST', `${base}/events`, { headers, body });
}

async function create(overrides: Record<string, unknown> = {}, propertyRecords?: unknown[]): Promise<string> {
  const response = await post({ event: event(overrides), property_records: propertyRecords });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data.event_id as string;
}

async function list(query: string, headers = pos, base = enterprise) {
  return call('GET', `${base}/events?${query}`, { headers });
}

beforeAll(async () => {
  server = await startTestServer();
  pos = await demoPosLogin(server);
  jana = await demoCustomerSession(server);
  enterprise = server.api('enterprise');
  customer = server.api('customer');
  insertEventProperty(server, { id: 'visit_channel', name: 'Visit channel' });
  insertEventProperty(server, { id: 'basket_size', name: 'Basket size', data_type: 'integer' });
});
afterAll(() => server.close());

describe('POST /events', () => {
  it('records an event and reads it back in the Event shape', async () => {
    const id = await create({ external_id: 157613, data: '{"test":10}', created_at: '2026-03-01 08:30:00', secondary_external_id: 'till-2' });
    expect(id).toMatch(/^[0-9a-f]{26}$/);
    const read = await call('GET', `${enterprise}/events/${id}`, { headers: pos });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({
      event_id: id,
      event_type_id: VISIT,
      customer_id: DEMO_IDS.customerPetr,
      external_id: '157613',
      data: '{"test":10}',
      created_at: '2026-03-01 08:30:00',
      secondary_external_id: 'till-2',
      state: 1,
    });
    expect(contract.check('get', '/events/{event_id}', 200, read.body)).toEqual([]);
  });

  it('stores structured data as its JSON text and stamps created_at when not given', async () => {
    const id = await create({ data: { basket: ['CRO', 'CAP'] } });
    const read = await call('GET', `${enterprise}/events/${id}`, { headers: pos });
    expect(read.body.data.data).toBe('{"basket":["CRO","CAP"]}');
    expect(read.body.data.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(read.body.data.secondary_external_id).toBeNull();
  });

  it('accepts created_at with an offset', async () => {
    const id = await create({ created_at: '2026-03-01T10:30:00+02:00' });
    const read = await call('GET', `${enterprise}/events/${id}`, { headers: pos });
    expect(read.body.data.created_at).toBe('2026-03-01 08:30:00');
  });

  it('queues one command carrying a change per record (the event and each property record)', async () => {
    const seq = lastOutboxSeq(server);
    const outbox = lastOutboxSeq(server);
    await create({}, [
      { property_id: 'visit_channel', property_value: 'app' },
      { property_id: 'basket_size', property_value: 3 },
    ]);
    expect(queuedChangesSince(server, seq)).toEqual({ events: 1, event_property_records: 2 });
    expect(outboxKindsSince(server, outbox)).toEqual(['events.create']);
  });

  it('refuses a repeated relation of event type, customer and external ids with relation_already_exists', async () => {
    const body = event({ secondary_external_id: 'a' });
    const first = await post({ event: body });
    expect(first.status).toBe(201);
    const seq = lastOutboxSeq(server);
    const again = await post({ event: { ...body, data: 'other' } });
    expect(again.status).toBe(400);
    expect(again.body.error.error_data.invalid_params[0]).toMatchObject({
      name: 'event_id_event_type_id_customer_id_external_id_secondary_external_id',
      reason: 'relation_already_exists',
      value: first.body.data.event_id,
    });
    expect(queuedChangesSince(server, seq)).toEqual({});
    expect((await post({ event: { ...body, secondary_external_id: 'b' } })).status).toBe(201);
    expect((await post({ event: { ...body, event_type_id: SIGNUP } })).status).toBe(201);
  });

  it('treats a missing secondary external id as part of the relation', async () => {
    const body = event();
    expect((await post({ event: body })).status).toBe(201);
    const again = await post({ event: { ...body, secondary_external_id: null } });
    expect(again.status).toBe(400);
    expect(again.body.error.error_data.invalid_params[0].reason).toBe('relation_already_exists');
  });

  it('names an unknown customer and an unknown property with not_found', async () => {
    const response = await post({
      event: event({ customer_id: 'ffffffffffffffffffffffffff' }),
      property_records: [
        { property_id: 'visit_channel', property_value: 'app' },
        { property_id: 'no_such_property', property_value: 1 },
      ],
    });
    expect(response.status).toBe(400);
    expect(response.body.error.error_data.invalid_params.map((p: any) => [p.name, p.reason])).toEqual([
      ['event.customer_id', 'not_found'],
      ['property_records.1.property_id', 'not_found'],
    ]);
  });

  it.each([
    [{ event_type_id: undefined }, 'event.event_type_id', 'required'],
    [{ external_id: '' }, 'event.external_id', 'empty'],
    [{ customer_id: 'jana' }, 'event.customer_id', 'invalid_value_format'],
    [{ created_at: 'last tuesday' }, 'event.created_at', 'invalid_value_format'],
  ])('refuses %j', async (overrides, name, reason) => {
    const response = await post({ event: event(overrides) });
    expect(response.status).toBe(400);
    expect(response.body.error.error_data.invalid_params[0]).toMatchObject({ name, reason });
  });

  it(`refuses data and property values nested deeper than ${JSON_NESTING_LIMIT} levels with 400, however deep (the fuzz sent 2 000 levels: 500)`, async () => {
    const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
    const send = (data: string, value: string) =>
      call('POST', `${enterprise}/events`, {
        headers: pos,
        rawBody: `{"event": ${JSON.stringify(event())}, "property_records": [{"property_id": "visit_channel", "property_value": ${value}}]}`.replace(
          '"event": {',
          `"event": {"data": ${data}, `,
        ),
      });
    expect((await send(`{"a": ${nested(JSON_NESTING_LIMIT - 1)}}`, nested(JSON_NESTING_LIMIT))).status).toBe(201);
    // Past the depth any body may nest, the body itself is refused (src/core/json-depth.ts).
    const named = (depth: number, field: string) => (depth > MAX_JSON_DEPTH ? 'body' : field);
    for (const depth of [JSON_NESTING_LIMIT + 1, 2_000, 200_000]) {
      const deepData = await send(`{"a": ${nested(depth)}}`, '1');
      expect(deepData.status).toBe(400);
      expect(deepData.body.error.error_data.invalid_params).toEqual([
        expect.objectContaining({ name: named(depth, 'event.data.a'), reason: 'invalid_value_format' }),
      ]);
      const deepValue = await send('"text"', nested(depth));
      expect(deepValue.status).toBe(400);
      expect(deepValue.body.error.error_data.invalid_params).toEqual([
        expect.objectContaining({ name: named(depth, 'property_records.0.property_value'), reason: 'invalid_value_format' }),
      ]);
    }
  });

  it('lets a logged-in customer record events for itself only', async () => {
    const own = await post({ event: event({ customer_id: DEMO_IDS.customerJana }) }, jana, customer);
    expect(own.status).toBe(201);
    const other = await post({ event: event() }, jana, customer);
    expect(other.status).toBe(400);
    expect(other.body.error.error_data.invalid_params[0]).toMatchObject({
      name: 'event.customer_id',
      reason: 'not_belong_to_logged_in_customer',
    });
  });
});

describe('GET /events', () => {
  let eva: string[];

  beforeAll(async () => {
    eva = [];
    const types = [REVIEW, REVIEW, SIGNUP, VISIT, VISIT];
    for (let index = 0; index < types.length; index += 1) {
      eva.push(
        await create(
          {
            customer_id: DEMO_IDS.customerEva,
            event_type_id: types[index],
            external_id: `eva-${index % 2}-${index}`,
            created_at: `2026-04-0${index + 1} 12:00:00`,
          },
          [{ property_id: 'basket_size', property_value: index }],
        ),
      );
    }
  });

  const evaEvents = (query: string) => list(`customer_id=${DEMO_IDS.customerEva}&${query}`);
  const ids = (response: { body: any }) => response.body.data.events.map((e: any) => e.event_id);

  it('lists in the data envelope with total_items counting every match beyond one page', async () => {
    const response = await evaEvents('count=2');
    expect(response.status).toBe(200);
    expect(response.body.data.events).toHaveLength(2);
    expect(response.body.data.total_items).toBe(5);
    expect(response.body.data.events[0]).not.toHaveProperty('property_records');
  });

  it('filters by event_type_id, event_type_ids in every array form, external_id and the time window', async () => {
    expect(ids(await list(`event_type_id=${REVIEW}`))).toEqual([eva[0], eva[1]]);
    expect(ids(await evaEvents(`event_type_ids[]=${REVIEW}&event_type_ids[]=${SIGNUP}`))).toEqual(eva.slice(0, 3));
    expect(ids(await evaEvents(`event_type_ids=${SIGNUP},${VISIT}`))).toEqual(eva.slice(2));
    expect(ids(await evaEvents(`event_type_ids[0]=${SIGNUP}`))).toEqual([eva[2]]);
    expect(ids(await list('external_id=eva-1-3'))).toEqual([eva[3]]);
    expect(ids(await evaEvents('time_from=2026-04-02 00:00:00&time_to=2026-04-04T00:00:00'))).toEqual([eva[1], eva[2]]);
  });

  it('includes the property records when asked', async () => {
    const response = await evaEvents('include_property_records=true&count=1');
    expect(response.body.data.events[0].property_records).toMatchObject([
      { property_id: 'basket_size', property_name: 'Basket size', property_value: 0 },
    ]);
  });

  it('sorts by created_at in both directions and answers [] with the total past the end', async () => {
    expect(ids(await evaEvents('sort_field=created_at&sort_direction=DESC'))).toEqual([...eva].reverse());
    expect(ids(await evaEvents('sort_field=created_at&sort_direction=asc'))).toEqual(eva);
    const past = await evaEvents('offset=5');
    expect(past.body.data).toEqual({ events: [], total_items: 5 });
  });

  it.each([
    ['customer_id=eva', 'customer_id', 'invalid_value_format'],
    ['time_from=soon', 'time_from', 'invalid_value_format'],
    ['include_property_records=perhaps', 'include_property_records', 'invalid_value_format'],
    ['sort_field=data', 'sort_field', 'not_allowed_value'],
    ['offset=-1', 'offset', 'not_allowed_value'],
  ])('refuses %s', async (query, name, reason) => {
    const response = await list(query);
    expect(response.status).toBe(400);
    expect(response.body.error.error_data.invalid_params[0]).toMatchObject({ name, reason });
  });

  it('shows a logged-in customer only its own events', async () => {
    const own = await list('', jana, customer);
    expect(own.status).toBe(200);
    expect(own.body.data.total_items).toBeGreaterThan(0);
    expect(own.body.data.events.every((e: any) => e.customer_id === DEMO_IDS.customerJana)).toBe(true);
    const other = await list(`customer_id=${DEMO_IDS.customerEva}`, jana, customer);
    expect(other.status).toBe(400);
    expect(other.body.error.error_data.invalid_params[0].reason).toBe('not_belong_to_logged_in_customer');
  });

  it('answers 403 to a token with no customer logged in', async () => {
    const { headers } = await demoToken(server);
    expect((await list('', headers, customer)).status).toBe(403);
  });
});

describe('GET /events/{id} and its property records', () => {
  it('lists the property records of an event with their values as sent', async () => {
    const id = await create({}, [
      { property_id: 'visit_channel', property_value: 'app' },
      { property_id: 'basket_size', property_value: 3 },
    ]);
    const response = await call('GET', `${enterprise}/events/${id}/property-records`, { headers: pos });
    expect(response.status).toBe(200);
    expect(response.body.data.total_items).toBe(2);
    expect(response.body.data.property_records).toMatchObject([
      { property_id: 'visit_channel', property_name: 'Visit channel', property_value: 'app' },
      { property_id: 'basket_size', property_name: 'Basket size', property_value: 3 },
    ]);
    expect(contract.check('get', '/events/{event_id}/property-records', 200, response.body)).toEqual([]);
    expect(Object.keys(response.body.data.property_records[0])).toEqual([
      'property_record_id',
      'property_id',
      'property_name',
      'property_value',
      'last_change',
    ]);
  });

  it('answers an event without property records with an empty list', async () => {
    const id = await create();
    const response = await call('GET', `${enterprise}/events/${id}/property-records`, { headers: pos });
    expect(response.body.data).toEqual({ property_records: [], total_items: 0 });
  });

  it('answers 404 for an unknown event', async () => {
    expect((await call('GET', `${enterprise}/events/ffffffffffffffffffffffffff`, { headers: pos })).status).toBe(404);
    expect((await call('GET', `${enterprise}/events/ffffffffffffffffffffffffff/property-records`, { headers: pos })).status).toBe(404);
  });

  it("refuses another customer's event in the customer interface and shows the own one", async () => {
    const others = await create();
    for (const path of [`/events/${others}`, `/events/${others}/property-records`]) {
      const response = await call('GET', `${customer}${path}`, { headers: jana });
      expect(response.status).toBe(400);
      expect(response.body.error.error_data.invalid_params[0]).toMatchObject({ name: 'event_id', reason: 'not_belong_to_logged_in_customer' });
    }
    const own = await post({ event: event({ customer_id: DEMO_IDS.customerJana }) }, jana, customer);
    const read = await call('GET', `${customer}/events/${own.body.data.event_id}`, { headers: jana });
    expect(read.status).toBe(200);
    expect(read.body.data.customer_id).toBe(DEMO_IDS.customerJana);
  });
});

listChecks('GET /events (enterprise)', () => ({ url: `${server.api('enterprise')}/events`, headers: pos, plural: 'events', idField: 'event_id' }));
