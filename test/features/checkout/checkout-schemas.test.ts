/**
 * accept-payment's and recommended-best-rewards' bodies are parsed by zod's compiled fast
 * path (src/features/checkout/checkout.schemas.ts). For any body, well formed or not, the
 * result must be what zod's runtime parser gives: the same data, or the same issues with
 * the same paths, codes and messages, which become the API's invalid_params.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AcceptPayment, RecommendedBestRewards } from '../../../src/features/checkout/checkout.schemas.js';

const STORE = 'de000000000000000000000051';

/** A value of the expected kind most of the time, anything else now and then. */
function mostly<T>(expected: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 100, arbitrary: expected },
    { weight: 1, arbitrary: fc.constantFrom(undefined, null, '', ' ', 0, -1, 1.5, true, [], {}, 'x', '1e3', ' 7 ', NaN) },
    { weight: 1, arbitrary: fc.anything() },
  );
}

const amount = mostly(
  fc.oneof(
    fc.integer({ min: -1000, max: 100_000 }).map((n) => n / 100),
    fc.constantFrom('19.90', '0.005', '-2', '3', '12.345', ' 4 '),
  ),
);
const text = mostly(fc.constantFrom('GLOBAL', ' P1 ', 'EAN', 'P12345', ''));
const item = fc.record(
  {
    plu_ids: mostly(fc.array(fc.record({ list_code: text, code: text }, { requiredKeys: ['code'] }), { maxLength: 2 })),
    plu_name: mostly(fc.string({ maxLength: 3 })),
    quantity: amount,
    paid_amount: amount,
    price: amount,
    bill_item_id: mostly(fc.oneof(fc.integer({ min: -2, max: 9 }), fc.constantFrom('1', ' 2 ', ''))),
    loyalty_off: mostly(fc.boolean()),
    vat_rate: mostly(fc.constantFrom(21, 10.5)),
  },
  { requiredKeys: ['quantity', 'paid_amount', 'price', 'bill_item_id'] },
);
const bill = fc.record(
  {
    bill_id: mostly(fc.oneof(fc.constantFrom('b1', ' b2 '), fc.integer({ min: 0, max: 9 }))),
    bill_number: mostly(fc.constantFrom('N1')),
    payment_time: mostly(fc.constantFrom('2026-11-20T14:00:00+01:00', '2026-11-20 14:00:00', ' 2026-11-20 14:00:00 ')),
    currency_id: mostly(fc.constantFrom('CZK')),
    total_price: amount,
    utm: mostly(fc.record({ utm_source: mostly(fc.constantFrom('web')) }, { requiredKeys: [] })),
    bill_items: mostly(fc.array(item, { maxLength: 4 })),
  },
  { requiredKeys: ['bill_id', 'payment_time', 'total_price', 'bill_items'] },
);
const common = {
  store_id: mostly(fc.constantFrom(STORE, STORE, STORE, STORE.toUpperCase())),
  cashdesk_number: mostly(fc.oneof(fc.integer({ min: -1, max: 9 }), fc.constantFrom('1', '01', ' 2'))),
  card_number: mostly(fc.constantFrom('4000000000001', ' 4000000000001 ')),
  bill: mostly(bill),
};
const acceptBody = fc.record(
  {
    ...common,
    payment_type: mostly(fc.constantFrom('S', 'D', 'S', 'D', 's')),
    max_points: amount,
    max_credit: amount,
    benefit_codes: mostly(fc.array(text, { maxLength: 2 })),
    extra: fc.constant(1),
  },
  { requiredKeys: ['store_id', 'cashdesk_number', 'payment_type', 'bill'] },
);
const recommendBody = fc.record(
  { ...common, reward_list_type: mostly(fc.constantFrom('F', 'C', 'A', 'C', 'c')) },
  { requiredKeys: ['store_id', 'cashdesk_number', 'card_number', 'reward_list_type', 'bill'] },
);

/** The outcome as the API sees it: the data, or each issue's path, code, message and reason. */
function outcome(result: z.ZodSafeParseResult<unknown>) {
  if (result.success) return { data: result.data };
  return {
    issues: result.error.issues.map((issue) => ({
      path: issue.path,
      code: issue.code,
      message: issue.message,
      params: 'params' in issue ? issue.params : undefined,
    })),
  };
}

describe('the compiled cash-desk schemas', () => {
  for (const [name, schema, body] of [
    ['accept-payment', AcceptPayment, acceptBody],
    ['recommended-best-rewards', RecommendedBestRewards, recommendBody],
  ] as const) {
    it(`parse any ${name} body as zod's runtime parser does`, () => {
      const runtime = z.clone(schema);
      let parsed = 0;
      fc.assert(
        fc.property(body, (input) => {
          const compiled = schema.safeParse(input);
          if (compiled.success) parsed += 1;
          expect(outcome(compiled)).toEqual(outcome(runtime.safeParse(input)));
        }),
        { numRuns: 3000 },
      );
      // Both the fast path and the runtime's issues are exercised.
      expect(parsed).toBeGreaterThan(100);
      expect(parsed).toBeLessThan(2900);
    });
  }
});
