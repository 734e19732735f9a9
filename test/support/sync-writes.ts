/**
 * API writes the sync tests make at any node, each through the public REST API and each
 * returning what it created: a record id and the replicated table that holds it, so a test
 * can look every record up on every node afterwards.
 */
import { DEMO_IDS } from '../../src/demo/demo.js';
import type { NodeProcess } from './cluster.js';
import { call, type JsonResponse } from './server.js';

/** The demo chain's reservation source (src/demo/demo.ts). */
export const ESHOP_SOURCE = `de${(0xa01).toString(16).padStart(24, '0')}`;

export interface Created {
  table: string;
  id: string;
}

function expectStatus(response: JsonResponse, status: number, what: string): void {
  if (response.status !== status) throw new Error(`${what} answered ${response.status}, not ${status}: ${JSON.stringify(response.body)}`);
}

export async function createEvent(node: NodeProcess, auth: Record<string, string>, customerId: string, externalId: string): Promise<Created> {
  const response = await postEvent(node, auth, customerId, externalId);
  expectStatus(response, 201, `POST /events at ${node.name}`);
  return { table: 'events', id: response.body.data.event_id as string };
}

export function postEvent(node: NodeProcess, auth: Record<string, string>, customerId: string, externalId: string): Promise<JsonResponse> {
  return call('POST', `${node.api('enterprise')}/events`, {
    headers: auth,
    body: { event: { event_type_id: 'store_visit', customer_id: customerId, external_id: externalId, data: { node: node.name } } },
  });
}

export async function createReservation(node: NodeProcess, auth: Record<string, string>, customerId: string): Promise<Created> {
  const response = await postReservation(node, auth, customerId);
  expectStatus(response, 201, `POST /product-reservations at ${node.name}`);
  return { table: 'product_reservations', id: response.body.data.product_reservation_id as string };
}

export function postReservation(node: NodeProcess, auth: Record<string, string>, customerId: string): Promise<JsonResponse> {
  return call('POST', `${node.api('enterprise')}/product-reservations`, {
    headers: auth,
    body: {
      product_reservation: {
        customer_id: customerId,
        store_id: DEMO_IDS.storeCentral,
        product_reservation_source_id: ESHOP_SOURCE,
        product_reservation_items: [{ reservable_product_id: 'croissant', amount: 2, unit_price: '1.10', vat_rate: 12 }],
      },
    },
  });
}

export function cancelReservation(node: NodeProcess, auth: Record<string, string>, id: string): Promise<JsonResponse> {
  return call('POST', `${node.api('enterprise')}/product-reservations/${id}/actions/cancel-reservation`, {
    headers: auth,
    body: { product_reservation_id: id },
  });
}

/** An order of the logged-in customer (Jana), made in the customer interface. */
export async function createOrder(node: NodeProcess, customerHeaders: Record<string, string>, note: string): Promise<Created> {
  const response = await postOrder(node, customerHeaders, note);
  expectStatus(response, 201, `POST /orders at ${node.name}`);
  return { table: 'orders', id: response.body.data.order_id as string };
}

export function postOrder(node: NodeProcess, customerHeaders: Record<string, string>, note: string): Promise<JsonResponse> {
  return call('POST', `${node.api('customer')}/orders`, {
    headers: customerHeaders,
    body: {
      order: {
        customer_id: DEMO_IDS.customerJana,
        currency_id: 'CZK',
        total_price: '36.00',
        order_items: [{ product_variant_id: 'variant-1', amount: 2, unit_price: '18.00', vat_rate: 21 }],
        invoicing_data: { payment_id: 'card', paid_date: '2026-03-01 10:15:00' },
        customer_note: note,
      },
    },
  });
}

export async function createCustomer(node: NodeProcess, auth: Record<string, string>, firstName: string, lastName: string): Promise<Created> {
  const response = await postCustomer(node, auth, firstName, lastName);
  expectStatus(response, 201, `POST /customers at ${node.name}`);
  return { table: 'customers', id: response.body.data.customer_id as string };
}

export function postCustomer(node: NodeProcess, auth: Record<string, string>, firstName: string, lastName: string): Promise<JsonResponse> {
  return call('POST', `${node.api('enterprise')}/customers`, {
    headers: auth,
    body: {
      customer: {
        personal_information: {
          first_name: firstName,
          last_name: lastName,
          email: `${firstName}.${lastName}@example.com`.toLowerCase(),
          language_id: 'cs',
          store_id: DEMO_IDS.storeCentral,
          agreement: { agreement_gtc: 1 },
        },
      },
    },
  });
}

