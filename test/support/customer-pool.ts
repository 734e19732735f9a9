/**
 * A pool of customers with a card each, written straight into a hub's database while no process
 * serves it, as a chain it was given: for the sync benchmarks' workloads and for snapshots
 * larger than a socket's buffers.
 */
import { openHubDatabase } from './hub-engine.js';
import { hex } from './ids.js';

export const poolCustomerId = (i: number) => `b0${hex(i, 24)}`;
export const poolCardNumber = (i: number) => String(6_000_000_000_000 + i);

/**
 * `count` customers and their cards in the hub's database on `hubDir`, stamped `ageMs` ago (a day unless
 * given); a store receives them in its bootstrap.
 */
export function addCustomerPool(hubDir: string, count: number, ageMs = 86_400_000): void {
  const db = openHubDatabase(hubDir);
  const stamp = `${hex(Date.now() - ageMs, 12)}-0000-bench`;
  const now = new Date().toISOString();
  const customer = db.prepare('INSERT INTO customers (id, first_name, last_name, hlc, last_change) VALUES (?, ?, ?, ?, ?)');
  const card = db.prepare('INSERT INTO cards (id, customer_id, card_number, hlc, last_change) VALUES (?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < count; i += 1) {
      customer.run(poolCustomerId(i), `First${i}`, `Last${i}`, stamp, now);
      card.run(`b1${hex(i, 24)}`, poolCustomerId(i), poolCardNumber(i), stamp, now);
    }
  })();
  db.close();
}
