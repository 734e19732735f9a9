/**
 * The hub applies each store's commands exactly once (DESIGN §5). Per node and generation
 * it keeps the last applied seq, updated in the transaction of the commands' effects: a
 * command at or below it is answered again from `applied_commands` without re-applying
 * (kept for `sync.feed_retention_days`, src/sync/hub/feed-compaction.ts); a gap is a protocol
 * error. A command the store may not push (src/sync/hub/command-policy.ts) or whose changes
 * cannot be applied (a reference the hub does not know, a unique value taken by another
 * record) is still processed, as rejected, so it never blocks the commands behind it.
 */
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/open.js';
import type { WritePath } from '../../db/write-path.js';
import type { ReplicatedApply } from '../replicated-apply.js';
import { CustomerStates, type TouchedRecords } from '../../loyalty/customer-states.js';
import { generationDiverged, sequenceGap } from '../../core/sync-errors.js';
import type { CommandEffects, Effect } from './command-effects.js';
import { rejectionReason, REPLAY_KIND, ROW_KINDS, type CommandPolicy } from './command-policy.js';
import type { FoldConflicts } from '../fold-conflicts.js';
import {
  PROTOCOL_VERSION,
  ROW_PROTOCOL,
  rowsDiffer,
  type CommandResult,
  type PushedCommand,
  type ReplayedResult,
  type ReplayResponse,
  type RowChange,
} from '../protocol/protocol.js';
import { msOfStamp } from '../../core/hlc.js';
import { ANOTHER_NODES, AppliedCommands } from './applied-commands.js';
import type { ClockSkews } from './clock-skews.js';
import type { HeldCommands } from './held-commands.js';
import { SavepointNeeded, type HubOperations, type OperationOutcome } from './hub-operations.js';

/** The generation the results of replayed commands are kept under: they are outside every store's sequence. */
const REPLAYED = 'replayed';

/** A replayed row as the command the completions see: outside every sequence, named for its row. */
function replayedRow(change: RowChange): PushedCommand {
  return {
    seq: 0,
    command_id: `${REPLAY_KIND}:${change.entity}:${change.entity_id}`,
    kind: REPLAY_KIND,
    payload: null,
    changes: [change],
    hlc: change.hlc,
  };
}

/**
 * Work a feature adds to the apply of a command, in its transaction, after its changes: the
 * hub completing what a store could not (src/features/checkout/cancellations.ts). Throwing
 * CommandRejected rejects the command with that reason.
 */
export type CommandCompletion = (command: PushedCommand) => void;

/** The results of the commands an apply took, the effects to run once they are durable, and how far ahead the node's clock ran. */
export interface AppliedPart {
  results: CommandResult[];
  effects: Effect[];
  /** How far the commands' stamps ran ahead of the hub's clock when past the tolerance; 0 within it. */
  skewMs: number;
}

/** What the hub's apply of commands uses. */
export interface HubCommandsOptions {
  db: Db;
  writes: WritePath;
  replicated: ReplicatedApply;
  policy: CommandPolicy;
  conflicts: FoldConflicts;
  effects: CommandEffects;
  states: CustomerStates;
  completions: CommandCompletion[];
  clock: Clock;
  operations: HubOperations;
  holds: HeldCommands;
  skews: ClockSkews;
  /** How far ahead of the hub's clock a store's stamp may run before it is listed as a skew. */
  maxSkewMs: number;
}

export class HubCommands {
  private readonly db: Db;
  private readonly writes: WritePath;
  private readonly replicated: ReplicatedApply;
  private readonly policy: CommandPolicy;
  private readonly conflicts: FoldConflicts;
  private readonly effects: CommandEffects;
  private readonly states: CustomerStates;
  private readonly completions: CommandCompletion[];
  private readonly clock: Clock;
  private readonly operations: HubOperations;
  private readonly holds: HeldCommands;
  private readonly skews: ClockSkews;
  private readonly maxSkewMs: number;
  private readonly applied: AppliedCommands;

