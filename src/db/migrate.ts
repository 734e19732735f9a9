import type { Db } from './open.js';
import { MIGRATIONS, type Migration } from './migrations/index.js';
import type { SchemaMigrationsRow } from './tables.generated.js';

export interface MigrationResult {
  applied: string[];
  version: number;
}

/**
 * Applies every migration not yet recorded, each in its own transaction. A test passes the
 * first few `migrations` to stand up a database as an older release left it.
 */
export function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): MigrationResult {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  ) STRICT`);
  const done = new Set(
    db
      .prepare<[], Pick<SchemaMigrationsRow, 'version'>>('SELECT version FROM schema_migrations')
      .all()
      .map((row) => row.version),
  );
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const applied: string[] = [];
  for (const migration of migrations) {
    if (done.has(migration.version)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      record.run(migration.version, migration.name, new Date().toISOString());
    })();
    applied.push(`${String(migration.version).padStart(4, '0')}-${migration.name}`);
  }
  return { applied, version: schemaVersion() };
}

export function schemaVersion(): number {
  return MIGRATIONS.reduce((max, migration) => Math.max(max, migration.version), 0);
}

/**
 * Whether a hub at schema `own` serves a store at `other` (DESIGN §5): a store may lack one
 * migration that changes the replicated tables, which it then takes as a schema behind
 * (src/sync/store/deferred-changes.ts), and any number of local ones. Each release's indexes would
 * otherwise move the version a rollout must take in step: a hub of two index migrations more
 * refused every store it had served the day before.
 */
export function servesSchema(own: number, other: number, migrations: readonly Migration[] = MIGRATIONS): boolean {
  if (!Number.isInteger(other) || other > own) return false;
  return migrations.filter((migration) => migration.version > other && migration.version <= own && !migration.local).length <= 1;
}
