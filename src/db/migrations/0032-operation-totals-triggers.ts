/**
 * The triggers by which the hub's per-node totals note a card moved to another customer and a
 * customer's e-mail or phone changed (src/sync/hub/operation-totals.ts). On SQLite they are
 * temporary, each connection's own, made when the hub opens its database: there is nothing to
 * migrate. PostgreSQL has no temporary trigger: the two are the tables', made once here, and note
 * an update in the temporary table of the connection that made it, which only the hub's apply
 * creates; made at each start instead, a command run beside a starting hub replaced them as the
 * hub did, and one of the two failed.
 */
export const sql = `-- SQLite's triggers are temporary: src/sync/hub/operation-totals.ts makes them on each connection.`;

export const postgres = `
CREATE FUNCTION limit_note_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF to_regclass('pg_temp.limit_noted_updates') IS NOT NULL THEN
    INSERT INTO pg_temp.limit_noted_updates (entity, entity_id, hlc) VALUES (TG_TABLE_NAME, NEW.id, NEW.hlc);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER limit_card_moved AFTER UPDATE OF customer_id ON cards
  FOR EACH ROW WHEN (NEW.customer_id IS DISTINCT FROM OLD.customer_id) EXECUTE FUNCTION limit_note_update();
CREATE TRIGGER limit_profile_changed AFTER UPDATE OF email, phone ON customers
  FOR EACH ROW WHEN (NEW.email IS DISTINCT FROM OLD.email OR NEW.phone IS DISTINCT FROM OLD.phone) EXECUTE FUNCTION limit_note_update();
`;
