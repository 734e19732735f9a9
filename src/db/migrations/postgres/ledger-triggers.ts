/**
 * The customer ledgers' triggers, as SQLite's migrations write them, in PL/pgSQL: on the same
 * events of the same tables, reading the same rows, with the same 64-fact limit past which a
 * ledger says `records`. SQLite's `WHEN` clauses read other tables, which PostgreSQL's cannot,
 * so each condition is the first test of its function, and one trigger a table does what
 * SQLite's insert, update, delete and move triggers do. A ledger's JSON is built with `json_build_array`, whose text
 * has a space after each comma where SQLite's has none; it is read with JSON.parse either way.
 */
export const sql = `
CREATE FUNCTION rebuild_point_facts(ledger_customer TEXT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO customer_ledgers (customer_id, point_facts, credit_facts)
    SELECT ledger_customer, '[]', '[]' WHERE NOT EXISTS (SELECT 1 FROM customer_ledgers WHERE customer_id = ledger_customer);
  UPDATE customer_ledgers SET point_facts = CASE
    WHEN (SELECT count(*) FROM point_records p WHERE customer_id = ledger_customer AND state = 1
            AND p.hlc > coalesce((SELECT s.horizon FROM customer_states s WHERE s.id = ledger_customer), '')) > 64 THEN 'records'
    ELSE coalesce((SELECT json_agg(json_build_array(
        CASE kind WHEN 'collection' THEN 'c' ELSE 'r' END,
        points_milli,
        CASE kind WHEN 'collection' THEN valid_to ELSE created_at END,
        hlc,
        id
      ) ORDER BY hlc)::text FROM point_records p WHERE customer_id = ledger_customer AND state = 1
        AND p.hlc > coalesce((SELECT s.horizon FROM customer_states s WHERE s.id = ledger_customer), '')), '[]')
    END WHERE customer_id = ledger_customer;
END $$;

CREATE FUNCTION rebuild_credit_facts(ledger_customer TEXT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO customer_ledgers (customer_id, point_facts, credit_facts)
    SELECT ledger_customer, '[]', '[]' WHERE NOT EXISTS (SELECT 1 FROM customer_ledgers WHERE customer_id = ledger_customer);
  UPDATE customer_ledgers SET credit_facts = CASE
    WHEN (SELECT count(*) FROM credit_records r WHERE customer_id = ledger_customer AND state = 1
            AND r.hlc > coalesce((SELECT s.horizon FROM customer_states s WHERE s.id = ledger_customer), '')) > 64 THEN 'records'
    ELSE coalesce((SELECT json_agg(json_build_array(
        CASE kind WHEN 'collection' THEN amount_minor ELSE -amount_minor END,
        hlc,
        id
      ) ORDER BY hlc)::text FROM credit_records r WHERE customer_id = ledger_customer AND state = 1
        AND r.hlc > coalesce((SELECT s.horizon FROM customer_states s WHERE s.id = ledger_customer), '')), '[]')
    END WHERE customer_id = ledger_customer;
END $$;

CREATE FUNCTION ledger_counts_records(ledger_customer TEXT, facts TEXT) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM customer_ledgers WHERE customer_id = ledger_customer
    AND CASE facts WHEN 'points' THEN point_facts ELSE credit_facts END = 'records')
$$;

CREATE FUNCTION rebuild_facts(ledger_customer TEXT, facts TEXT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF facts = 'points' THEN PERFORM rebuild_point_facts(ledger_customer); ELSE PERFORM rebuild_credit_facts(ledger_customer); END IF;
END $$;

-- The trigger of point_records ('points') and of credit_records ('credit'), named by its argument.
CREATE FUNCTION records_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  facts TEXT := TG_ARGV[0];
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF NOT ledger_counts_records(OLD.customer_id, facts) THEN PERFORM rebuild_facts(OLD.customer_id, facts); END IF;
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.customer_id IS DISTINCT FROM NEW.customer_id THEN PERFORM rebuild_facts(OLD.customer_id, facts); END IF;
  IF NOT ledger_counts_records(NEW.customer_id, facts) THEN PERFORM rebuild_facts(NEW.customer_id, facts); END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION customer_states_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  moved TEXT;
BEGIN
  IF TG_OP = 'DELETE' THEN moved := OLD.id;
  ELSIF TG_OP = 'UPDATE' AND OLD.id IS DISTINCT FROM NEW.id THEN moved := OLD.id;
  END IF;
  IF moved IS NOT NULL AND EXISTS (SELECT 1 FROM customer_ledgers WHERE customer_id = moved) THEN
    PERFORM rebuild_point_facts(moved);
    PERFORM rebuild_credit_facts(moved);
  END IF;
  IF TG_OP <> 'DELETE' AND EXISTS (SELECT 1 FROM customer_ledgers WHERE customer_id = NEW.id) THEN
    PERFORM rebuild_point_facts(NEW.id);
    PERFORM rebuild_credit_facts(NEW.id);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER point_records_ledger AFTER INSERT OR UPDATE OR DELETE ON point_records FOR EACH ROW EXECUTE FUNCTION records_ledger('points');
CREATE TRIGGER credit_records_ledger AFTER INSERT OR UPDATE OR DELETE ON credit_records FOR EACH ROW EXECUTE FUNCTION records_ledger('credit');
CREATE TRIGGER customer_states_ledger AFTER INSERT OR UPDATE OR DELETE ON customer_states FOR EACH ROW EXECUTE FUNCTION customer_states_ledger();
`;
