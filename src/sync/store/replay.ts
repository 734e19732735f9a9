/**
 * Replay: a hub restored from a backup has lost the commands a store pushed after the backup.
 * The store keeps the commands the hub applied for `retention.local_days`
 * (`acknowledged_commands`, src/sync/store/retention.ts) and sends them again: the hub runs each as it ran it first
 * (HubCommands.replayPart), with the ids and stamps it carries, so a record it still holds
 * changes nothing and a store may do no more in a replay than in a push. Rows are never sent as
 * they stand.
 *
 * The snapshot a store bootstraps from says which of its commands the hub holds (`node_through`,
 * the newest command stamp, src/sync/hub/hub-commands.ts). When that is older than what the hub
 * acknowledged, the bootstrap plans a replay of the commands stamped between the two, in the order
 * they were made, a request at a time (cut as a push's batches are, by count and bytes,
 * src/sync/store/command-batch.ts), each followed by the point reached; and it moves the pending
 * commands to a new generation (src/sync/store/pusher.ts), as the hub holds this store's seqs only
 * up to its backup. Until the replay is done their rows count as unacknowledged
 * (`heldByHubThrough`): the bootstrap's sweep and retention keep them, and the store reports
 * nothing of what it has pushed through (it reports at a round's pull, which comes after the
 * replay, src/sync/store/pusher.ts `reportAtBootstrap`), so that the hub folds no state past them.
 * A round replays before it pushes, so a command queued meanwhile finds what it names. The hub's
 * answers settle as a push's do (src/sync/store/command-settlement.ts). One answered *waiting*
 * names what the hub does not hold yet — a customer another store registered, which that store has
 * not sent back — and is sent again each round for up to `offline.max_age_hours`, then as final:
 * the hub holds it if it still cannot take it.
 */
import type { Statement } from '../../db/engine.js';
import { z } from 'zod';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/open.js';
import { commitUnsynced } from '../../db/unsynced-commit.js';
import { CommandBatch, cutIntoBatches, fillInTurns } from './command-batch.js';
import type { CommandSettlement, SettledCommand } from './command-settlement.js';
import type { HubClient } from './hub-client.js';
import { MAX_REPLAYED_COMMANDS, replayRequestText, type ReplayedResult } from '../protocol/protocol.js';
import type { SyncState } from '../sync-state.js';

const COLUMNS = 'seq, command_id, kind, payload, changes, hlc, operation, created_at';

/** The seqs of the commands the hub answered waiting, as sync state keeps them. */
const WaitingSeqs = z.array(z.number().int());

/**
 * The stamp through which this store's own rows are known to be at the hub: the newest one it
 * acknowledged, or, while a replay is due, the one the restored hub said it holds.
 */
export function heldByHubThrough(state: SyncState): string {
  const acked = state.get('acked_stamp') ?? '';
  const after = state.get('replay_after');
  return after !== undefined && after < acked ? after : acked;
}

/** What Replay is built from. */
export interface ReplayOptions {
  db: Db;
  state: SyncState;
  client: HubClient;
  settlement: CommandSettlement;
  clock: Clock;
  /** How long a command the hub answers waiting is sent again before it is sent as final. */
  retryMs: number;
}

export class Replay {
  private readonly planned: Statement<[number, string, string], SettledCommand>;
  private readonly bySeq: Statement<[number], SettledCommand>;
  private readonly forget: Statement<[number]>;

  private readonly db: Db;
  private readonly state: SyncState;
  private readonly client: HubClient;
  private readonly settlement: CommandSettlement;
  private readonly clock: Clock;
  private readonly retryMs: number;

  constructor(options: ReplayOptions) {
    const { db, state, client, settlement, clock, retryMs } = options;
    this.db = db;
    this.state = state;
    this.client = client;
    this.settlement = settlement;
    this.clock = clock;
    this.retryMs = retryMs;
    this.planned = db.prepare(`SELECT ${COLUMNS} FROM acknowledged_commands WHERE seq > ? AND hlc > ? AND hlc <= ? ORDER BY seq`);
    this.bySeq = db.prepare(`SELECT ${COLUMNS} FROM acknowledged_commands WHERE seq = ?`);
    this.forget = db.prepare('DELETE FROM acknowledged_commands WHERE seq = ?');
  }

