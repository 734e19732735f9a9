/**
 * A customer's purchases were found by comparing each purchase's customer, the till's or its
 * first assignment's, with the one asked for: a read of every purchase the node holds, for
 * each history read of one customer (`GET /purchases?customer_id=`). At a hub that is the
 * chain's history, and every store's POS reads it there. The read now takes the purchases the
 * till named the customer on by `purchases_by_customer`, and those assigned to them later by
 * this index (src/features/purchases/purchases.repo.ts).
 */
export const sql = `
CREATE INDEX purchase_assignments_by_customer ON purchase_assignments (customer_id, purchase_id);
`;
