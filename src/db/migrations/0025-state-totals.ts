/**
 * A customer's state (0009-customer-states.ts) also carries what their live records earned and
 * redeemed up to its horizon, points in thousandths and credit in minor units, so that a store
 * answers the wallet's overviews with the chain's totals while its hub is down: the state's sums,
 * its tails and the store's own facts after its horizon (src/loyalty/balance-reader.ts).
 *
 * The columns are null on the states published before them, which the publishers take as sums
 * not known: a store answers no totals from such a state, the next publish of the customer folds
 * from every fact, and the hub publishes them again in batches (src/loyalty/state-settling.ts),
 * finding them by the partial index, which empties as it goes.
 */
export const sql = `
ALTER TABLE customer_states ADD COLUMN earned_milli INTEGER;
ALTER TABLE customer_states ADD COLUMN redeemed_milli INTEGER;
ALTER TABLE customer_states ADD COLUMN earned_credit_minor INTEGER;
ALTER TABLE customer_states ADD COLUMN redeemed_credit_minor INTEGER;
CREATE INDEX customer_states_unsummed ON customer_states (id) WHERE earned_milli IS NULL;
`;
