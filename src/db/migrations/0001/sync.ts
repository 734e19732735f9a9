export const sql = `
CREATE TABLE sync_node_progress (
  node_id TEXT NOT NULL,
  generation TEXT NOT NULL,
  last_seq INTEGER NOT NULL,
  last_seen_at TEXT NOT NULL,
  PRIMARY KEY (node_id, generation)
) STRICT;

CREATE TABLE applied_commands (
  command_id TEXT PRIMARY KEY,
  node_id TEXT NOT NULL,
  generation TEXT NOT NULL,
  seq INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('applied', 'rejected')),
  reason TEXT,
  applied_at TEXT NOT NULL
) STRICT;

CREATE TABLE sync_conflicts (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  entity TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  detail TEXT NOT NULL,
  detected_at TEXT NOT NULL,
  UNIQUE (kind, entity, entity_id)
) STRICT;
`;
