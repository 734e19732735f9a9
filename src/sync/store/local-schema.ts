/**
 * The replicated tables and columns of this node's schema. A hub serves stores one schema
 * version behind it (DESIGN §5), so a store may be sent a row of a table it does not have
 * yet, or with a column it lacks. Such a change is applied as far as the store's schema
 * goes and kept whole for after its upgrade (src/sync/store/deferred-changes.ts). Read again when
 * the file's schema changed (SQLite's schema_version, which every migration moves): reading it
 * is a PRAGMA a table, 1.5–2.5 ms that every round spent on the event loop (test/bench/README.md).
 */
import type { Db } from '../../db/open.js';
import { sqliteOnly } from '../../db/sqlite.js';
import type { RowChange } from '../protocol/protocol.js';
import { replicatedTables } from '../replicated-tables.js';

export interface Fit<C extends RowChange> {
  /** What this schema can apply of the change now; undefined when nothing (an unknown table). */
  applicable: C | undefined;
  /** Whether that is the whole change; if not, the change waits for an upgrade. */
  complete: boolean;
}

const readSchemas = new WeakMap<Db, { version: number; schema: LocalSchema }>();

export class LocalSchema {
  private constructor(
    private readonly columns: Map<string, Set<string>>,
    /** SQLite's schema_version when this was read. */
    readonly version: number,
  ) {}

  static read(db: Db): LocalSchema {
    const version = sqliteOnly(db, "a store's schema").pragma('schema_version', { simple: true }) as number;
    const known = readSchemas.get(db);
    if (known?.version === version) return known.schema;
    const column = db.prepare<[string], string>('SELECT name FROM pragma_table_info(?)').pluck();
    const schema = new LocalSchema(new Map(replicatedTables(db).map((table) => [table, new Set(column.all(table))])), version);
    readSchemas.set(db, { version, schema });
    return schema;
  }

  /** Whether this schema has the table and every one of the columns. */
  takes(entity: string, columns: string[]): boolean {
    const known = this.columns.get(entity);
    return known !== undefined && columns.every((name) => known.has(name));
  }

  fit<C extends RowChange>(change: C): Fit<C> {
    const known = this.columns.get(change.entity);
    if (!known) return { applicable: undefined, complete: false };
    const row = change.row;
    if (!row || Object.keys(row).every((name) => known.has(name))) return { applicable: change, complete: true };
    const kept = Object.fromEntries(Object.entries(row).filter(([name]) => known.has(name)));
    return { applicable: { ...change, row: kept }, complete: false };
  }
}
