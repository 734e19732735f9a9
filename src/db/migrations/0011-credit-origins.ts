/**
 * Credit given or taken by hand (POST /credits/actions/…) says where it comes from
 * as a point record does: its credit type, the partner and the operator's note (the Credit
 * structure of today's spec). A purchase's credit records leave them empty.
 */
export const sql = `
ALTER TABLE credit_records ADD COLUMN credit_type_id TEXT;
ALTER TABLE credit_records ADD COLUMN partner_id TEXT;
ALTER TABLE credit_records ADD COLUMN note TEXT;
`;
