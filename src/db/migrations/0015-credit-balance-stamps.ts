/**
 * A customer's credit records after a stamp, read by a range of one index: the hub folds a
 * customer's state on from the one it published (src/loyalty/customer-states.ts), and every
 * node's ledger trigger (migration 9) lists the credit facts after the state's horizon. With
 * the stamp behind the kind and amount, both read every credit record the customer ever had,
 * and a card used at every till (a house card) made each of its bills cost the hub more than
 * the one before. The index still covers the credit balance (kind and amount) and gives
 * GET /credits its records newest first.
 */
export const sql = `
DROP INDEX IF EXISTS credit_records_for_balance;
CREATE INDEX credit_records_for_balance ON credit_records (customer_id, state, hlc, kind, amount_minor);
`;