  /**
   * Plans a replay when the hub holds less of this store than it acknowledged; `nodeThrough`
   * undefined means the hub cannot tell. Runs in the transaction that notes the snapshot's
   * start. A replay planned already (a hub restored twice) starts again from the older stamp.
   * Whether one is planned.
   */
  plan(nodeThrough: string | undefined): boolean {
    const acked = this.state.get('acked_stamp');
    if (nodeThrough === undefined || acked === undefined || nodeThrough >= acked) return false;
    const planned = this.state.get('replay_after');
    this.state.set('replay_after', planned !== undefined && planned < nodeThrough ? planned : nodeThrough);
    this.state.set('replay_through', acked);
    this.state.clear('replay_position');
    return true;
  }

  /** Sends the planned commands, then those the hub answered waiting; returns how many it sent. */
  async replayAll(): Promise<number> {
    return (await this.replayPlanned()) + (await this.sendWaitingAgain());
  }

  private async replayPlanned(): Promise<number> {
    const after = this.state.get('replay_after');
    const through = this.state.get('replay_through');
    if (after === undefined || through === undefined) return 0;
    let sent = 0;
    for (;;) {
      const batch = new CommandBatch(0, MAX_REPLAYED_COMMANDS);
      const commands = await fillInTurns(batch, (seq) => this.planned.iterate(seq, after, through), this.state.number('replay_position') ?? 0);
      if (commands.length === 0) break;
      const { results } = await this.client.replay(replayRequestText(commands, false));
      commitUnsynced(this.db, () => {
        this.saveWaiting([...this.waitingList(), ...this.settle(commands, results)]);
        this.state.set('replay_position', commands.at(-1)!.seq);
      });
      sent += commands.length;
    }
    commitUnsynced(this.db, () => {
      this.state.clear('replay_after');
      this.state.clear('replay_through');
      this.state.clear('replay_position');
    });
    return sent;
  }

  /** The commands the hub answered waiting, sent again, as final once their time is up. */
  private async sendWaitingAgain(): Promise<number> {
    const waiting = this.waitingList();
    if (waiting.length === 0) return 0;
    const final = this.clock() > (this.state.number('replay_waiting_until') ?? Infinity);
    const commands = waiting.map((seq) => this.bySeq.get(seq)).filter((command) => command !== undefined);
    const still: number[] = [];
    for (const chunk of cutIntoBatches(commands, 0, MAX_REPLAYED_COMMANDS)) {
      const { results } = await this.client.replay(replayRequestText(chunk, final));
      commitUnsynced(this.db, () => still.push(...this.settle(chunk, results)));
    }
    commitUnsynced(this.db, () => this.saveWaiting(still));
    return commands.length;
  }

  /**
   * Settles the hub's answers as a push's: an applied command's rows swapped for the hub's when
   * they differ, a rejected or held one taken back and set aside. Returns the seqs of those
   * answered waiting. Runs in a transaction.
   */
  private settle(commands: readonly SettledCommand[], results: readonly ReplayedResult[]): number[] {
    const byId = new Map(commands.map((command) => [command.command_id, command]));
    const now = new Date(this.clock()).toISOString();
    const waiting: number[] = [];
    for (const result of results) {
      const command = byId.get(result.command_id);
      if (!command) continue;
      if (result.status === 'waiting') waiting.push(command.seq);
      else if (result.status === 'applied') {
        if (result.rows) this.settlement.swap(command, result.rows, now, true);
      } else {
        this.settlement.setAsideCommand(command, { status: result.status, reason: result.reason }, now);
        this.forget.run(command.seq);
      }
    }
    return waiting;
  }

  private waitingList(): number[] {
    const saved = this.state.get('replay_waiting');
    return saved === undefined ? [] : WaitingSeqs.parse(JSON.parse(saved));
  }

  /** Keeps the commands to send again, with the deadline set when the first of them waited. Runs in a transaction. */
  private saveWaiting(seqs: number[]): void {
    if (seqs.length === 0) {
      this.state.clear('replay_waiting');
      this.state.clear('replay_waiting_until');
      return;
    }
    this.state.set('replay_waiting', JSON.stringify(seqs));
    if (this.state.get('replay_waiting_until') === undefined) this.state.set('replay_waiting_until', this.clock() + this.retryMs);
  }
}
