/**
 * Bodies nested past MAX_JSON_DEPTH (src/core/json-depth.ts) answer 400 in the API's error shape
 * on every route family — the API through express, the cash desk's lane, a store's push and
 * replay at the hub — before anything walks them, and write nothing; a held operation nested
 * 200,000 levels deep answered 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS, demoCredentials } from '../../../../src/demo/demo.js';
import { MAX_JSON_DEPTH } from '../../../../src/core/json-depth.js';
import { call, type JsonResponse } from '../../../support/server.js';
import { count } from '../../../support/node-reads.js';
import { nodeHeaders, operation, startChain, type Chain, honestLogin } from './crafted-commands.js';

/** Where deepText nests its arrays. */
const DEEP = '__deep__';

let chain: Chain;

/** `value` as JSON text, with arrays nested `levels` deep where it says DEEP. */
const deepText = (value: unknown, levels: number) => JSON.stringify(value).replace(`"${DEEP}"`, `${'['.repeat(levels)}${']'.repeat(levels)}`);

function expectTooDeep(answer: JsonResponse): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  expect(answer.body.error.error_data.invalid_params[0]).toMatchObject({
    name: 'body',
    reason: 'invalid_value_format',
    message: expect.stringContaining(`deeper than ${MAX_JSON_DEPTH} levels`),
  });
}

beforeAll(async () => {
  chain = await startChain();
});

afterAll(async () => {
  await chain?.close();
});

describe('bodies nested past the documented depth', () => {
  it('answer 400 on an API route through express, and write nothing', async () => {
    const body = { customer: { personal_information: { first_name: 'Deep', last_name: 'Body' } }, extra: DEEP };
    const answer = await call('POST', `${chain.honest.api('enterprise')}/customers`, {
      headers: { ...(await honestLogin(chain)), 'content-type': 'application/json' },
      rawBody: deepText(body, MAX_JSON_DEPTH),
    });
    expectTooDeep(answer);
    expect(count(chain.honest, "SELECT count(*) AS n FROM customers WHERE first_name = 'Deep'")).toBe(0);
  });

  it("answer 400 on the cash desk's lane", async () => {
    const body = {
      store_id: DEMO_IDS.storeAirport,
      cashdesk_number: 1,
      card_number: demoCredentials.customer_card,
      reward_list_type: 'F',
      bill: {
        bill_id: 'deep-1',
        payment_time: '2026-11-20T14:00:00+00:00',
        currency_id: 'CZK',
        total_price: '300',
        bill_items: [
          { plu_ids: [{ list_code: 'GLOBAL', code: '859000769' }], quantity: 3, price: 100, paid_amount: 300, bill_item_id: 1, extra: DEEP },
        ],
      },
    };
    const answer = await call('POST', `${chain.honest.api('enterprise')}/purchases/actions/recommended-best-rewards`, {
      headers: { ...(await honestLogin(chain)), 'content-type': 'application/json' },
      rawBody: deepText(body, MAX_JSON_DEPTH),
    });
    expectTooDeep(answer);
  });

  it("answer 400 on a store's push, even an operation the hub would hold nested 200,000 deep, and nothing is held", async () => {
    // Past the node's manual points for Jana's day: the hub would hold it, with its whole call.
    const held = operation(chain.hub, 1, { kind: 'points.assign', body: { customer_id: DEMO_IDS.customerJana, amount: 900_000, extra: DEEP } });
    for (const levels of [MAX_JSON_DEPTH, 200_000]) {
      const answer = await call('POST', `${chain.hub.url}/sync/v1/commands`, {
        headers: { ...nodeHeaders(chain.hostile), 'content-type': 'application/json' },
        rawBody: deepText({ generation: `deep-${levels}`, commands: [held] }, levels),
      });
      expectTooDeep(answer);
    }
    expect(count(chain.hub, 'SELECT count(*) AS n FROM held_commands')).toBe(0);
    expect(count(chain.hub, 'SELECT count(*) AS n FROM applied_commands')).toBe(0);
  });

  it("answer 400 on a store's replay", async () => {
    const replayed = operation(chain.hub, 1, { kind: 'points.assign', body: { customer_id: DEMO_IDS.customerJana, amount: 1, extra: DEEP } });
    const answer = await call('POST', `${chain.hub.url}/sync/v1/replay`, {
      headers: { ...nodeHeaders(chain.hostile), 'content-type': 'application/json' },
      rawBody: deepText({ commands: [replayed], final: true }, MAX_JSON_DEPTH),
    });
    expectTooDeep(answer);
  });

  it('take a body at the depth itself', async () => {
    const answer = await call('POST', `${chain.honest.api('enterprise')}/customers`, {
      headers: { ...(await honestLogin(chain)), 'content-type': 'application/json' },
      // The body is the first level, `extra` the second: arrays fill the rest.
      rawBody: deepText({ customer: { personal_information: { first_name: 'Deep', last_name: 'Enough' } }, extra: DEEP }, MAX_JSON_DEPTH - 1),
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  });
});
