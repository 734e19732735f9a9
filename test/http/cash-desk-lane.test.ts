/**
 * The cash-desk lane (src/http/cash-desk-lane.ts) answers accept-payment,
 * recommended-best-rewards, send-purchase and the recommendation engine without express. Every request here is sent twice: as a till
 * sends it (the lane) and with an X-Forwarded-For header, which sends it through express;
 * the two answers must be the same, status, headers and body. Express's entry point is
 * watched (not replaced) to show which way each request went.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../src/demo/demo.js';
import { call, demoPosLogin, demoToken, startTestServer, type JsonResponse, type TestServer } from '../support/server.js';

const LIMIT = 4096;
const JANA_CARD = '2000000000017';
const ESPRESSO = '859000769';

let server: TestServer;
let auth: Record<string, string>;
let throughExpress = 0;

beforeAll(async () => {
  server = await startTestServer({ config: { 'http.body_limit_bytes': LIMIT } });
  auth = await demoPosLogin(server);
  const app = server.app.http as unknown as { handle: (...args: unknown[]) => unknown };
  const handle = app.handle.bind(app);
  app.handle = (...args: unknown[]) => {
    throughExpress += 1;
    return handle(...args);
  };
});
afterAll(() => server.close());

const url = (action: string) => `${server.api('enterprise')}/purchases/actions/${action}`;
const bill = (code = ESPRESSO) => ({
  bill_id: 'lane-1',
  payment_time: '2026-11-20T14:00:00+00:00',
  currency_id: 'CZK',
  total_price: '259',
  bill_items: [{ plu_ids: [{ list_code: 'GLOBAL', code }], quantity: 1, price: 259, paid_amount: 259, bill_item_id: 1 }],
});
const acceptBody = { store_id: DEMO_IDS.storeCentral, cashdesk_number: 1, card_number: JANA_CARD, payment_type: 'S', max_points: '50', bill: bill() };
const recommendBody = { store_id: DEMO_IDS.storeCentral, cashdesk_number: '1', card_number: JANA_CARD, reward_list_type: 'F', bill: bill() };
const sendBody = (billId: string) => ({
  store_id: DEMO_IDS.storeCentral,
  cashdesk_number: 1,
  card_number: JANA_CARD,
  bill: { ...bill(), bill_id: billId, bill_number: billId },
});

interface Sent {
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

/** A checkout action by name, or a full URL (GET) for a recommendation. */
async function send(action: string, sent: Sent, extraHeaders: Record<string, string> = {}) {
  const headers = { 'content-type': 'application/json', ...auth, ...sent.headers, ...extraHeaders };
  const get = action.startsWith('http');
  const response = await fetch(get ? action : url(action), { method: get ? 'GET' : 'POST', headers, body: sent.body });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    contentLength: response.headers.get('content-length'),
    body: text ? JSON.parse(text) : text,
  };
}

/** Sends a request by the lane, then through express; checks which way each went; returns both answers. */
async function bothWays(action: string, sent: Sent) {
  const before = throughExpress;
  const lane = await send(action, sent);
  expect(throughExpress, 'the lane took the request').toBe(before);
  const viaExpress = await send(action, sent, { 'x-forwarded-for': '127.0.0.1' });
  expect(throughExpress, 'express took the request').toBe(before + 1);
  return { lane, viaExpress };
}

const json = (value: unknown) => JSON.stringify(value);

