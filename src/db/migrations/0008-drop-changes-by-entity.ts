/**
 * The change feed is read by position only (the hub's feed pages, the model builder's
 * ranges, max(seq) and max(hlc)); no query looks a change up by entity and id. The index
 * on (entity, entity_id) cost every write a page of its own per entity written: 6 to 8 of
 * the ~45 pages a bill's commit appends to the WAL (checkout bench, README "Where the time
 * went"), which every checkpoint then writes back.
 */
export const sql = `
DROP INDEX IF EXISTS changes_by_entity;
`;
