/**
 * A database's schema as the code sees it, read the same way from either engine: each table's
 * columns (name, type, whether NOT NULL), its primary key, its unique keys, its foreign keys,
 * and its other indexes (name, unique, partial, keys). Types are named by what the code gets
 * back (integer, text, real, blob); a primary key's columns count as NOT NULL, as PostgreSQL
 * makes them. The indexes that back a primary or unique key are the keys', not listed again.
 */
import Database from 'better-sqlite3';
import type { Db } from '../../src/db/engine.js';
import { isSqlite } from '../../src/db/sqlite.js';

export interface TableShape {
  columns: string[];
  primaryKey: string[];
  uniqueKeys: string[];
  foreignKeys: string[];
  indexes: string[];
}

export type SchemaShape = Record<string, TableShape>;

export function schemaShape(db: Db): SchemaShape {
  return isSqlite(db) ? sqliteShape(db) : postgresShape(db);
}

const SQLITE_TYPES: Record<string, string> = { INTEGER: 'integer', TEXT: 'text', REAL: 'real', BLOB: 'blob' };
const POSTGRES_TYPES: Record<string, string> = {
  bigint: 'integer',
  integer: 'integer',
  text: 'text',
  'double precision': 'real',
  bytea: 'blob',
};

function sqliteShape(db: Database.Database): SchemaShape {
  const shape: SchemaShape = {};
  const tables = db.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all();
  for (const table of tables) {
    const columns = db
      .prepare<[string], { name: string; type: string; notnull: number; pk: number }>('SELECT name, type, "notnull", pk FROM pragma_table_info(?)')
      .all(table);
    const primaryKey = columns
      .filter((column) => column.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((column) => column.name);
    const indexList = db
      .prepare<[string], { name: string; unique: number; origin: string; partial: number }>(
        'SELECT name, "unique", origin, partial FROM pragma_index_list(?)',
      )
      .all(table);
    const keysOf = (index: string) =>
      db
        .prepare<[string], { name: string | null; coll: string; key: number }>('SELECT name, coll, key FROM pragma_index_xinfo(?) ORDER BY seqno')
        .all(index)
        .filter((key) => key.key === 1)
        .map((key) => (key.name === null ? 'expression' : key.coll === 'NOCASE' ? `lower(${key.name})` : key.name));
    const foreign = db
      .prepare<[string], { id: number; table: string; from: string; to: string | null; on_delete: string }>(
        'SELECT id, "table", "from", "to", on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq',
      )
      .all(table);
    shape[table] = {
      columns: columns
        .map((column) => `${column.name} ${SQLITE_TYPES[column.type.toUpperCase()] ?? column.type}${column.notnull || column.pk ? ' not null' : ''}`)
        .sort(),
      primaryKey,
      uniqueKeys: indexList
        .filter((index) => index.origin === 'u')
        .map((index) => keysOf(index.name).join(', '))
        .sort(),
      foreignKeys: [...new Set(foreign.map((key) => key.id))]
        .map((id) => {
          const parts = foreign.filter((key) => key.id === id);
          const parentKey = parts.every((key) => key.to === null) ? sqlitePrimaryKey(db, parts[0]!.table) : parts.map((key) => key.to!);
          return foreignKey(
            parts.map((key) => key.from),
            parts[0]!.table,
            parentKey,
            parts[0]!.on_delete,
          );
        })
        .sort(),
      indexes: indexList
        .filter((index) => index.origin === 'c')
        .map((index) => indexLine(index.name, index.unique === 1, index.partial === 1, keysOf(index.name)))
        .sort(),
    };
  }
  return shape;
}

function sqlitePrimaryKey(db: Database.Database, table: string): string[] {
  return db
    .prepare<[string], { name: string; pk: number }>('SELECT name, pk FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk')
    .all(table)
    .map((column) => column.name);
}

function postgresShape(db: Db): SchemaShape {
  const shape: SchemaShape = {};
  const tables = db
    .prepare<[], string>(
      "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition",
    )
    .pluck()
    .all();
  for (const table of tables) {
    const columns = db
      .prepare<[string], { name: string; type: string; notnull: number }>(
        `SELECT a.attname AS name, format_type(a.atttypid, NULL) AS type, a.attnotnull AS notnull
         FROM pg_attribute a WHERE a.attrelid = ?::regclass AND a.attnum > 0 AND NOT a.attisdropped`,
      )
      .all(table);
    const constraints = db
      .prepare<[string], { name: string; type: string; keys: string; parent: string | null; parent_keys: string | null; on_delete: string }>(
        `SELECT con.conname AS name, con.contype AS type,
           (SELECT string_agg(a.attname, ', ' ORDER BY k.ordinality) FROM unnest(con.conkey) WITH ORDINALITY k(attnum, ordinality)
              JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum) AS keys,
           con.confrelid::regclass::text AS parent,
           (SELECT string_agg(a.attname, ', ' ORDER BY k.ordinality) FROM unnest(con.confkey) WITH ORDINALITY k(attnum, ordinality)
              JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum) AS parent_keys,
           con.confdeltype AS on_delete
         FROM pg_constraint con WHERE con.conrelid = ?::regclass AND con.contype IN ('p', 'u', 'f')`,
      )
      .all(table);
    const indexes = db
      .prepare<[string], { name: string; unique: number; partial: number; keys: string; constraint_index: number }>(
        `SELECT ic.relname AS name, i.indisunique AS unique, i.indpred IS NOT NULL AS partial,
           (SELECT string_agg(pg_get_indexdef(i.indexrelid, k, true), '|' ORDER BY k) FROM generate_series(1, i.indnkeyatts) k) AS keys,
           EXISTS (SELECT 1 FROM pg_constraint con WHERE con.conindid = i.indexrelid AND con.contype IN ('p', 'u')) AS constraint_index
         FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid WHERE i.indrelid = ?::regclass`,
      )
      .all(table);
    shape[table] = {
      columns: columns.map((column) => `${column.name} ${POSTGRES_TYPES[column.type] ?? column.type}${column.notnull ? ' not null' : ''}`).sort(),
      primaryKey: constraints.find((constraint) => constraint.type === 'p')?.keys.split(', ') ?? [],
      uniqueKeys: constraints
        .filter((constraint) => constraint.type === 'u')
        .map((constraint) => constraint.keys)
        .sort(),
      foreignKeys: constraints
        .filter((constraint) => constraint.type === 'f')
        .map((constraint) =>
          foreignKey(constraint.keys.split(', '), constraint.parent!, constraint.parent_keys!.split(', '), POSTGRES_ACTIONS[constraint.on_delete]!),
        )
        .sort(),
      indexes: indexes
        .filter((index) => index.constraint_index === 0)
        .map((index) =>
          indexLine(
            index.name,
            index.unique === 1,
            index.partial === 1,
            index.keys.split('|').map((key) => (/^[a-z_]+$/.test(key) || /^lower\([a-z_]+\)$/.test(key) ? key : 'expression')),
          ),
        )
        .sort(),
    };
  }
  return shape;
}

const POSTGRES_ACTIONS: Record<string, string> = { a: 'NO ACTION', r: 'RESTRICT', c: 'CASCADE', n: 'SET NULL', d: 'SET DEFAULT' };

function foreignKey(from: string[], parent: string, parentKey: string[], onDelete: string): string {
  return `(${from.join(', ')}) → ${parent} (${parentKey.join(', ')})${onDelete === 'NO ACTION' ? '' : ` on delete ${onDelete}`}`;
}

function indexLine(name: string, unique: boolean, partial: boolean, keys: string[]): string {
  return `${name}${unique ? ' unique' : ''}${partial ? ' partial' : ''} (${keys.join(', ')})`;
}
