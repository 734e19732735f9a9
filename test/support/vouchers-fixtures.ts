/** Vouchers, which the API only reads and applies, written through the node's one write path. */
import type { TestServer } from './server.js';

/** The demo program's free-cappuccino reward (src/demo/demo.ts). */
export const CAPPUCCINO_REWARD = `de${(0x601).toString(16).padStart(24, '0')}`;

/** A valid, unapplied voucher of the customer for the demo cappuccino reward. */
export function insertVoucher(server: TestServer, customerId: string, code: string): string {
  const id = server.app.node.newId();
  server.app.node.writes.write(null, (tx) =>
    tx.insert('vouchers', {
      id,
      customer_id: customerId,
      reward_id: CAPPUCCINO_REWARD,
      code,
      value_minor: 6500,
      valid_from: '2026-01-01T00:00:00.000Z',
      valid_to: '2099-12-31T00:00:00.000Z',
    }),
  );
  return id;
}
