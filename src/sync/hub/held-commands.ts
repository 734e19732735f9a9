/**
 * Operations the hub holds (src/sync/hub/hub-operations.ts): a node's fact past the chain's
 * limits for it, or one the hub's feature code refuses as it stands. Recorded with the whole
 * command, counted nowhere and listed (`sync conflicts`, /status, `loyaltyd held`), until an
 * operator releases it — the hub runs it again, past the limits, at its as-of time — or
 * voids it, which keeps it listed and counted nowhere for good.
 */
import type { Statement } from '../../db/engine.js';
import type { Clock } from '../../core/clock.js';
import type { IdGenerator } from '../../core/ids.js';
import type { Db } from '../../db/open.js';
import type { HeldCommandsRow } from '../../db/tables.generated.js';
import { invalidParam, notFound } from '../../core/errors.js';
import { conflictListing, type ConflictListing } from '../conflict-listing.js';
import type { HubOperations } from './hub-operations.js';
import type { PushedCommand } from '../protocol/protocol.js';
import { syncColumns } from '../column-codecs.js';

/** A command carries no rows: its `changes` column holds none. */
const NO_ROWS = '[]';

export type HeldCommand = Pick<HeldCommandsRow, 'command_id' | 'node_id' | 'kind' | 'reason' | 'held_at' | 'state' | 'resolved_at'>;

export class HeldCommands {
  private readonly insert: Statement;
  private readonly byId: Statement<[string], HeldCommandsRow>;
  private readonly open: Statement<[number], HeldCommand>;
  private readonly resolve: Statement<[string, string, string]>;
  private readonly listConflict: ConflictListing;

  constructor(
    private readonly db: Db,
    private readonly operations: HubOperations,
    private readonly newId: IdGenerator,
    private readonly clock: Clock,
  ) {
    this.insert = db.prepare(
      `INSERT INTO held_commands (command_id, node_id, kind, operation, changes, hlc, reason, held_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (command_id) DO NOTHING`,
    );
    this.byId = db.prepare('SELECT * FROM held_commands WHERE command_id = ?');
    this.open = db.prepare(
      "SELECT command_id, node_id, kind, reason, held_at, state, resolved_at FROM held_commands WHERE state = 'held' ORDER BY held_at LIMIT ?",
    );
    this.resolve = db.prepare("UPDATE held_commands SET state = ?, resolved_at = ? WHERE command_id = ? AND state = 'held'");
    this.listConflict = conflictListing(db);
  }

  /**
   * Records a held command, its stamp brought back to the hub's clock when it runs ahead past the
   * tolerance, and lists it. Runs in the push's transaction.
   */
  hold(nodeId: string, command: PushedCommand, reason: string): void {
    const now = new Date(this.clock()).toISOString();
    this.insert.run(
      command.command_id,
      nodeId,
      command.kind,
      JSON.stringify(command.operation),
      NO_ROWS,
      this.operations.stampFor(command.hlc),
      reason,
      now,
    );
    this.listConflict.run(
      this.newId(),
      'held_command',
      'commands',
      command.command_id,
      JSON.stringify({ kind: command.kind, node_id: nodeId, reason }),
      now,
    );
  }

  /** The commands still held, oldest first. */
  list(limit = 1000): HeldCommand[] {
    return this.open.all(limit);
  }

  /**
   * Runs a held command again past its node's limits and marks it released; throws the
   * reason when the hub still cannot take it (a customer it does not know yet).
   */
  release(commandId: string): void {
    const stored = this.held(commandId);
    const command: PushedCommand = {
      seq: 1,
      command_id: stored.command_id,
      kind: stored.kind,
      hlc: stored.hlc,
      operation: syncColumns['held_commands.operation'](stored.operation),
    };
    this.db.transaction(() => {
      const outcome = this.operations.run(stored.node_id, command, false);
      if (outcome.status !== 'applied')
        throw invalidParam('command_id', 'not_allowed_value', commandId, `The hub cannot take it: ${outcome.reason ?? outcome.status}`);
      this.operations.checkFolds(outcome.written ?? []);
      this.resolve.run('released', new Date(this.clock()).toISOString(), commandId);
    })();
  }

  /** Marks a held command void: it stays listed and counts nowhere. */
  void(commandId: string): void {
    this.held(commandId);
    this.resolve.run('voided', new Date(this.clock()).toISOString(), commandId);
  }

  private held(commandId: string): HeldCommandsRow {
    const stored = this.byId.get(commandId);
    if (!stored) throw notFound('held_commands', commandId);
    if (stored.state !== 'held') throw invalidParam('command_id', 'not_allowed_value', commandId, `The command was ${stored.state} already`);
    return stored;
  }
}
