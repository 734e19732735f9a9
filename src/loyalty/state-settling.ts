/**
 * The hub settles customer states (src/loyalty/customer-states.ts): a state published with a
 * tail is published again once the horizon has passed the tail's first fact, so that the
 * tail folds into the lots and the row every store holds shrinks to a lot per expiry. The
 * horizon moves when stores report, so the hub looks every `sync.settle_interval_seconds`, a
 * batch of customers a transaction, and yields to requests between batches.
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
export async function settleStates(states: CustomerStates, writes: WritePath, batches = BATCHES_PER_LOOK): Promise<number> {
  let settled = 0;
  for (let batch = 0; batch < batches; batch += 1) {
    const customers = states.unsettledCustomers(BATCH);
    if (customers.length === 0) break;
    writes.write(null, (tx) => states.publish(tx, customers));
    settled += customers.length;
    await nextTurn();
  }
  return settled;
}

/** Settles states every `everyMs`; returns the stop. */
export function startStateSettling(states: CustomerStates, writes: WritePath, everyMs: number, log: Logger): () => void {
  return repeatUnlessRunning(everyMs, () =>
    settleStates(states, writes)
      .then((settled) => {
        if (settled > 0) log.debug({ sync: 'settle', settled }, 'customer states settled');
      })
      .catch((error: unknown) => log.error({ err: error }, 'settling customer states failed')),
  );
}
