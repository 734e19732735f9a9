/**
 * A list sorts only by fields an index keeps in order (src/db/list-query.ts). These indexes
 * keep the sorts by name the head office's small lists offer (applications, event properties
 * and groups, product groups and brands, purchase item types, reservation sources) and rewards
 * by priority. Each table holds tens to thousands of rows, changed by head office, so the
 * indexes cost next to nothing to keep.
 */
export const sql = `
CREATE INDEX external_applications_by_name ON external_applications (name);
CREATE INDEX event_properties_by_name ON event_properties (name);
CREATE INDEX event_groups_by_name ON event_groups (name);
CREATE INDEX rewards_by_priority ON rewards (priority);
CREATE INDEX product_groups_by_name ON product_groups (name);
CREATE INDEX product_brands_by_name ON product_brands (name);
CREATE INDEX purchase_item_types_by_name ON purchase_item_types (name);
CREATE INDEX product_reservation_sources_by_name ON product_reservation_sources (name);
`;
