/**
 * How far behind its hub a store may be (servesSchema, DESIGN §5): one change of the
 * replicated tables, and any number of local migrations. A migration marked local must leave
 * every replicated table and column as it found them, which each one is checked for here on
 * a real file: a wrong mark would let a hub serve a store that cannot take its rows.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, schemaVersion, servesSchema } from '../../src/db/migrate.js';
import { MIGRATIONS, type Migration } from '../../src/db/migrations/index.js';
import { openDatabase, type Db } from '../../src/db/open.js';
import { replicatedTables } from '../../src/sync/replicated-tables.js';
import { tempDir } from '../support/server.js';

const folder = tempDir('loyaltyd-local-migrations-');
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Every replicated table with its columns as SQLite declares them. */
function replicatedSchema(db: Db): Record<string, unknown[]> {
  return Object.fromEntries(
    replicatedTables(db).map((table) => [
      table,
      db.prepare(`SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info('${table}') ORDER BY cid`).all(),
    ]),
  );
}

describe('local migrations', () => {
  it('each migration marked local leaves the replicated tables and columns as they were', () => {
    const db = openDatabase(join(folder, 'loyaltyd.sqlite'));
    try {
      const checked: number[] = [];
      for (const migration of MIGRATIONS) {
        const before = replicatedSchema(db);
        migrate(db, [migration]);
        if (!migration.local) continue;
        expect(replicatedSchema(db), `migration ${migration.version} is marked local`).toEqual(before);
        checked.push(migration.version);
      }
      expect(checked.length).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });

  it('a hub serves a store that lacks at most one change of the replicated tables, however many local migrations it lacks', () => {
    const replicated = (version: number): Migration => ({ version, name: `r${version}`, sql: '' });
    const local = (version: number): Migration => ({ version, name: `l${version}`, sql: '', local: true });
    const migrations = [replicated(1), local(2), replicated(3), local(4), local(5)];
    expect([5, 4, 3, 2, 1].map((store) => servesSchema(5, store, migrations))).toEqual([true, true, true, true, true]);
    expect(servesSchema(3, 1, migrations)).toBe(true);
    expect(servesSchema(5, 0, migrations)).toBe(false);
    expect(servesSchema(4, 5, migrations)).toBe(false);
    expect(servesSchema(5, Number.NaN, migrations)).toBe(false);
    expect(servesSchema(schemaVersion(), schemaVersion() - 1)).toBe(true);
  });
});
