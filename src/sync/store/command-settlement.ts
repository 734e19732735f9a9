/**
 * What a store does with the hub's answer to one of its commands (DESIGN §5 "Authority"),
 * in the push's settle transaction:
 *
 * - *applied* with the hub's rows: the store swaps its optimistic rows of the command for
 *   the hub's, whatever their stamps — rows the hub did not write are deleted, the hub's
 *   are written as they are, but for a row a later write here changed since, which that
 *   write's answer settles — and lists the difference when the hub computed other values.
 * - *rejected* or *held*: its effects are taken back (its inserts deleted, newest first, each
 *   unless changed since or still named by a later row, which the listing then says) so they
 *   count nowhere; the command stays readable with its reason in `unapplied_commands`, and
 *   each row it wrote is listed with it.
 */
import type { Statement } from '../../db/engine.js';
import type { IdGenerator } from '../../core/ids.js';
import type { Db } from '../../db/open.js';
import type { Statements } from '../../db/statements.js';
import { conflictListing, type ConflictListing } from '../conflict-listing.js';
import { syncColumns } from '../column-codecs.js';
import { rowsDiffer, type CommandResult, type OutboxCommand, type RowChange } from '../protocol/protocol.js';
import { isForeignKeyViolation } from '../../db/constraint-errors.js';

/** Outbox columns an unapplied command keeps, beside its status and reason. */
export type SettledCommand = OutboxCommand & { created_at: string };

export class CommandSettlement {
  private readonly setAside: Statement;
  private readonly listConflict: ConflictListing;
  private readonly columnsOf = new Map<string, Set<string>>();

  constructor(
    private readonly db: Db,
    private readonly statements: Statements,
    private readonly newId: IdGenerator,
  ) {
    this.setAside = db.prepare(
      `INSERT OR REPLACE INTO unapplied_commands (command_id, kind, status, reason, operation, payload, changes, hlc, created_at, settled_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.listConflict = conflictListing(db);
  }

  /** Swaps the command's rows for the hub's; lists the command, when `listed`, if the hub's values differ from the store's. */
  swap(command: SettledCommand, rows: readonly RowChange[], now: string, listed: boolean): void {
    const own = syncColumns['outbox.changes'](command.changes);
    const ownStamps = new Map(own.map((change) => [keyOf(change), change.hlc]));
    const kept = new Set(rows.map(keyOf));
    for (const change of [...own].reverse()) {
      if (change.op === 'insert' && !kept.has(keyOf(change))) this.deleteRow(change.entity, change.entity_id, change.hlc);
    }
    for (const change of rows) {
      // A row a later write here changed since is left to that write's own answer.
      if (!this.unchangedSince(change.entity, change.entity_id, ownStamps.get(keyOf(change)))) continue;
      if (change.op === 'delete') this.deleteRow(change.entity, change.entity_id, undefined);
      else if (change.row) this.replace(change.entity, change.row);
    }
    if (listed && rowsDiffer(own, rows)) {
      const detail = { command_id: command.command_id, kind: command.kind, store_rows: own.length, hub_rows: rows.length };
      this.listConflict.run(this.newId(), 'operation_differs', 'commands', command.command_id, JSON.stringify(detail), now);
    }
  }

  /** Takes back a rejected or held command's effects and keeps it readable, listed with its reason. */
  setAsideCommand(command: SettledCommand, result: Pick<CommandResult, 'status' | 'reason'>, now: string): void {
    const reason = result.reason ?? result.status;
    const changes = syncColumns['outbox.changes'](command.changes);
    const kept = new Set<string>();
    for (const change of [...changes].reverse()) {
      if (change.op === 'insert' && !this.deleteRow(change.entity, change.entity_id, change.hlc)) kept.add(keyOf(change));
    }
    this.setAside.run(
      command.command_id,
      command.kind,
      result.status,
      reason,
      command.operation,
      command.payload,
      command.changes,
      command.hlc,
      command.created_at,
      now,
    );
    const kind = `${result.status}_command`;
    const detail = (change?: RowChange) =>
      JSON.stringify({ command_id: command.command_id, kind: command.kind, reason, ...(change && kept.has(keyOf(change)) ? { kept: true } : {}) });
    if (changes.length === 0) this.listConflict.run(this.newId(), kind, 'commands', command.command_id, detail(), now);
    for (const change of changes) this.listConflict.run(this.newId(), kind, change.entity, change.entity_id, detail(change), now);
  }

  /** Deletes a row (only at this stamp, when given); false when a later row still names it. */
  private deleteRow(table: string, id: string, stamp: string | undefined): boolean {
    try {
      this.db.transaction(() => {
        if (stamp === undefined) this.statements.get(`DELETE FROM ${table} WHERE id = ?`).run(id);
        else this.statements.get(`DELETE FROM ${table} WHERE id = ? AND hlc = ?`).run(id, stamp);
      })();
      return true;
    } catch (error) {
      if (isForeignKeyViolation(error)) return false;
      throw error;
    }
  }

  /** Whether the row holds the command's own stamp (or, for a row the command did not write here, is absent). */
  private unchangedSince(table: string, id: string, stamp: string | undefined): boolean {
    const stored = this.statements.get(`SELECT hlc FROM ${table} WHERE id = ?`).pluck().get(id) as string | undefined;
    return stored === stamp;
  }

  /** Writes the hub's row as it is, in the columns this store's schema has. */
  private replace(table: string, row: Readonly<Record<string, unknown>>): void {
    const known = this.knownColumns(table);
    const columns = Object.keys(row).filter((column) => known.has(column));
    const updates = columns.filter((column) => column !== 'id').map((column) => `${column} = excluded.${column}`);
    this.statements
      .get(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT (id) DO UPDATE SET ${updates.join(', ')}`,
      )
      .run(...columns.map((column) => row[column] as string | number | null));
  }

  private knownColumns(table: string): Set<string> {
    let columns = this.columnsOf.get(table);
    if (!columns) {
      columns = new Set(
        this.db
          .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
          .all()
          .map((column) => column.name),
      );
      this.columnsOf.set(table, columns);
    }
    return columns;
  }
}

function keyOf(change: Pick<RowChange, 'entity' | 'entity_id'>): string {
  return `${change.entity} ${change.entity_id}`;
}
