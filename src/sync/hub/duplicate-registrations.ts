/**
 * Two stores registering customers with the same e-mail while neither reaches the hub: each
 * registration is a fact of its store, so the hub keeps both customers (DESIGN §5
 * "Authority") and lists the later one as a `duplicate_email` conflict naming the customers
 * it repeats (`sync conflicts`, /status), for an operator to merge; it mails neither a
 * password-setup link (src/features/tokens/password-setup.effect.ts). Online, the API itself
 * refuses the second registration. A card number is unique: the hub's feature code refuses the
 * second store's card, which is held and listed on both sides for an operator to void.
 */
import type { IdGenerator } from '../../core/ids.js';
import type { Clock } from '../../core/clock.js';
import { spelt } from '../../db/dialect.js';
import type { Db } from '../../db/open.js';
import type { AppliedListener } from './hub-commands.js';

export function listDuplicateRegistrations(db: Db, newId: IdGenerator, clock: Clock): AppliedListener {
  // The same address in any letter case of ASCII: SQLite's NOCASE, which its index
  // customers_by_email keeps; PostgreSQL's index is on lower(email), whose C collation folds
  // the same letters.
  const sameEmail = spelt(db, { sqlite: 'email = ? COLLATE NOCASE', postgres: 'lower(email) = lower(?)' });
  const emailHolders = db.prepare<[string, string], string>(`SELECT id FROM customers WHERE ${sameEmail} AND id <> ? ORDER BY id`).pluck();
  const list = db.prepare<[string, string, string, string]>(
    "INSERT INTO sync_conflicts (id, kind, entity, entity_id, detail, detected_at) VALUES (?, 'duplicate_email', 'customers', ?, ?, ?) ON CONFLICT DO NOTHING",
  );
  return (command, written) => {
    for (const { entity, entity_id: id, op, row } of written) {
      if (entity !== 'customers' || op !== 'insert' || typeof row?.email !== 'string' || row.email === '') continue;
      const others = emailHolders.all(row.email, id);
      if (others.length === 0) continue;
      list.run(
        newId(),
        id,
        JSON.stringify({ email: row.email, customer_ids: others, command_id: command.command_id }),
        new Date(clock()).toISOString(),
      );
    }
  };
}
