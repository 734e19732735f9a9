/**
 * A customer with many facts after their state's horizon keeps them in their records, not in
 * a list (src/loyalty/stored-facts.ts). The triggers of 0009-customer-states.ts rebuilt a customer's whole
 * list of facts after the horizon at each of their facts: that is one or two facts for most
 * customers, but a store silent within the offline age holds every node's horizon back, and
 * a card used at every till (a house card) then gathers a fact per bill. Each bill rebuilt and
 * rewrote the whole list: with the demo card, 7 of a send-purchase commit's 37 pages after 200
 * bills (test/bench/README.md, sixth session); at the hub, which lists every store's facts,
 * each such fact cost more than the one before.
 *
 * Now a list longer than LISTED_FACTS_MAX is the word 'records' instead, and while it is, a
 * change of that customer's point (or credit) records does not touch their row: the reader
 * reads those facts from the records by the (customer, stamp) index. A change of the
 * customer's state lists them again, so a customer whose tail the horizon has passed is back
 * to one row. The point and credit lists are kept apart, each by its own records' triggers.
 */

/** Facts a customer's list holds at most; past it, the list is read from the records. */
const LISTED_FACTS_MAX = 64;

const uncovered = (customer: string, stamp: string) => `${stamp} > coalesce((SELECT s.horizon FROM customer_states s WHERE s.id = ${customer}), '')`;

/** A list of the facts after the horizon, or 'records' when there are more than LISTED_FACTS_MAX. */
const capped = (count: string, list: string) => `CASE WHEN (${count}) > ${LISTED_FACTS_MAX} THEN 'records' ELSE (${list}) END`;

const pointFacts = (customer: string) => {
  const where = `FROM point_records p WHERE customer_id = ${customer} AND state = 1 AND ${uncovered(customer, 'p.hlc')}`;
  return capped(
    `SELECT count(*) ${where}`,
    `SELECT json_group_array(json_array(
      CASE kind WHEN 'collection' THEN 'c' ELSE 'r' END,
      points_milli,
      CASE kind WHEN 'collection' THEN valid_to ELSE created_at END,
      hlc,
      id
    ) ORDER BY hlc) ${where}`,
  );
};

const creditFacts = (customer: string) => {
  const where = `FROM credit_records r WHERE customer_id = ${customer} AND state = 1 AND ${uncovered(customer, 'r.hlc')}`;
  return capped(
    `SELECT count(*) ${where}`,
    `SELECT json_group_array(json_array(CASE kind WHEN 'collection' THEN amount_minor ELSE -amount_minor END, hlc, id) ORDER BY hlc) ${where}`,
  );
};

/**
 * Lists one of a customer's two lists again; their row is made (with both empty) by their
 * first fact. Not INSERT OR IGNORE: a statement's conflict clause overrides those of the
 * triggers it fires, and under an INSERT OR REPLACE of a state it replaced the row.
 */
const relist = (column: 'point_facts' | 'credit_facts', customer: string) => `
  INSERT INTO customer_ledgers (customer_id, point_facts, credit_facts)
    SELECT ${customer}, '[]', '[]' WHERE NOT EXISTS (SELECT 1 FROM customer_ledgers WHERE customer_id = ${customer});
  UPDATE customer_ledgers SET ${column} = ${column === 'point_facts' ? pointFacts(customer) : creditFacts(customer)} WHERE customer_id = ${customer};`;

/** A record's change lists its customer's facts again, unless they are read from the records. */
const recordTriggers = (table: string, column: 'point_facts' | 'credit_facts') => {
  const listed = (customer: string) => `WHEN NOT EXISTS (SELECT 1 FROM customer_ledgers WHERE customer_id = ${customer} AND ${column} = 'records')`;
  return `
DROP TRIGGER IF EXISTS ${table}_ledger_insert;
DROP TRIGGER IF EXISTS ${table}_ledger_update;
DROP TRIGGER IF EXISTS ${table}_ledger_move;
DROP TRIGGER IF EXISTS ${table}_ledger_delete;
CREATE TRIGGER ${table}_ledger_insert AFTER INSERT ON ${table} ${listed('NEW.customer_id')} BEGIN ${relist(column, 'NEW.customer_id')} END;
CREATE TRIGGER ${table}_ledger_update AFTER UPDATE ON ${table} ${listed('NEW.customer_id')} BEGIN ${relist(column, 'NEW.customer_id')} END;
CREATE TRIGGER ${table}_ledger_move AFTER UPDATE OF customer_id ON ${table}
  WHEN OLD.customer_id IS NOT NEW.customer_id BEGIN ${relist(column, 'OLD.customer_id')} END;
CREATE TRIGGER ${table}_ledger_delete AFTER DELETE ON ${table} ${listed('OLD.customer_id')} BEGIN ${relist(column, 'OLD.customer_id')} END;`;
};

/** A state's change moves the horizon: both lists again, for a customer who has a row. */
const stateTrigger = (event: 'INSERT' | 'UPDATE' | 'DELETE', row: 'NEW' | 'OLD') => `
CREATE TRIGGER customer_states_ledger_${event.toLowerCase()} AFTER ${event} ON customer_states
  WHEN EXISTS (SELECT 1 FROM customer_ledgers WHERE customer_id = ${row}.id)
  BEGIN ${relist('point_facts', `${row}.id`)} ${relist('credit_facts', `${row}.id`)} END;`;

export const sql = `
${recordTriggers('point_records', 'point_facts')}
${recordTriggers('credit_records', 'credit_facts')}
DROP TRIGGER IF EXISTS customer_states_ledger_insert;
DROP TRIGGER IF EXISTS customer_states_ledger_update;
DROP TRIGGER IF EXISTS customer_states_ledger_move;
DROP TRIGGER IF EXISTS customer_states_ledger_delete;
${stateTrigger('INSERT', 'NEW')}
${stateTrigger('UPDATE', 'NEW')}
${stateTrigger('DELETE', 'OLD')}
CREATE TRIGGER customer_states_ledger_move AFTER UPDATE OF id ON customer_states
  WHEN OLD.id IS NOT NEW.id AND EXISTS (SELECT 1 FROM customer_ledgers WHERE customer_id = OLD.id)
  BEGIN ${relist('point_facts', 'OLD.id')} ${relist('credit_facts', 'OLD.id')} END;
UPDATE customer_ledgers SET
  point_facts = CASE WHEN json_array_length(point_facts) > ${LISTED_FACTS_MAX} THEN 'records' ELSE point_facts END,
  credit_facts = CASE WHEN json_array_length(credit_facts) > ${LISTED_FACTS_MAX} THEN 'records' ELSE credit_facts END
WHERE json_array_length(point_facts) > ${LISTED_FACTS_MAX} OR json_array_length(credit_facts) > ${LISTED_FACTS_MAX};
`;
