/**
 * The hub runs a store's operation again (DESIGN §5 "Authority"): the call the store served,
 * parsed by the endpoint's own schemas and run through the same service, with the ids the
 * store made, judged by the program and master data in force at its as-of time (its stamp's,
 * brought back to the hub's clock when ahead), writing the hub's own rows. A store sends no rows:
 * its operation names the stamps of the rows it wrote, which the hub's rows of the call take in
 * the same order, and their digest, which tells whether the hub's rows are the store's.
 *
 * - *rejected*: its node had no right to make it — a kind no store performs offline, a call
 *   that does not parse, a caller the hub does not know as active, a store the node does not
 *   serve, an id another node made.
 * - *held*: a fact the node may make but that takes it past the chain's limits
 *   (src/sync/hub/node-limits.ts), or that the hub's feature code refuses (a customer the hub
 *   does not know, a bill number already used): recorded, counted nowhere, until an operator
 *   releases or voids it (src/sync/hub/held-commands.ts).
 * - *applied*: the hub's rows; when their digest is not the store's (points computed by another
 *   program, a stamp brought back from the future), they go back in the answer and the store
 *   swaps its own for them (src/sync/store/pusher.ts).
 */
import type { Statement } from '../../db/engine.js';
import type { Clock } from '../../core/clock.js';
import { msOfStamp, originOfStamp, stampInOrigin, type HybridLogicalClock } from '../../core/hlc.js';
import type { Operations } from '../../core/operations.js';
import type { Db } from '../../db/open.js';
import type { WritePath } from '../../db/write-path.js';
import { AppError } from '../../core/errors.js';
import type { Principal } from '../../http/principal.js';
import { CommandRejected, type CommandPolicy } from './command-policy.js';
import type { DelegatedPrincipals } from './delegated-principals.js';
import type { FoldConflicts } from '../fold-conflicts.js';
import type { NodeLimits } from './node-limits.js';
import { storesNamed } from './store-ids.js';
import { replayContext, type OperationKinds } from './operation-kinds.js';
import { rowsDigest } from '../../db/rows-digest.js';
import type { PushedCommand, RowChange } from '../protocol/protocol.js';
import { isUniqueViolation } from '../../db/constraint-errors.js';

/** An operation the hub holds for an operator: thrown inside its savepoint, so nothing of it stays. */
export class CommandHeld extends Error {}

/**
 * An operation run without a savepoint failed once it had begun writing: what it wrote cannot
 * be taken back alone, so the caller rolls its whole transaction back and runs the operations
 * again, each in its savepoint (HubCommands.apply).
 */
export class SavepointNeeded extends Error {}

export interface OperationOutcome {
  status: 'applied' | 'rejected' | 'held';
  reason: string | null;
  /** The hub's rows, when they differ from the store's. */
  rows?: RowChange[];
  /** Every row the hub wrote, for the fold's checks of the push (`checkFolds`). */
  written?: RowChange[];
  /** Held or rejected for naming a record the hub does not hold: a customer, a card, a bill. */
  missing?: true;
}

/** What HubOperations is built from. */
export interface HubOperationsOptions {
  db: Db;
  writes: WritePath;
  operations: Operations;
  kinds: OperationKinds;
  policy: CommandPolicy;
  principals: DelegatedPrincipals;
  limits: NodeLimits;
  conflicts: FoldConflicts;
  hlc: HybridLogicalClock;
  clock: Clock;
  maxSkewMs: number;
}

export class HubOperations {
  private readonly stamps = new Map<string, Statement<[string], string>>();
  /** better-sqlite3 builds a transaction wrapper per call to db.transaction(): one is made and reused. */
  private readonly inSavepoint: (run: () => RowChange[]) => RowChange[];

  private readonly db: Db;
  private readonly writes: WritePath;
  private readonly operations: Operations;
  private readonly kinds: OperationKinds;
  private readonly policy: CommandPolicy;
  private readonly principals: DelegatedPrincipals;
  private readonly limits: NodeLimits;
  private readonly conflicts: FoldConflicts;
  private readonly hlc: HybridLogicalClock;
  private readonly clock: Clock;
  private readonly maxSkewMs: number;

