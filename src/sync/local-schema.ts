/**
 * The replicated tables and columns of this node's schema. A hub serves stores one schema
 * version behind it (DESIGN §5), so a store may be sent a row of a table it does not have
 * yet, or with a column it lacks. Such a change is applied as far as the store's schema
 * goes and kept whole for after its upgrade (src/sync/deferred-changes.ts). Read afresh for
 * each round: an upgrade migrates at the daemon's start, and reading is a few PRAGMAs.
 */
import type { Db } from '../db/open.js';
import type { RowChange } from './protocol.js';
import { replicatedTables } from './replicated-tables.js';

export interface Fit<C extends RowChange> {
  /** What this schema can apply of the change now; undefined when nothing (an unknown table). */
  applicable: C | undefined;
  /** Whether that is the whole change; if not, the change waits for an upgrade. */
  complete: boolean;
}

export class LocalSchema {
  private constructor(private readonly columns: Map<string, Set<string>>) {}

  static read(db: Db): LocalSchema {
    const column = db.prepare<[string], string>('SELECT name FROM pragma_table_info(?)').pluck();
    return new LocalSchema(new Map(replicatedTables(db).map((table) => [table, new Set(column.all(table))])));
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
