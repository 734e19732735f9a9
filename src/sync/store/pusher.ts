/**
 * Push: pending outbox commands go to the hub in seq order, in batches capped by count and
 * size (src/sync/store/command-batch.ts), up to the newest one pending when the push began:
 * commands queued meanwhile wait for the next round, so that a round under a stream of bills
 * ends and goes on to pull. A batch is read, and the hub's answers settled, a turn at a time
 * (TURN_MS each, one transaction a turn), so that the cash desks' calls waiting for the writer
 * thread run between turns: a store catching up after an outage reads and settles thousands
 * of commands, and each batch in one piece held the thread 20–80 ms (test/bench/README.md). A
 * power cut between two turns of a settlement leaves the rest pending, pushed again and
 * answered again by the hub as applied (DESIGN §5). An acknowledged command leaves the
 * outbox (DESIGN §5: the store keeps nothing it will not send again); the newest stamp it
 * carried is kept, so the clock resumes past it after a restart (src/db/node-identity.ts).
 * The hub's answers are settled by src/sync/store/command-settlement.ts: the store swaps its rows of
 * an applied command for the hub's when the hub sends them, and takes back the effects of a
 * rejected or held command, which stays readable with its reason; either is listed and
 * counted, so the store converges on what the hub holds. A command queued by an earlier version
 * without an operation is pushed with an empty one: the hub rejects it, with its reason, and the
 * queue behind it goes on.
 * When the hub says the store's stamps run ahead of its clock, the skew is kept for
 * `sync status` until a push says they no longer do.
 *
 * Commands are numbered per generation: the seq sent is the outbox seq less the
 * generation's base. When the hub answers that the history diverged (the database was
 * restored from a backup, so seqs it applied now name other commands), or that seqs are
 * missing (the hub was restored from a backup and no longer holds commands it acknowledged),
 * the store moves its pending commands to a new generation numbered from 1 and pushes again —
 * after the missing ones, once it has bootstrapped from the restored hub (`bootstrapFirst`).
 * A bootstrap that finds the hub lost commands it acknowledged starts the new generation itself
 * (src/sync/store/replay.ts): a store that learns of the restore from the feed then bootstraps
 * once, not again at its next push.
 */
import type { Statement } from '../../db/engine.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/open.js';
import type { MetaRow } from '../../db/tables.generated.js';
import { randomBytes } from 'node:crypto';
import { commitUnsynced } from '../../db/unsynced-commit.js';
import { HubError, type HubClient } from './hub-client.js';
import { MAX_COMMANDS_PER_PUSH, pushRequestText, type CommandResult } from '../protocol/protocol.js';
import { CommandBatch, fillInTurns, TURN_MS } from './command-batch.js';
import type { SyncState } from '../sync-state.js';
import type { CommandSettlement, SettledCommand } from './command-settlement.js';

/** The hub's answers after which the pending commands continue in a new generation. */
const RENUMBERED_AFTER = new Set(['sync_generation_diverged_exception', 'sync_sequence_gap_exception']);
/** The hub's answer when it no longer holds commands it acknowledged: it was restored from a backup. */
const LOST_BY_HUB = 'sync_sequence_gap_exception';

export interface PushOutcome {
  sent: number;
  rejected: number;
  held: number;
}

/** What Pusher is built from. */
export interface PusherOptions {
  db: Db;
  client: HubClient;
  state: SyncState;
  stamp: () => string;
  clock: Clock;
  settlement: CommandSettlement;
}

export class Pusher {
  private readonly pendingBetween: Statement<[number, number], SettledCommand>;
  private readonly lastPending: Statement<[], number | null>;
  private readonly keepApplied: Statement<[string, string]>;
  private readonly forget: Statement<[string]>;
  private readonly currentGeneration: Statement<[], Pick<MetaRow, 'value'>>;
  private readonly setGeneration: Statement;
  private readonly movePending: Statement;
  private readonly firstPending: Statement<[], { seq: number | null; last: number | null }>;

  private readonly db: Db;
  private readonly client: HubClient;
  private readonly state: SyncState;
  private readonly stamp: () => string;
  private readonly clock: Clock;
  private readonly settlement: CommandSettlement;