  constructor(options: HubOperationsOptions) {
    const { db, writes, operations, kinds, policy, principals, limits, conflicts, hlc, clock, maxSkewMs } = options;
    this.db = db;
    this.writes = writes;
    this.operations = operations;
    this.kinds = kinds;
    this.policy = policy;
    this.principals = principals;
    this.limits = limits;
    this.conflicts = conflicts;
    this.hlc = hlc;
    this.clock = clock;
    this.maxSkewMs = maxSkewMs;
    this.inSavepoint = db.transaction((run: () => RowChange[]) => run());
  }

  /** Whether commands of this kind are operations the hub runs again. */
  runs(kind: string): boolean {
    return this.kinds.get(kind) !== undefined;
  }

  /**
   * Runs one operation in its own savepoint of the caller's transaction; `judged` false runs
   * it past the node's limits (an operator's release). With `savepoint` 'none' its writes join
   * the caller's transaction directly, which spares SQLite copying every page the operation
   * changes into the savepoint's journal; an operation that then fails after its checks, once
   * it may have written, throws SavepointNeeded instead of being answered.
   */
  run(nodeId: string, command: PushedCommand, judged = true, savepoint: 'own' | 'none' = 'own'): OperationOutcome {
    try {
      const rows = this.runChecked(nodeId, command, judged, savepoint);
      return { status: 'applied', reason: null, rows: rows && !sameRows(command, rows) ? rows : undefined, written: rows };
    } catch (error) {
      if (error instanceof CommandHeld) return { status: 'held', reason: error.message };
      if (error instanceof CommandRejected) return { status: 'rejected', reason: error.message };
      // The hub's feature code refuses the fact as it stands here: held for an operator.
      if (error instanceof AppError && error.status < 500)
        return { status: 'held', reason: describe(error), ...(namesMissing(error) ? { missing: true as const } : {}) };
      if (isUniqueViolation(error)) return { status: 'rejected', reason: 'already_exists' };
      throw error;
    }
  }

  /**
   * A stamp the hub can take as the store made it, or one of the hub's clock in the store's
   * origin when it runs further ahead of the hub than the tolerance: a stamp from the future
   * would win every last-writer-wins comparison and drag every clock with it.
   */
  stampFor(stamp: string): string {
    if (msOfStamp(stamp) - this.clock() <= this.maxSkewMs) {
      this.hlc.observe(stamp);
      return stamp;
    }
    return stampInOrigin(this.hlc.now(), originOfStamp(stamp));
  }

