/**
 * Vouchers a cancellation gives back: a voucher's applied state is the fold of its
 * application facts, and a cancelled bill's application is released by a fact of its own,
 * so that both stay insert-only and every node folds them alike. An application with a
 * release no longer counts: the voucher is the customer's to use again. The release's id
 * derives from the cancelling purchase's and the application's, so store and hub, whichever
 * writes it, write one. Like a point record's link to the record it reverses, the columns
 * carry no foreign key: a store may cancel a bill the hub told it of before its own pull has
 * brought that bill's application.
 */
export const sql = `
CREATE TABLE voucher_releases (
  id TEXT PRIMARY KEY,
  application_id TEXT NOT NULL,
  voucher_id TEXT NOT NULL,
  purchase_id TEXT NOT NULL,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX voucher_releases_by_application ON voucher_releases (application_id);
`;
