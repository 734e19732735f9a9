/**
 * The program's history and the recommendation catalogue's version kept by triggers, as
 * SQLite's migrations keep them, in PL/pgSQL: the same conditions, on the same events.
 */
export const sql = `
CREATE FUNCTION program_rules_history() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO program_history (body, in_force_from) VALUES (NEW.body, NEW.last_change);
  RETURN NULL;
END $$;

CREATE TRIGGER program_rules_history_insert AFTER INSERT ON program_rules FOR EACH ROW
  WHEN (NEW.id = '00000000000000000000000001' AND NEW.kind = 'program') EXECUTE FUNCTION program_rules_history();
CREATE TRIGGER program_rules_history_update AFTER UPDATE OF body ON program_rules FOR EACH ROW
  WHEN (NEW.id = '00000000000000000000000001' AND NEW.kind = 'program' AND NEW.body IS DISTINCT FROM OLD.body)
  EXECUTE FUNCTION program_rules_history();

CREATE FUNCTION recommendation_catalog_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE recommendation_catalog_version SET version = version + 1;
  RETURN NULL;
END $$;

CREATE TRIGGER recommendation_catalog_changed AFTER INSERT OR DELETE OR UPDATE OF id, product_group_id, product_brand_id ON products
  FOR EACH ROW EXECUTE FUNCTION recommendation_catalog_changed();
`;
