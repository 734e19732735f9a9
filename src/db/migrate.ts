import type { Db } from './engine.js';
import { BASELINE_SQL, BASELINE_VERSION } from './migrations/postgres/index.js';
import { isSqlite } from './sqlite.js';
import { MIGRATIONS, type Migration } from './migrations/index.js';
import type { SchemaMigrationsRow } from './tables.generated.js';

export interface MigrationResult {
  applied: string[];
  version: number;
}

/**
 * Applies every migration not yet recorded, each in its own transaction. A test passes the
 * first few `migrations` to stand up a database as an older release left it. A PostgreSQL
 * database starts from the baseline (src/db/migrations/postgres/), recorded as the migrations
 * it stands for, and takes each later migration's `postgres` SQL.
 */
export function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): MigrationResult {
  if (isSqlite(db)) return migrateNow(db, migrations);
  // Processes opening one PostgreSQL database at once (a hub starting, a command beside it) take
  // turns: the second finds the first's migrations done. SQLite's write lock does this for a file.
  const lock = db.prepare<[string], unknown>('SELECT pg_advisory_lock(hashtext(?))');
  const unlock = db.prepare<[string], unknown>('SELECT pg_advisory_unlock(hashtext(?))');
  lock.get(MIGRATION_LOCK);
  try {
    return migrateNow(db, migrations);
  } finally {
    unlock.get(MIGRATION_LOCK);
  }
}

/** The advisory lock PostgreSQL's migrations run under: the same number in every release. */
const MIGRATION_LOCK = 'loyaltyd migrations';

function migrateNow(db: Db, migrations: readonly Migration[]): MigrationResult {
  const sqlite = isSqlite(db);
  db.exec(sqlite ? SCHEMA_MIGRATIONS_TABLE + ' STRICT' : SCHEMA_MIGRATIONS_TABLE);
  const done = new Set(
    db
      .prepare<[], Pick<SchemaMigrationsRow, 'version'>>('SELECT version FROM schema_migrations')
      .all()
      .map((row) => row.version),
  );
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const applied: string[] = [];
  const apply = (sql: string, recorded: readonly Migration[]) =>
    db.transaction(() => {
      db.exec(sql);
      for (const migration of recorded) record.run(migration.version, migration.name, new Date().toISOString());
    })();
  if (!sqlite && done.size === 0) {
    const baseline = migrations.filter((migration) => migration.version <= BASELINE_VERSION);
    apply(BASELINE_SQL, baseline);
    for (const migration of baseline) done.add(migration.version);
    applied.push(`postgres-baseline-${String(BASELINE_VERSION).padStart(4, '0')}`);
  }
  for (const migration of migrations) {
    if (done.has(migration.version)) continue;
    const sql = sqlite ? migration.sql : migration.postgres;
    if (sql === undefined) throw new Error(`migration ${migration.version} (${migration.name}) has no PostgreSQL SQL`);
    apply(sql, [migration]);
    applied.push(`${String(migration.version).padStart(4, '0')}-${migration.name}`);
  }
  return { applied, version: schemaVersion() };
}

const SCHEMA_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`;

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
