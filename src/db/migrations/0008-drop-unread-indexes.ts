/**
 * Indexes no query reads, on tables every bill writes; each cost a bill's commit a page of
 * the WAL, which every checkpoint then writes back (checkout bench, test/bench/README.md "Where the time
 * went"). The change feed is read by position only (the hub's feed pages, the model
 * builder's ranges, max(seq) and max(hlc)), never by entity and id: its index on
 * (entity, entity_id) took a page per entity written, 6 to 8 of a bill's ~45. A customer's
 * credit balance is summed from credit_records_for_balance (migration 0005), which also
 * leads with customer_id; credit_records_by_customer served nothing else.
 */
export const sql = `
DROP INDEX IF EXISTS changes_by_entity;
DROP INDEX IF EXISTS credit_records_by_customer;
`;
