/**
 * One change of each row the hub publishes again and again in its feed: customer states (at
 * each push that brings a customer's facts, and again as they settle) and the recommendation
 * model's rows (at each of its steps). Every version stayed in the feed for
 * `sync.feed_retention_days`, and a store was sent each one published since its last pull; a
 * card used at every till while a store is silent grows its state with each bill, so the
 * feed grew with the square of its bills (the README's "What each node keeps"). The newest
 * change carries the whole row, so it is all a store needs: the write that publishes such a
 * row deletes its older changes (src/db/change-feed.ts), found by this index, which no other
 * table's changes touch. Older changes there are now go too.
 */
const TABLES =
  "('customer_states', 'recommendation_customers', 'recommendation_neighbours', 'recommendation_best_sellers', 'recommendation_coverage')";

export const sql = `
CREATE INDEX changes_published ON changes (entity, entity_id) WHERE entity IN ${TABLES};
DELETE FROM changes WHERE entity IN ${TABLES}
  AND seq NOT IN (SELECT max(seq) FROM changes WHERE entity IN ${TABLES} GROUP BY entity, entity_id);
`;