  private runChecked(nodeId: string, command: PushedCommand, judged: boolean, savepoint: 'own' | 'none'): RowChange[] | undefined {
    const origin = this.policy.originOf(nodeId, command.hlc);
    const operation = command.operation;
    if ('continues' in operation) return undefined;
    const kind = this.kinds.get(command.kind);
    if (!kind) throw new CommandRejected(`a store does not perform ${command.kind}`);
    const call = operation.call;
    if (!call || !kind.offeredIn(call.iface)) throw new CommandRejected(`a ${command.kind} command carries no call of it`);
    const principal = this.verified(nodeId, call.principal as Principal);
    const input = this.parsed(kind.parse.bind(kind), call.input);
    for (const storeId of storesNamed(command.kind, input)) this.policy.checkStore(nodeId, storeId, `the ${command.kind}`);
    // The store's first row is stamped before every other row of the call: a row the call made
    // that holds it or a later stamp was made by this call already.
    const stamps = operation.stamps ?? [];
    const first = operation.ids[0];
    if (first !== undefined && this.madeAlready(kind.makes, first, stamps[0] ?? command.hlc)) return undefined;
    // Ahead of the hub's clock within the tolerance, the store's time is a clock's; further, the hub's.
    const claimedAsOf = operation.as_of ?? msOfStamp(command.hlc);
    const asOf = claimedAsOf - this.clock() <= this.maxSkewMs ? claimedAsOf : this.clock();
    let written = 0;
    const stampOf = () => {
      const stamp = stamps[written];
      written += 1;
      return stamp !== undefined && originOfStamp(stamp) === origin ? this.stampFor(stamp) : stampInOrigin(this.hlc.now(), origin);
    };
    const run = () => {
      const { changes } = this.writes.collecting(() =>
        this.writes.joiningTransaction(() =>
          this.operations.replay({ ids: operation.ids, asOf, stampOf }, () =>
            kind.run(input, replayContext(call.iface, principal, command.command_id)),
          ),
        ),
      );
      const past = judged ? this.limits.judge(nodeId, command.kind, asOf, changes) : undefined;
      if (past) throw new CommandHeld(past);
      return changes as RowChange[];
    };
    // One savepoint for the operation, its writes joining it: the limits' judgement or any
    // failure takes all of it back.
    if (savepoint === 'own') return this.inSavepoint(run);
    try {
      return run();
    } catch (error) {
      throw new SavepointNeeded(`${command.kind} ${command.command_id} failed without its savepoint`, { cause: error });
    }
  }

  /**
   * The fold's checks (points spent twice, a voucher used twice) of the rows operations wrote:
   * once for a push, not once per operation, since each folds the customer's facts.
   */
  checkFolds(written: readonly RowChange[]): void {
    if (written.length > 0) this.conflicts.check([...written]);
  }

  /**
   * The call's caller as the hub knows it to act at this node (src/sync/hub/delegated-principals.ts);
   * any other is a rejection: a customer app's session must be one the hub made for this node.
   */
  private verified(nodeId: string, principal: Principal): Principal {
    try {
      return this.principals.verifyAt(nodeId, principal);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      throw new CommandRejected(`its caller: ${error.message}`);
    }
  }

  private parsed<T>(
    parse: (input: { params: unknown; query: unknown; body: unknown }) => T,
    input: { params: unknown; query: unknown; body: unknown },
  ): T {
    try {
      return parse(input);
    } catch (error) {
      if (error instanceof AppError) throw new CommandRejected(`its call does not parse: ${describe(error)}`);
      throw error;
    }
  }

  /**
   * Whether a row a command makes is there already: false when it is not; true when it holds
   * the command's stamp or a later one — the command comes again after the hub forgot its
   * result, and the row may have changed since; a rejection when an older row holds the id, since
   * a store's new row never overwrites one.
   */
  private madeAlready(table: string, id: string, stamp: string): boolean {
    let statement = this.stamps.get(table);
    if (!statement) {
      statement = this.db.prepare<[string], string>(`SELECT hlc FROM ${table} WHERE id = ?`).pluck();
      this.stamps.set(table, statement);
    }
    const stored = statement.get(id);
    if (stored === undefined) return false;
    if (stored >= stamp) return true;
    throw new CommandRejected(`already_exists: ${table} ${id} is an older row a command does not make anew`);
  }
}

/** Whether the hub's rows of a command are the ones its store wrote, by the digest its operation carries. */
function sameRows(command: PushedCommand, rows: RowChange[]): boolean {
  const operation = command.operation;
  return 'digest' in operation && operation.digest === rowsDigest(JSON.stringify(rows));
}

/** Whether the feature code refused the call for naming a record this node does not hold. */
function namesMissing(error: AppError): boolean {
  const params = (error.body.error_data?.invalid_params ?? []) as { reason: string }[];
  return error.status === 404 || params.some((param) => param.reason === 'not_found');
}

/** An API error in one line: its detail and the parameters it names. */
function describe(error: AppError): string {
  const params = (error.body.error_data?.invalid_params ?? []) as { name: string; reason: string }[];
  return [error.body.detail, ...params.map((param) => `${param.name}: ${param.reason}`)].join('; ');
}