export function updateCustomer(
  node: NodeProcess,
  auth: Record<string, string>,
  id: string,
  personalInformation: Record<string, unknown>,
): Promise<JsonResponse> {
  return call('PUT', `${node.api('enterprise')}/customers/${id}`, {
    headers: auth,
    body: { customer: { personal_information: personalInformation } },
  });
}

export async function createCard(node: NodeProcess, auth: Record<string, string>, customerId: string, cardNumber: string): Promise<Created> {
  const response = await call('POST', `${node.api('enterprise')}/cards`, {
    headers: auth,
    body: { card: { customer_id: customerId, card_number: cardNumber } },
  });
  expectStatus(response, 201, `POST /cards at ${node.name}`);
  return { table: 'cards', id: response.body.data.card_id as string };
}

export function assignPoints(
  node: Pick<NodeProcess, 'api'>,
  auth: Record<string, string>,
  customerId: string,
  amount: number,
): Promise<JsonResponse> {
  return call('POST', `${node.api('enterprise')}/points/actions/assign-points`, { headers: auth, body: { customer_id: customerId, amount } });
}

export function storeBody(code: string, name: string) {
  return { store: { store_code: code, name, partner_id: 'demo-partner', system_id: code, store_address: { city: 'Brno', country_code: 'cz' } } };
}

export function updateStore(node: NodeProcess, auth: Record<string, string>, id: string, code: string, name: string): Promise<JsonResponse> {
  return call('PUT', `${node.api('enterprise')}/stores/${id}`, { headers: auth, body: storeBody(code, name) });
}

/** The demo chain's one voucher (Jana's free cappuccino) and Petr's card (src/demo/demo.ts). */
export const DEMO_VOUCHER = `de${(0x701).toString(16).padStart(24, '0')}`;
const PETR_CARD = '2000000000024';

/** A closed bill at Prague Central: one cappuccino (GLOBAL 859000771) for Petr. */
export async function sendPurchase(node: NodeProcess, auth: Record<string, string>, billId: string): Promise<Created> {
  const bill = {
    bill_id: billId,
    bill_number: `N-${billId}`,
    payment_time: '2026-11-21 09:30:00',
    currency_id: 'CZK',
    total_price: '65',
    bill_items: [
      {
        plu_ids: [{ list_code: 'GLOBAL', code: '859000771' }],
        plu_name: 'Cappuccino',
        quantity: 1,
        price: 65,
        paid_amount: 65,
        bill_item_id: 1,
        vat_rate: 21,
      },
    ],
  };
  const response = await call('POST', `${node.api('enterprise')}/purchases/actions/send-purchase`, {
    headers: auth,
    body: { store_id: DEMO_IDS.storeCentral, cashdesk_number: 1, card_number: PETR_CARD, bill },
  });
  expectStatus(response, 201, `send-purchase at ${node.name}`);
  return { table: 'purchases', id: response.body.data.purchase_id as string };
}

export function applyVoucher(
  node: NodeProcess,
  auth: Record<string, string>,
  voucherId: string,
  storeId: string,
  time: string,
): Promise<JsonResponse> {
  return call('POST', `${node.api('enterprise')}/vouchers/${voucherId}/actions/apply-voucher`, {
    headers: auth,
    body: { store_id: storeId, date_applied: time },
  });
}

/** The enterprise-interface detail path of a created record, to read it back at any node. */
export function detailPath(created: Created): string {
  const resource: Record<string, string> = {
    events: 'events',
    product_reservations: 'product-reservations',
    orders: 'orders',
    customers: 'customers',
    cards: 'cards',
    stores: 'stores',
    purchases: 'purchases',
  };
  const path = resource[created.table];
  if (!path) throw new Error(`no detail path for ${created.table}`);
  return `/${path}/${created.id}`;
}

/** Runs `task(0..total-1)` on `workers` concurrent lanes; a node serves one API call at a time anyway. */
export async function inParallel(total: number, workers: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < total) {
        const index = next;
        next += 1;
        await task(index);
      }
    }),
  );
}
