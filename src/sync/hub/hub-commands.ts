/**
 * The hub applies each store's commands exactly once (DESIGN §5). Per node and generation
 * it keeps the last applied seq, updated in the transaction of the commands' effects: a
 * command at or below it is answered again from `applied_commands` without re-applying
 * (kept for `sync.feed_retention_days`, src/sync/hub/feed-compaction.ts); a gap is a protocol
 * error. Each command is an operation the hub runs again (src/sync/hub/hub-operations.ts); one its
 * node had no right to make is still processed, as rejected, and one past the node's limits as
 * held, so it never blocks the commands behind it.
 */
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/open.js';
import type { WritePath } from '../../db/write-path.js';
import type { CustomerStates } from '../../loyalty/customer-states.js';
import { generationDiverged, sequenceGap } from '../../core/sync-errors.js';
import type { CommandEffects, Effect } from './command-effects.js';
import type { CommandPolicy } from './command-policy.js';
import type { CommandResult, PushedCommand, ReplayedResult, RowChange } from '../protocol/protocol.js';
import { msOfStamp } from '../../core/hlc.js';
import { ANOTHER_NODES, AppliedCommands } from './applied-commands.js';
import type { ClockSkews } from './clock-skews.js';
import type { HeldCommands } from './held-commands.js';
import { SavepointNeeded, type HubOperations, type OperationOutcome } from './hub-operations.js';

/** The generation the results of replayed commands are kept under: they are outside every store's sequence. */
const REPLAYED = 'replayed';

/**
 * Work a part of the hub adds to a command the hub applied, in its transaction, with the rows
 * the hub wrote for it (src/sync/hub/duplicate-registrations.ts).
 */
export type AppliedListener = (command: PushedCommand, written: readonly RowChange[]) => void;

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
  policy: CommandPolicy;
  effects: CommandEffects;
  states: CustomerStates;
  /** Called with each command applied and the rows the hub wrote for it. */
  listeners: AppliedListener[];
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
  private readonly policy: CommandPolicy;
  private readonly effects: CommandEffects;
  private readonly states: CustomerStates;
  private readonly listeners: AppliedListener[];
  private readonly clock: Clock;
  private readonly operations: HubOperations;
  private readonly holds: HeldCommands;
  private readonly skews: ClockSkews;
  private readonly maxSkewMs: number;
  private readonly applied: AppliedCommands;

  constructor(options: HubCommandsOptions) {
    const { db, writes, policy, effects, states, listeners, clock, operations, holds, skews, maxSkewMs } = options;
    this.db = db;
    this.writes = writes;
    this.policy = policy;
    this.effects = effects;
    this.states = states;
    this.listeners = listeners;
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
   * A batch is first applied with its operations' writes joining the transaction
   * directly: a savepoint costs SQLite a copy of every page each command changes. When an
   * operation fails once it may have written (a fact held or refused by the feature code), that
   * attempt is rolled back whole and the batch applied again with a savepoint for each.
   */
  apply(nodeId: string, generation: string, commands: PushedCommand[]): AppliedPart {
    return this.applyPart(nodeId, generation, commands, 0, Infinity);
  }

  /**
   * Applies the batch's commands from `from` on, as `apply` does, in one transaction that takes
   * no further command once `turnMs` have passed since it began (it takes one at least): the
   * results are of the commands it took, in order (src/sync/hub/pushes-in-turns.ts).
   */
  applyPart(nodeId: string, generation: string, commands: PushedCommand[], from: number, turnMs: number): AppliedPart {
    const part = { commands, from, turnMs };
    try {
      return this.applyBatch(nodeId, generation, part, 'none');
    } catch (error) {
      if (!(error instanceof SavepointNeeded)) throw error;
      // Origins bound in the attempt were taken back with it.
      this.policy.forgetOwners();
      return this.applyBatch(nodeId, generation, part, 'own');
    }
  }

  private applyBatch(
    nodeId: string,
    generation: string,
    { commands, from, turnMs }: { commands: PushedCommand[]; from: number; turnMs: number },
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
          const result = this.applyOperation(nodeId, generation, command, written, savepoints);
          results.push(result);
          skewMs = Math.max(skewMs, msOfStamp(command.hlc) - this.clock());
          const effect = result.status === 'applied' ? this.effects.effectOf(command) : undefined;
          if (effect) effects.push(effect);
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

  /** A command: the operation the hub runs again (src/sync/hub/hub-operations.ts). Its result is kept; a held one is listed for an operator. */
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
    return { status: 'rejected', reason: `a store does not perform ${command.kind}` };
  }

  /** Keeps a command's result, and holds it when it is held. */
  private keep(nodeId: string, generation: string, command: PushedCommand, outcome: OperationOutcome, written: RowChange[]): CommandResult {
    if (outcome.status === 'held') this.holds.hold(nodeId, command, outcome.reason!);
    if (outcome.written) {
      written.push(...outcome.written);
      for (const listener of this.listeners) listener(command, outcome.written);
    }
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
}

/** The answer to a command whose id is another node's command's: refused, and not kept, since the id keys that node's result. */
function anotherNodes(command: PushedCommand): CommandResult {
  return { command_id: command.command_id, seq: command.seq, status: 'rejected', reason: 'command_id_of_another_node' };
}