const CASES: { name: string; action: string; sent: Sent; status: number }[] = [
  { name: 'an accept-payment', action: 'accept-payment', sent: { body: json(acceptBody) }, status: 200 },
  { name: 'a recommended-best-rewards', action: 'recommended-best-rewards', sent: { body: json(recommendBody) }, status: 200 },
  { name: 'an unknown card', action: 'accept-payment', sent: { body: json({ ...acceptBody, card_number: '999' }) }, status: 400 },
  { name: 'a payment type out of the enum', action: 'accept-payment', sent: { body: json({ ...acceptBody, payment_type: 'X' }) }, status: 400 },
  { name: 'broken JSON', action: 'accept-payment', sent: { body: '{"store_id": ' }, status: 400 },
  { name: 'broken JSON after its first member', action: 'recommended-best-rewards', sent: { body: '{"store_id": "x",}' }, status: 400 },
  { name: 'a JSON array', action: 'accept-payment', sent: { body: '[]' }, status: 400 },
  { name: 'JSON after whitespace', action: 'accept-payment', sent: { body: `\n  ${json(acceptBody)}` }, status: 200 },
  { name: 'JSON after a byte order mark', action: 'recommended-best-rewards', sent: { body: `\uFEFF${json(recommendBody)}` }, status: 200 },
  {
    name: 'a charset=utf-8',
    action: 'accept-payment',
    sent: { headers: { 'content-type': 'application/json; charset=utf-8' }, body: json(acceptBody) },
    status: 200,
  },
  {
    name: 'a content type in capitals',
    action: 'accept-payment',
    sent: { headers: { 'content-type': 'Application/JSON' }, body: json(acceptBody) },
    status: 200,
  },
  {
    name: 'a card number in multi-byte UTF-8',
    action: 'accept-payment',
    sent: { body: json({ ...acceptBody, card_number: `${'č'.repeat(900)}` }) },
    status: 400,
  },
  { name: 'JSON that is not an object', action: 'recommended-best-rewards', sent: { body: '"text"' }, status: 400 },
  { name: 'an empty body', action: 'accept-payment', sent: { body: '' }, status: 400 },
  { name: 'a text/plain body', action: 'accept-payment', sent: { headers: { 'content-type': 'text/plain' }, body: json(acceptBody) }, status: 415 },
  {
    name: 'a form-encoded body',
    action: 'accept-payment',
    sent: { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'store_id=x' },
    status: 415,
  },
  { name: 'a JSON null', action: 'accept-payment', sent: { body: 'null' }, status: 400 },
  {
    name: 'a latin1 charset',
    action: 'accept-payment',
    sent: { headers: { 'content-type': 'application/json; charset=latin1' }, body: json(acceptBody) },
    status: 415,
  },
  { name: 'a gzip body', action: 'accept-payment', sent: { headers: { 'content-encoding': 'gzip' }, body: gzipSync(json(acceptBody)) }, status: 200 },
  { name: 'a body over the limit', action: 'accept-payment', sent: { body: json({ ...acceptBody, padding: 'x'.repeat(LIMIT) }) }, status: 413 },
  { name: 'no credentials', action: 'accept-payment', sent: { headers: { authorization: '' }, body: json(acceptBody) }, status: 401 },
  {
    name: 'an unknown bearer token',
    action: 'recommended-best-rewards',
    sent: { headers: { authorization: 'Bearer nope' }, body: json(recommendBody) },
    status: 401,
  },
  {
    name: 'a send-purchase without its bill',
    action: 'send-purchase',
    sent: { body: json({ store_id: DEMO_IDS.storeCentral, cashdesk_number: 1 }) },
    status: 400,
  },
  {
    name: 'a send-purchase for an unknown card',
    action: 'send-purchase',
    sent: { body: json({ ...sendBody('lane-unknown-card'), card_number: '999' }) },
    status: 400,
  },
];

const engine = (path: string) => `${server.api('enterprise')}/recommendation-engine/${path}`;
const RECOMMENDATIONS: { name: string; path: () => string; status: number }[] = [
  { name: 'a product combined', path: () => engine(`product/actions/combined?customer_id=${DEMO_IDS.customerJana}&count=3`), status: 200 },
  {
    name: 'a shopping-cart order with an array in brackets',
    path: () => engine(`shopping-cart/actions/order?cart_product_ids[]=${DEMO_IDS.customerJana}&count=2`),
    status: 200,
  },
  { name: 'a count out of range', path: () => engine(`product/actions/order?customer_id=${DEMO_IDS.customerJana}&count=0`), status: 400 },
  { name: 'an unknown customer', path: () => engine('product/actions/combined?customer_id=ffffffffffffffffffffffffff'), status: 400 },
  { name: 'an empty parameter', path: () => engine(`product/actions/eliminate?customer_id=${DEMO_IDS.customerJana}&product_id_list=`), status: 400 },
];

