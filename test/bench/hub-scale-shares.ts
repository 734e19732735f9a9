/**
 * What `npm run bench hub-scale` groups a hub's bytes by, on either engine: the feed, each fact
 * table with its indexes, the stores' command results, and the rest (customers, cards, states,
 * master data).
 */
const GROUPS: Record<string, string> = {
  changes: 'feed (changes)',
  purchases: 'purchases',
  purchase_items: 'purchase items',
  point_records: 'point and credit records',
  credit_records: 'point and credit records',
  applied_commands: 'applied commands',
};

/** The group of the table `table`'s bytes. */
export function shareOf(table: string): string {
  return GROUPS[table] ?? 'customers, states and the rest';
}
