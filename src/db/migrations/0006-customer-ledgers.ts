/**
 * Every cash-desk call needs a customer's points balance, and accept-payment their credit
 * balance: the fold of their point records and the sum of their credit records. Read from
 * those tables they cost an index page, a table page and a credit index page, each a random
 * read of a file far larger than memory. customer_ledgers keeps, per customer, what the fold
 * needs of their live point records — kind, points and the one moment that matters (a
 * collection's valid_to, a redemption's created_at), in HLC order, as JSON — and their credit
 * balance, in one row of a table clustered by customer: one page.
 *
 * The rows are derived data, kept by triggers, so no writer can miss them: the write path,
 * a sync apply, a bootstrap, an import, another connection. Every change of a customer's
 * records rebuilds that customer's row from the records themselves (a few index pages that
 * the write has just touched), so the row is always exactly what a fold of the records
 * reads. The table has no id, hlc or last_change, so it is not replicated
 * (src/sync/replicated-tables.ts): each node derives its own. A customer who never had a
 * record has no row. The fold itself stays in TypeScript (src/loyalty/ledger-fold.ts), since the
 * balance depends on the moment it is read at.
 */
const pointFacts = (customer: string) => `(
  SELECT json_group_array(json_array(
    CASE kind WHEN 'collection' THEN 'c' ELSE 'r' END,
    points_milli,
    CASE kind WHEN 'collection' THEN valid_to ELSE created_at END
  ) ORDER BY hlc)
  FROM point_records WHERE customer_id = ${customer} AND state = 1)`;

const creditMinor = (customer: string) => `(
  SELECT coalesce(sum(CASE kind WHEN 'collection' THEN amount_minor ELSE -amount_minor END), 0)
  FROM credit_records WHERE customer_id = ${customer} AND state = 1)`;

const refresh = (customer: string) => `
  INSERT INTO customer_ledgers (customer_id, point_facts, credit_minor)
  VALUES (${customer}, ${pointFacts(customer)}, ${creditMinor(customer)})
  ON CONFLICT (customer_id) DO UPDATE SET point_facts = excluded.point_facts, credit_minor = excluded.credit_minor;`;

const triggers = (table: string) => `
CREATE TRIGGER ${table}_ledger_insert AFTER INSERT ON ${table} BEGIN ${refresh('NEW.customer_id')} END;
CREATE TRIGGER ${table}_ledger_update AFTER UPDATE ON ${table} BEGIN ${refresh('NEW.customer_id')} END;
CREATE TRIGGER ${table}_ledger_move AFTER UPDATE OF customer_id ON ${table}
  WHEN OLD.customer_id IS NOT NEW.customer_id BEGIN ${refresh('OLD.customer_id')} END;
CREATE TRIGGER ${table}_ledger_delete AFTER DELETE ON ${table} BEGIN ${refresh('OLD.customer_id')} END;`;

export const sql = `
CREATE TABLE customer_ledgers (
  customer_id TEXT PRIMARY KEY,
  point_facts TEXT NOT NULL,
  credit_minor INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
${triggers('point_records')}
${triggers('credit_records')}
INSERT INTO customer_ledgers (customer_id, point_facts, credit_minor)
SELECT owner.customer_id, ${pointFacts('owner.customer_id')}, ${creditMinor('owner.customer_id')}
FROM (SELECT customer_id FROM point_records UNION SELECT customer_id FROM credit_records) AS owner;
`;