  constructor(options: PusherOptions) {
    const { db, client, state, stamp, clock, settlement } = options;
    this.db = db;
    this.client = client;
    this.state = state;
    this.stamp = stamp;
    this.clock = clock;
    this.settlement = settlement;
    this.pendingBetween = db.prepare(
      "SELECT seq, command_id, kind, payload, changes, hlc, operation, created_at FROM outbox WHERE status = 'pending' AND seq > ? AND seq <= ? ORDER BY seq",
    );
    this.lastPending = db.prepare<[], number | null>("SELECT max(seq) FROM outbox WHERE status = 'pending'").pluck();
    // An applied command is kept for `retention.local_days`, to be sent again to a hub restored
    // from a backup (src/sync/store/replay.ts); a rejected or held one is set aside. Either
    // leaves the outbox, which holds only what is still to push.
    this.keepApplied = db.prepare(
      `INSERT OR REPLACE INTO acknowledged_commands (seq, command_id, kind, payload, changes, hlc, operation, created_at, acked_at)
       SELECT seq, command_id, kind, payload, changes, hlc, operation, created_at, ? FROM outbox WHERE command_id = ? AND status = 'pending' AND operation IS NOT NULL`,
    );
    this.forget = db.prepare("DELETE FROM outbox WHERE command_id = ? AND status = 'pending'");
    this.currentGeneration = db.prepare("SELECT value FROM meta WHERE key = 'generation'");
    this.setGeneration = db.prepare("UPDATE meta SET value = ? WHERE key = 'generation'");
    this.movePending = db.prepare("UPDATE outbox SET generation = ? WHERE status = 'pending'");
    // Acknowledged commands leave the outbox, so the last seq ever given is AUTOINCREMENT's.
    this.firstPending = db.prepare(
      "SELECT (SELECT min(seq) FROM outbox WHERE status = 'pending') AS seq, (SELECT seq FROM sqlite_sequence WHERE name = 'outbox') AS last",
    );
  }

  /** Pushes the commands pending now, up to the newest of them. */
  async pushAll(): Promise<PushOutcome> {
    const outcome: PushOutcome = { sent: 0, rejected: 0, held: 0 };
    const through = this.lastPending.get() ?? 0;
    let restarted = false;
    for (;;) {
      const batch = await this.nextBatch(through);
      if (batch.length === 0) break;
      let response;
      try {
        response = await this.client.push(pushRequestText(this.currentGeneration.get()!.value, batch));
      } catch (error) {
        if (restarted || !(error instanceof HubError) || !RENUMBERED_AFTER.has(error.exception ?? '')) throw error;
        commitUnsynced(this.db, () => this.startNewGeneration());
        restarted = true;
        if (error.exception === LOST_BY_HUB) this.bootstrapFirst();
        continue;
      }
      await this.settle(batch, response.results, response.clock_skew_ms ?? 0);
      outcome.sent += batch.length;
      outcome.rejected += response.results.filter((result) => result.status === 'rejected').length;
      outcome.held += response.results.filter((result) => result.status === 'held').length;
    }
    commitUnsynced(this.db, () => {
      this.notePushedThrough();
      this.state.set('last_push_at', new Date(this.clock()).toISOString());
    });
    return outcome;
  }

  /**
   * What a bootstrap reports this node has pushed every fact up to, as the hub's horizon needs
   * it (src/loyalty/customer-states.ts): for a store the hub never acknowledged a command of,
   * the stamp noted (`notePushedThrough`); nothing for one it did. The hub such a store
   * bootstraps from may be one restored from a backup, which lost some of those commands, and
   * that stamp would let it fold states past them: the store reports at its round's pull,
   * after the replay its snapshot plans (src/sync/store/replay.ts).
   */
  reportAtBootstrap(): string | undefined {
    if (this.state.get('acked_stamp') !== undefined) return undefined;
    commitUnsynced(this.db, () => this.notePushedThrough());
    return this.state.get('pushed_through');
  }

