/**
 * Valid request bodies for the operations whose schema-built bodies rarely pass validation
 * (a bill has a dozen fields the 2021 file types loosely): the fuzz starts from these and
 * changes single values, so that extremes reach the checkout engine and the point ledger
 * rather than stop at the validator, and password-setup requests reach its rate limits. Keyed
 * by `METHOD path` as the spec writes the path.
 */
import { DEMO_IDS } from '../../src/demo/demo.js';

/** A bill of two demo products under this bill id (the fuzz draws from a few, so some repeat). */
function bill(billId: string) {
  return {
    bill_id: billId,
    bill_number: `N-${billId}`,
    payment_time: '2026-11-20 14:00:00',
    currency_id: 'CZK',
    total_price: '235',
    bill_items: [
      {
        plu_ids: [{ list_code: 'GLOBAL', code: '859000769' }],
        plu_name: 'Espresso beans',
        quantity: 2,
        price: 100,
        paid_amount: 200,
        bill_item_id: 1,
        vat_rate: 21,
      },
      {
        plu_ids: [{ list_code: 'GLOBAL', code: '859000772' }],
        plu_name: 'Croissant',
        quantity: 1,
        price: 35,
        paid_amount: 35,
        bill_item_id: 2,
        vat_rate: 21,
      },
    ],
  };
}

/** The customer by id: the fuzz may block or move the demo cards before it gets here. */
const till = { store_id: DEMO_IDS.storeCentral, cashdesk_number: 1, customer_id: DEMO_IDS.customerPetr };

export const CORPUS: Record<string, (billId: string) => unknown> = {
  'POST /purchases/actions/send-purchase': (billId) => ({
    ...till,
    bill: { ...bill(billId), payment_type: 'S', payment_recap: { credit_points: 5, amount_for_credit: 0 } },
  }),
  'POST /purchases/actions/accept-payment': (billId) => ({ ...till, payment_type: 'S', max_points: 50, bill: bill(billId) }),
  'POST /purchases/actions/recommended-best-rewards': (billId) => ({ ...till, reward_list_type: 'A', bill: bill(billId) }),
  'POST /purchases/actions/assign-customer': (billId) => ({
    store_id: DEMO_IDS.storeCentral,
    external_purchase_id: billId,
    customer_id: DEMO_IDS.customerEva,
  }),
  'POST /points/actions/assign-points': () => ({ amount: '12.5', customer_id: DEMO_IDS.customerEva, partner_id: 'partner-1' }),
  'POST /points/actions/reduce-points': () => ({ amount: 1, customer_id: DEMO_IDS.customerJana }),
  'POST /points/actions/transfer-points': () => ({ original_customer_id: DEMO_IDS.customerJana, new_customer_id: DEMO_IDS.customerPetr, amount: 1 }),
  // An e-mail of no customer, from a few: the request reaches the rate limits, as a customer's would.
  'POST /tokens/{token_id}/actions/send-password-setup-email': (billId) => ({ email: `${billId}@example.com` }),
};