  constructor(options: HubCommandsOptions) {
    const { db, writes, replicated, policy, conflicts, effects, states, completions, clock, operations, holds, skews, maxSkewMs } = options;
    this.db = db;
    this.writes = writes;
    this.replicated = replicated;
    this.policy = policy;
    this.conflicts = conflicts;
    this.effects = effects;
    this.states = states;
    this.completions = completions;
    this.clock = clock;
    this.operations = operations;
    this.holds = holds;
    this.skews = skews;
    this.maxSkewMs = maxSkewMs;
    this.applied = new AppliedCommands(db, clock, maxSkewMs);
  }

  /**
   * Applies a batch in one transaction — one fsync for up to 500 commands — with each
   * command as if in its own savepoint, so a rejected command leaves no trace but its result.
   * The customers whose records the applied commands changed get their state published once,
   * at the end of the batch (src/loyalty/customer-states.ts).
   *
   * A protocol-2 batch is first applied with its operations' writes joining the transaction
   * directly: a savepoint costs SQLite a copy of every page each command changes. When an
   * operation fails once it may have written (a fact held or refused by the feature code), that
   * attempt is rolled back whole and the batch applied again with a savepoint for each.
   */
  apply(nodeId: string, generation: string, commands: PushedCommand[], protocol = PROTOCOL_VERSION): AppliedPart {
    return this.applyPart(nodeId, generation, commands, 0, protocol, Infinity);
  }

  /**
   * Applies the batch's commands from `from` on, as `apply` does, in one transaction that takes
   * no further command once `turnMs` have passed since it began (it takes one at least): the
   * results are of the commands it took, in order (src/sync/hub/pushes-in-turns.ts).
   */
  applyPart(nodeId: string, generation: string, commands: PushedCommand[], from: number, protocol: number, turnMs: number): AppliedPart {
    const part = { commands, from, turnMs };
    if (protocol === ROW_PROTOCOL) return this.applyBatch(nodeId, generation, part, protocol, 'own');
    try {
      return this.applyBatch(nodeId, generation, part, protocol, 'none');
    } catch (error) {
      if (!(error instanceof SavepointNeeded)) throw error;
      // Origins bound in the attempt were taken back with it.
      this.policy.forgetOwners();
      return this.applyBatch(nodeId, generation, part, protocol, 'own');
    }
  }

  private applyBatch(
    nodeId: string,
    generation: string,
    { commands, from, turnMs }: { commands: PushedCommand[]; from: number; turnMs: number },
    protocol: number,
    savepoints: 'own' | 'none',
  ): AppliedPart {
    const effects: Effect[] = [];
    let skewMs = 0;
    const results = this.db.transaction(() =>
      this.states.publishingOnce(this.writes, () => {
        const results: CommandResult[] = [];
        const written: RowChange[] = [];
        const before = this.applied.lastSeq(nodeId, generation);
        let lastSeq = before;
        let newest = '';
        const began = performance.now();
        for (let index = from; index < commands.length; index += 1) {
          if (index > from && performance.now() - began >= turnMs) break;
          const command = commands[index]!;
          if (command.seq <= lastSeq) {
            // A seq already applied comes again: the same command (a retry) is answered from its
            // result; another command means the store's history diverged from what the hub
            // applied (a database restored from a backup) and it must start a new generation.
            const previous = this.applied.resultOf(command.command_id, nodeId);
            if (!previous) throw generationDiverged(command.seq);
            results.push(previous === ANOTHER_NODES ? anotherNodes(command) : previous);
            continue;
          }
          if (command.seq !== lastSeq + 1) throw sequenceGap(lastSeq + 1, command.seq);
          // A command the hub applied already, pushed again at a new seq (its answer was lost and
          // the store went on in a new generation), is answered from its result; another node's
          // command's id is refused.
          const kept = this.applied.resultOf(command.command_id, nodeId);
          lastSeq = command.seq;
          if (kept) {
            results.push(kept === ANOTHER_NODES ? anotherNodes(command) : { ...kept, seq: command.seq });
            continue;
          }
          const result =
            protocol === ROW_PROTOCOL
              ? this.applyRows(nodeId, generation, command)
              : this.applyOperation(nodeId, generation, command, written, savepoints);
          results.push(result);
          skewMs = Math.max(skewMs, msOfStamp(command.hlc) - this.clock());
          const effect = result.status === 'applied' ? this.effects.effectOf(command) : undefined;
          if (effect) effects.push(effect);
          if (result.status === 'applied' && protocol === ROW_PROTOCOL) this.publishLater(command.changes);
          if (command.hlc > newest) newest = command.hlc;
        }
        // The batch is one transaction: the store's progress is kept once, at its last command.
        if (lastSeq > before) this.applied.keepProgress(nodeId, generation, lastSeq, new Date(this.clock()).toISOString(), newest);
        this.operations.checkFolds(written);
        return results;
      }),
    )();
    return { results, effects, skewMs: skewMs > this.maxSkewMs ? skewMs : 0 };
  }