  /**
   * Notes the stamp this node has pushed every fact up to: a fresh one when nothing is pending,
   * read in the same turn as the empty outbox so that every fact made from then on is stamped
   * after it; else the stamp of the newest command the hub acknowledged, when it is newer than
   * the one noted. A command is stamped after its own facts, before the next command's, and
   * acknowledged in seq order after every command before it, so each fact stamped up to it is at
   * the hub: a store that sells without pause moves the horizon on with each push. Runs in a
   * transaction.
   */
  private notePushedThrough(): void {
    if (this.firstPending.get()!.seq === null) {
      this.state.set('pushed_through', this.stamp());
      return;
    }
    const acked = this.state.get('acked_stamp');
    const noted = this.state.get('pushed_through');
    if (acked !== undefined && (noted === undefined || acked > noted)) this.state.set('pushed_through', acked);
  }

  /**
   * The hub lost commands it acknowledged: before anything queued here is pushed, the store
   * bootstraps from the restored hub, whose snapshot says which of this store's commands it
   * still holds, and sends back what it lost (src/sync/store/replay.ts). A command pushed first would
   * be applied without the rows it names, and move the hub's record of this store past them.
   */
  private bootstrapFirst(): never {
    commitUnsynced(this.db, () => {
      this.state.clear('cursor');
      this.state.clear('feed_id');
    });
    throw new Error('the hub no longer holds commands it acknowledged (restored from a backup): bootstrapping again before pushing');
  }

  /**
   * Moves the pending commands to a new generation, numbered from 1, and numbers those queued
   * later after them: the hub keeps no seq of a generation it has not seen. Runs in a transaction.
   */
  startNewGeneration(): void {
    const { seq, last } = this.firstPending.get()!;
    this.setGeneration.run(randomBytes(8).toString('hex'));
    this.movePending.run(this.currentGeneration.get()!.value);
    this.state.set('generation_base', (seq ?? (last ?? 0) + 1) - 1);
  }

  /** The next pending commands up to seq `through`, numbered within their generation, their JSON texts as stored; read a turn at a time. */
  private nextBatch(through: number): Promise<SettledCommand[]> {
    const batch = new CommandBatch(this.state.number('generation_base') ?? 0, MAX_COMMANDS_PER_PUSH);
    return fillInTurns(batch, (after) => this.pendingBetween.iterate(after, through));
  }

  /** Settles the hub's answers to a batch, a turn at a time. */
  private async settle(batch: SettledCommand[], results: CommandResult[], skewMs: number): Promise<void> {
    const answers: Answers = {
      results,
      byId: new Map(batch.map((command) => [command.command_id, command])),
      now: new Date(this.clock()).toISOString(),
      skewMs,
    };
    for (let next = 0; ;) {
      const deadline = performance.now() + TURN_MS;
      next = commitUnsynced(this.db, () => this.settleTurn(answers, next, deadline));
      if (next >= results.length) return;
      await nextTurn();
    }
  }

  /** One turn's transaction: the answers from `from` on (one at least) until `deadline`; where the next turn begins. */
  private settleTurn(answers: Answers, from: number, deadline: number): number {
    let newest = this.state.get('acked_stamp') ?? '';
    let unapplied = 0;
    let index = from;
    for (; index < answers.results.length && (index === from || performance.now() < deadline); index += 1) {
      const result = answers.results[index]!;
      const command = answers.byId.get(result.command_id);
      if (!command) continue;
      if (command.hlc > newest) newest = command.hlc;
      if (!this.settleOne(command, result, answers)) unapplied += 1;
    }
    if (newest) this.state.set('acked_stamp', newest);
    if (unapplied > 0) this.state.set('rejected_commands', (this.state.number('rejected_commands') ?? 0) + unapplied);
    this.state.set('clock_skew_ms', answers.skewMs);
    return index;
  }

  /** Settles one command by the hub's answer; false when the hub did not apply it. */
  private settleOne(command: SettledCommand, result: CommandResult, { now, skewMs }: Answers): boolean {
    if (result.status !== 'applied') {
      this.forget.run(result.command_id);
      this.settlement.setAsideCommand(command, result, now);
      return false;
    }
    this.keepApplied.run(now, result.command_id);
    this.forget.run(result.command_id);
    // Values the hub computed at its own time, for stamps ahead of it, are listed as the skew, not each.
    if (result.rows) this.settlement.swap(command, result.rows, now, skewMs === 0);
    return true;
  }
}

/** The hub's answers to one push, as its settlement's turns read them. */
interface Answers {
  results: CommandResult[];
  byId: Map<string, SettledCommand>;
  now: string;
  skewMs: number;
}
