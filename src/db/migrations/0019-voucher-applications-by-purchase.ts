/**
 * The vouchers a purchase used were found by reading every voucher application the node holds:
 * the vouchers a return gives back (src/features/checkout/checkout.repo.ts), read at the till
 * and at the hub, and `GET /purchases/{id}/vouchers`. Every node holds the chain's voucher
 * applications (the customer-state scope), so each return at the till read all of them. This
 * index finds a purchase's applications.
 */
export const sql = `
CREATE INDEX voucher_applications_by_purchase ON voucher_applications (purchase_id);
`;
