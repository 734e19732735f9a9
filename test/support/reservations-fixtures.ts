/** Rows the API cannot create, written through the node's one write path. */
import { demoCredentials } from '../../src/demo/demo.js';
import { call, demoToken, type TestServer } from './server.js';

export function insertReservationSource(server: TestServer, name: string): string {
  const id = server.app.node.newId();
  server.app.node.writes.write(null, (tx) => tx.insert('product_reservation_sources', { id, name, state: 1 }));
  return id;
}

/** A state change fact as another node would have made it, arriving later by sync. */
export function insertReservationStateChange(server: TestServer, productReservationId: string, reservationState: number): void {
  const id = server.app.node.newId();
  server.app.node.writes.write(null, (tx) =>
    tx.insert('reservation_state_changes', { id, product_reservation_id: productReservationId, reservation_state: reservationState }),
  );
}

/** An order of another customer than the one who can log in (orders live beside reservations). */
export function insertOrder(server: TestServer, customerId: string, state = 1): string {
  const id = server.app.node.newId();
  const details = {
    discount_codes: null,
    order_items: [],
    invoicing_data: { payment_id: 'card', paid_at: null, personal_information: null },
    shipping_data: null,
    customer_note: null,
  };
  server.app.node.writes.write(null, (tx) =>
    tx.insert('orders', {
      id,
      order_number: id,
      customer_id: customerId,
      currency_id: 'CZK',
      total_price_minor: 100,
      details: JSON.stringify(details),
      state,
    }),
  );
  return id;
}

/** A customer-interface token with the demo customer (Jana) logged in; returns its Basic header. */
export async function demoCustomerSession(server: TestServer): Promise<Record<string, string>> {
  const { tokenId, headers } = await demoToken(server);
  const response = await call('POST', `${server.api('customer')}/tokens/${tokenId}/actions/login`, {
    headers,
    body: { login_type: 'email', login_value: demoCredentials.customer_email, password: demoCredentials.customer_password },
  });
  if (response.status !== 200) throw new Error(`customer login failed: ${JSON.stringify(response.body)}`);
  return headers;
}

/** Change-feed rows written since `afterSeq`, counted per table. */