  /**
   * The newest stamp of the node's commands this hub holds: '' when it holds none, undefined
   * when it cannot tell (its progress rows were kept before it recorded command stamps). A bootstrapping store reads it
   * from the snapshot (src/sync/store/replay.ts).
   */
  heldThrough(nodeId: string): string | undefined {
    return this.applied.heldThrough(nodeId);
  }

  /**
   * Rows a store replays to this hub after it was restored from a backup (src/sync/store/replay.ts),
   * in one transaction: each checked as a command of its own (src/sync/hub/command-policy.ts) and
   * applied as last writer wins in its own savepoint, so a row the hub holds already changes
   * nothing and a row it refuses is answered with the reason. A row that changes something
   * goes through the completions a pushed command goes through, as a command of kind
   * REPLAY_KIND. The customers whose records came back get their state published.
   */
  replay(nodeId: string, changes: readonly RowChange[]): ReplayResponse {
    return this.db.transaction(() => {
      const response: ReplayResponse = { applied: 0, rejected: [] };
      const touched: TouchedRecords = new Map();
      for (const change of changes) {
        try {
          const changed = this.db.transaction(() => {
            this.policy.check(nodeId, { kind: REPLAY_KIND, hlc: change.hlc, changes: [change] });
            const applied = this.replicated.apply(change, true);
            if (applied) for (const complete of this.completions) complete(replayedRow(change));
            this.conflicts.check([change]);
            return applied;
          })();
          if (!changed) continue;
          response.applied += 1;
          CustomerStates.touched([change], touched);
        } catch (error) {
          response.rejected.push({ entity: change.entity, entity_id: change.entity_id, reason: rejectionReason(error) });
        }
      }
      if (touched.size > 0) this.writes.write(null, (tx) => this.states.publish(tx, touched.keys(), touched));
      return response;
    })();
  }

  /**
   * A protocol-2 command: an operation the hub runs again (src/sync/hub/hub-operations.ts), or,
   * for a kind it does not run again, its rows under the command policy with their stamps
   * brought back to the hub's clock. Its result is kept; a held one is listed for an operator.
   */
  private applyOperation(nodeId: string, generation: string, command: PushedCommand, written: RowChange[], savepoint: 'own' | 'none'): CommandResult {
    const outcome = this.outcomeOf(nodeId, command, savepoint);
    if (msOfStamp(command.hlc) - this.clock() > this.maxSkewMs) this.skews.list(nodeId, command, this.clock());
    return this.keep(nodeId, generation, command, outcome, written);
  }

  /**
   * A store's acknowledged commands this hub lost to a restore from a backup, sent again
   * (src/sync/store/replay.ts), from `from` on, in one transaction that takes no further command
   * once `turnMs` have passed since it began (it takes one at least; src/sync/hub/pushes-in-turns.ts):
   * each run as a pushed one but outside the store's sequence, its result kept; one whose result
   * the hub holds is answered from it. One naming a record the hub does not hold is answered
   * *waiting*, changing nothing, until the store sends it `final`. Effects (mail) are not done
   * again: the hub did them before the restore. The results are of the commands it took, in order.
   */
  replayPart(nodeId: string, commands: readonly PushedCommand[], from: number, final: boolean, turnMs: number): ReplayedResult[] {
    return this.db.transaction(() =>
      this.states.publishingOnce(this.writes, () => {
        const written: RowChange[] = [];
        const results: ReplayedResult[] = [];
        const began = performance.now();
        for (let index = from; index < commands.length; index += 1) {
          if (index > from && performance.now() - began >= turnMs) break;
          results.push(this.replayed(nodeId, commands[index]!, final, written));
        }
        this.operations.checkFolds(written);
        return results;
      }),
    )();
  }

