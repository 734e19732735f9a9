/**
 * A store's purchases of a span of time (`GET /purchases?store_id=…&payment_time_from=…`, the
 * back office's day at a store) were read through the store's unique bill numbers: every
 * purchase the store ever made, sorted for each page. At a hub of 500 stores that read would pass
 * a second in the fourth month (`npm run bench hub-scale`'s extrapolation). This index reads the
 * span alone. On a store, whose purchases are its own, it is one entry a bill, appended in time
 * order.
 */
export const sql = `
CREATE INDEX purchases_by_store_time ON purchases (store_id, payment_time);
`;
