/**
 * Every version of the loyalty program this node has held, with the instant it came into
 * force: the hub runs each store's operation again judged by the program in force at the
 * operation's as-of time (DESIGN §5), and a store that was offline for two days pushes bills
 * sold under the program of two days ago, while `program_rules` holds only the current version
 * (src/loyalty/program.repo.ts reads both).
 *
 * Node-local: the table has no `hlc` or `last_change`, so it is no replicated table and the
 * feed does not carry it. Each node writes its own from its changes of the program row, by
 * these triggers: the write path's (`loyaltyd program load` on the hub, or on a store with no
 * hub) and the store's apply of the row from the feed or the snapshot
 * (src/sync/replicated-apply.ts), in the transaction of the change. A version comes into force
 * at its row's `last_change`, the physical time of its stamp as an ISO instant, which sorts as
 * text. An update that leaves the body as it was (the same file loaded again) is no new
 * version. An older change a store is sent again is not applied (last writer wins), so it adds
 * none either.
 *
 * A node's program when it takes this migration becomes its first version, in force from its
 * `last_change`: the versions before it are gone, and an instant before the first version is
 * judged by the first version (ProgramRepo.load), so seeding it from the epoch would judge
 * every operation alike; the row keeps when the version really came into force.
 */
const PROGRAM = "NEW.id = '00000000000000000000000001' AND NEW.kind = 'program'";

export const sql = `
CREATE TABLE program_history (
  id INTEGER PRIMARY KEY,
  body TEXT NOT NULL,
  in_force_from TEXT NOT NULL
) STRICT;
CREATE INDEX program_history_by_in_force_from ON program_history (in_force_from);
CREATE TRIGGER program_rules_history_insert AFTER INSERT ON program_rules WHEN ${PROGRAM}
  BEGIN INSERT INTO program_history (body, in_force_from) VALUES (NEW.body, NEW.last_change); END;
CREATE TRIGGER program_rules_history_update AFTER UPDATE OF body ON program_rules WHEN ${PROGRAM} AND NEW.body IS NOT OLD.body
  BEGIN INSERT INTO program_history (body, in_force_from) VALUES (NEW.body, NEW.last_change); END;
INSERT INTO program_history (body, in_force_from)
  SELECT body, last_change FROM program_rules WHERE id = '00000000000000000000000001' AND kind = 'program';
`;