  private replayed(nodeId: string, command: PushedCommand, final: boolean, written: RowChange[]): ReplayedResult {
    const previous = this.applied.resultOf(command.command_id, nodeId);
    if (previous === ANOTHER_NODES) return anotherNodes(command);
    if (previous) return previous;
    const outcome = this.outcomeOf(nodeId, command);
    if (outcome.missing && !final) return { command_id: command.command_id, seq: command.seq, status: 'waiting', reason: outcome.reason };
    return this.keep(nodeId, REPLAYED, command, outcome, written);
  }

  private outcomeOf(nodeId: string, command: PushedCommand, savepoint: 'own' | 'none' = 'own'): OperationOutcome {
    if (this.operations.runs(command.kind)) return this.operations.run(nodeId, command, true, savepoint);
    if (ROW_KINDS.has(command.kind)) return this.applyStampedRows(nodeId, command);
    return { status: 'rejected', reason: `a store does not perform ${command.kind}` };
  }

  /** Keeps a command's result, and holds it when it is held. */
  private keep(nodeId: string, generation: string, command: PushedCommand, outcome: OperationOutcome, written: RowChange[]): CommandResult {
    if (outcome.status === 'held') this.holds.hold(nodeId, command, outcome.reason!);
    if (outcome.written) written.push(...outcome.written);
    const result: CommandResult = {
      command_id: command.command_id,
      seq: command.seq,
      status: outcome.status,
      reason: outcome.reason,
      ...(outcome.rows ? { rows: outcome.rows } : {}),
    };
    this.applied.keepResult(nodeId, generation, result, new Date(this.clock()).toISOString());
    return result;
  }

  /**
   * A command of a kind the hub does not run again: its rows, checked by the policy, each with
   * a stamp the hub takes. An insert makes a new row, never overwrites one
   * (HubOperations.madeAlready).
   */
  private applyStampedRows(nodeId: string, command: PushedCommand): OperationOutcome {
    try {
      const rows = this.db.transaction(() => {
        this.policy.check(nodeId, command, 'passes');
        const inserts = command.changes.filter((change) => change.op === 'insert');
        if (inserts.some((change) => this.operations.madeAlready(change.entity, change.entity_id, change.hlc))) return undefined;
        const rows = command.changes.map((change) => this.operations.stamped(change));
        for (const change of rows) this.replicated.apply(change, true);
        for (const complete of this.completions) complete(command);
        return rows;
      })();
      if (!rows) return { status: 'applied', reason: null };
      this.publishLater(rows);
      return { status: 'applied', reason: null, rows: rowsDiffer(command.changes, rows, 'compared') ? rows : undefined, written: rows };
    } catch (error) {
      const reason = rejectionReason(error);
      return { status: 'rejected', reason, ...(reason === 'not_found' ? { missing: true as const } : {}) };
    }
  }

  /** Gathers the customers whose records replicated rows touched, for the batch's one publish (CustomerStates.publishingOnce). */
  private publishLater(changes: readonly RowChange[]): void {
    this.states.gather(CustomerStates.touched(changes));
  }

  /** A protocol-1 command: its rows under the command policy, as that protocol's stores were served. */
  private applyRows(nodeId: string, generation: string, command: PushedCommand): CommandResult {
    let reason: string | null = null;
    try {
      this.db.transaction(() => {
        this.policy.check(nodeId, command);
        for (const change of command.changes) this.replicated.apply(change, true);
        for (const complete of this.completions) complete(command);
        this.conflicts.check(command.changes);
      })();
    } catch (error) {
      reason = rejectionReason(error);
    }
    const result: CommandResult = { command_id: command.command_id, seq: command.seq, status: reason === null ? 'applied' : 'rejected', reason };
    this.applied.keepResult(nodeId, generation, result, new Date(this.clock()).toISOString());
    return result;
  }
}

/** The answer to a command whose id is another node's command's: refused, and not kept, since the id keys that node's result. */
function anotherNodes(command: PushedCommand): CommandResult {
  return { command_id: command.command_id, seq: command.seq, status: 'rejected', reason: 'command_id_of_another_node' };
}