describe('the cash-desk lane answers as express does', () => {
  it.each(CASES)('$name', async ({ action, sent, status }) => {
    const { lane, viaExpress } = await bothWays(action, sent);
    expect(lane.status).toBe(status);
    expect(lane).toEqual(viaExpress);
  });

  it('names what it refuses: a text/plain body by its type (415), a JSON null as null (400)', async () => {
    const plain = await bothWays('accept-payment', { headers: { 'content-type': 'text/plain' }, body: json(acceptBody) });
    expect(plain.lane.body.error.detail).toBe('Request bodies must be application/json, not text/plain');
    const empty = await bothWays('send-purchase', { body: 'null' });
    expect(empty.lane.body.error.error_data.invalid_params).toEqual([
      { name: 'body', reason: 'invalid_value_format', value: 'null', message: 'The body must be a JSON object, not null' },
    ]);
  });

  it.each(RECOMMENDATIONS)('GET recommendations: $name', async ({ path, status }) => {
    const { lane, viaExpress } = await bothWays(path(), {});
    expect(lane.status).toBe(status);
    expect(lane).toEqual(viaExpress);
  });

  it('records a send-purchase as express does: 201 with the purchase, which the hub-less store then lists with its points', async () => {
    const before = throughExpress;
    const lane = await send('send-purchase', { body: json(sendBody('lane-sent-1')) });
    expect(throughExpress, 'the lane took the request').toBe(before);
    const viaExpress = await send('send-purchase', { body: json(sendBody('lane-sent-2')) }, { 'x-forwarded-for': '127.0.0.1' });
    expect(throughExpress, 'express took the request').toBe(before + 1);
    expect([lane.status, viaExpress.status]).toEqual([201, 201]);
    expect(lane.contentType).toBe(viaExpress.contentType);
    expect(Object.keys(lane.body.data)).toEqual(Object.keys(viaExpress.body.data));
    for (const answer of [lane, viaExpress]) {
      const points: JsonResponse = await call('GET', `${server.api('enterprise')}/purchases/${answer.body.data.purchase_id}/points`, {
        headers: auth,
      });
      expect(points.status).toBe(200);
      expect(points.body.data.total_items).toBe(1);
    }
  });

  it('serves the customer interface with its token, and refuses another customer as express does', async () => {
    const { headers } = await demoToken(server);
    const customerEngine = `${server.api('customer')}/recommendation-engine/product/actions/combined`;
    const before = throughExpress;
    const own = await send(`${customerEngine}?count=2`, { headers });
    expect(throughExpress).toBe(before);
    expect(own).toEqual(await send(`${customerEngine}?count=2`, { headers }, { 'x-forwarded-for': '127.0.0.1' }));
    const other = await send(`${customerEngine}?customer_id=${DEMO_IDS.customerPetr}`, { headers });
    expect(other.status).toBe(403);
    expect(other).toEqual(await send(`${customerEngine}?customer_id=${DEMO_IDS.customerPetr}`, { headers }, { 'x-forwarded-for': '127.0.0.1' }));
  });

  it("names each request: the caller's X-Request-Id comes back, or a fresh one", async () => {
    const named = await fetch(url('accept-payment'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'till-7-42', ...auth },
      body: json(acceptBody),
    });
    expect(named.headers.get('x-request-id')).toBe('till-7-42');
    const [first, second] = await Promise.all(
      [1, 2].map(() =>
        fetch(url('accept-payment'), { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: json(acceptBody) }),
      ),
    );
    expect(first!.headers.get('x-request-id')).toMatch(/^[0-9a-f]{16}$/);
    expect(first!.headers.get('x-request-id')).not.toBe(second!.headers.get('x-request-id'));
  });

  it('keeps an Idempotency-Key: the replay gets the stored answer, another body under the key 422', async () => {
    const before = throughExpress;
    const headers = { ...auth, 'idempotency-key': 'lane-key-1' };
    const first: JsonResponse = await call('POST', url('accept-payment'), { headers, body: acceptBody });
    const replay = await call('POST', url('accept-payment'), { headers, body: acceptBody });
    const other = await call('POST', url('accept-payment'), { headers, body: { ...acceptBody, max_points: '10' } });
    expect(first.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(other.status).toBe(422);
    expect(throughExpress).toBe(before);
  });

  it('keeps an Idempotency-Key on an answer the handler wrote as JSON bytes (recommended-best-rewards)', async () => {
    const headers = { ...auth, 'idempotency-key': 'lane-key-2' };
    const first: JsonResponse = await call('POST', url('recommended-best-rewards'), { headers, body: recommendBody });
    const replay = await call('POST', url('recommended-best-rewards'), { headers, body: recommendBody });
    expect(first.status).toBe(200);
    expect(first.body.data.total_items).toBeGreaterThan(0);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('content-length')).toBe(first.headers.get('content-length'));
  });

  it('counts its requests in /metrics under the route pattern', async () => {
    const route = '/rest-api/enterprise-interface/v1.0/purchases/actions/recommended-best-rewards';
    const counted = async () => {
      const metrics = await call('GET', `${server.url}/metrics`);
      const line = String(metrics.body)
        .split('\n')
        .find((text) => text.startsWith('loyaltyd_http_requests_total{') && text.includes(`route="${route}"`) && text.includes('status="200"'));
      return Number(line?.split(' ').at(-1) ?? 0);
    };
    const before = await counted();
    await send('recommended-best-rewards', { body: json(recommendBody) });
    await send('recommended-best-rewards', { body: json(recommendBody) });
    expect(await counted()).toBe(before + 2);
  });

  it('leaves other forms to express: another method, a trailing slash, a percent-encoded path', async () => {
    const before = throughExpress;
    const get = await call('GET', url('accept-payment'), { headers: auth });
    const slash = await call('POST', `${url('accept-payment')}/`, { headers: auth, body: acceptBody });
    const encoded = await call('POST', url('accept%2Dpayment'), { headers: auth, body: acceptBody });
    expect([get.status, slash.status, encoded.status]).toEqual([405, 200, 404]);
    expect(throughExpress).toBe(before + 3);
  });
});
