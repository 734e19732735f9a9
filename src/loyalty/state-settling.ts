/**
 * The hub settles customer states (src/loyalty/customer-states.ts): a state published with a
 * tail is published again once the horizon has passed the tail's first fact, so that the
 * tail folds into the lots and the row every store holds shrinks to a lot per expiry. The
 * horizon moves when stores report, so the hub looks every `sync.settle_interval_seconds`, a
 * batch of customers a transaction, and yields to requests between batches.
 *
 * At the same looks, after settling, it publishes again the states that have no sums
 * (published before states carried them, src/db/migrations/0025-state-totals.ts), folded from
 * every fact: 10,000 customers a look, so a million in about ten minutes at the default
 * interval, logging how many are left. Meanwhile a store answers no totals from such a state.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from 'pino';
import { repeatUnlessRunning } from '../core/repeat.js';
import type { WritePath } from '../db/write-path.js';
import type { CustomerStates } from './customer-states.js';

const BATCH = 500;
/** One look settles this many batches at most; the rest waits for the next. */
const BATCHES_PER_LOOK = 20;

/** Publishes again, batch by batch, the states whose tail the horizon has passed; the number of customers. */
export function settleStates(states: CustomerStates, writes: WritePath, batches = BATCHES_PER_LOOK): Promise<number> {
  return publishAgain(states, writes, batches, (limit) => states.unsettledCustomers(limit));
}

/** Publishes again, batch by batch, the states that have no sums, which sums them; the number of customers. */
export function sumStates(states: CustomerStates, writes: WritePath, batches = BATCHES_PER_LOOK): Promise<number> {
  return publishAgain(states, writes, batches, (limit) => states.unsummedCustomers(limit));
}

/** Publishes the customers `next` finds, a batch a transaction, yielding to requests between them. */
async function publishAgain(states: CustomerStates, writes: WritePath, batches: number, next: (limit: number) => string[]): Promise<number> {
  let published = 0;
  for (let batch = 0; batch < batches; batch += 1) {
    const customers = next(BATCH);
    if (customers.length === 0) break;
    writes.write(null, (tx) => states.publish(tx, customers));
    published += customers.length;
    await nextTurn();
  }
  return published;
}

/** Settles states every `everyMs`, then sums a look's batches of those without sums; returns the stop. */
export function startStateSettling(states: CustomerStates, writes: WritePath, everyMs: number, log: Logger): () => void {
  const look = async () => {
    const settled = await settleStates(states, writes);
    if (settled > 0) log.debug({ sync: 'settle', settled }, 'customer states settled');
    const summed = await sumStates(states, writes);
    if (summed > 0) log.info({ sync: 'settle', summed, left: states.unsummedCount() }, 'customer states summed');
  };
  return repeatUnlessRunning(everyMs, () => look().catch((error: unknown) => log.error({ err: error }, 'settling customer states failed')));
}
