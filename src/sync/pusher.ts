/**
 * Push: pending outbox commands go to the hub in seq order, in batches capped by count and
 * size; the answers are settled in one transaction. An acknowledged command leaves the
 * outbox (DESIGN §5: the store keeps nothing it will not send again); the newest stamp it
 * carried is kept, so the clock resumes past it after a restart (src/db/node-identity.ts).
 * A rejected command's inserts are taken back locally (unless changed since), and the
 * rejection is listed as a conflict and counted, so the store converges on what the hub holds.
 *
 * Commands are numbered per generation: the seq sent is the outbox seq less the
 * generation's base. When the hub answers that the history diverged (the database was
 * restored from a backup, so seqs it applied now name other commands), or that seqs are
 * missing (the hub was restored from a backup and no longer holds commands it acknowledged),
 * the store moves its pending commands to a new generation numbered from 1 and pushes again.
 */
import type { Statement } from 'better-sqlite3';
import type { Clock } from '../clock.js';
import type { Db } from '../db/open.js';
import type { IdGenerator } from '../core/ids.js';
import { randomBytes } from 'node:crypto';
import { commitUnsynced } from '../db/unsynced-commit.js';
import { HubError, type HubClient } from './hub-client.js';
import { MAX_COMMANDS_PER_PUSH, MAX_PUSH_BYTES, pushRequestText, type CommandResult, type OutboxCommand, type RowChange } from './protocol.js';
import type { SyncState } from './sync-state.js';
import { conflictListing, type ConflictListing } from './conflict-listing.js';

/** The hub's answers after which the pending commands continue in a new generation. */
const RENUMBERED_AFTER = new Set(['sync_generation_diverged_exception', 'sync_sequence_gap_exception']);

export interface PushOutcome {
  sent: number;
  rejected: number;
}

export class Pusher {
  private readonly pending: Statement<[number], OutboxCommand>;
  private readonly acknowledge: Statement;
  private readonly recordConflict: ConflictListing;
  private readonly currentGeneration: Statement<[], { value: string }>;
  private readonly setGeneration: Statement;
  private readonly movePending: Statement;
  private readonly firstPending: Statement<[], { seq: number | null; last: number | null }>;

  constructor(
    private readonly db: Db,
    private readonly client: HubClient,
    private readonly state: SyncState,
    private readonly newId: IdGenerator,
    private readonly stamp: () => string,
    private readonly clock: Clock,
  ) {
    this.pending = db.prepare(
      "SELECT seq, command_id, kind, payload, changes, hlc FROM outbox WHERE status = 'pending' ORDER BY seq LIMIT ?",
    );
    this.acknowledge = db.prepare("DELETE FROM outbox WHERE command_id = ? AND status = 'pending'");
    this.recordConflict = conflictListing(db);
    this.currentGeneration = db.prepare("SELECT value FROM meta WHERE key = 'generation'");
    this.setGeneration = db.prepare("UPDATE meta SET value = ? WHERE key = 'generation'");
    this.movePending = db.prepare("UPDATE outbox SET generation = ? WHERE status = 'pending'");
    // Acknowledged commands are deleted, so the last seq ever given is AUTOINCREMENT's.
    this.firstPending = db.prepare(
      "SELECT (SELECT min(seq) FROM outbox WHERE status = 'pending') AS seq, (SELECT seq FROM sqlite_sequence WHERE name = 'outbox') AS last",
    );
  }

  /** Pushes until the outbox holds nothing pending. */
  async pushAll(): Promise<PushOutcome> {
    const outcome: PushOutcome = { sent: 0, rejected: 0 };
    let restarted = false;
    for (;;) {
      const batch = this.nextBatch();
      if (batch.length === 0) {
        this.pushedThrough();
        break;
      }
      let response;
      try {
        response = await this.client.push(pushRequestText(this.currentGeneration.get()!.value, batch));
      } catch (error) {
        if (restarted || !(error instanceof HubError) || !RENUMBERED_AFTER.has(error.exception ?? '')) throw error;
        this.startNewGeneration();
        restarted = true;
        continue;
      }
      this.settle(batch, response.results);
      outcome.sent += batch.length;
      outcome.rejected += response.results.filter((result) => result.status === 'rejected').length;
    }
    commitUnsynced(this.db, () => this.state.set('last_push_at', new Date(this.clock()).toISOString()));
    return outcome;
  }

  /**
   * The stamp this node has pushed every fact up to, as the hub's horizon needs it
   * (src/loyalty/customer-states.ts): a fresh one when nothing is pending, read in the same
   * turn as the empty outbox so that every fact made from then on is stamped after it; else
   * the one saved when the outbox was last empty; undefined when it never was. While a
   * replay is due (src/sync/replay.ts), the stamp the restored hub said it holds, or
   * undefined when it holds nothing of this store.
   */
  pushedThrough(): string | undefined {
    if (this.firstPending.get()!.seq === null) commitUnsynced(this.db, () => this.state.set('pushed_through', this.stamp()));
    const pushed = this.state.get('pushed_through');
    const replayAfter = this.state.get('replay_after');
    if (replayAfter === undefined || (pushed !== undefined && pushed <= replayAfter)) return pushed;
    return replayAfter === '' ? undefined : replayAfter;
  }

  private startNewGeneration(): void {
    commitUnsynced(this.db, () => {
      const { seq, last } = this.firstPending.get()!;
      this.setGeneration.run(randomBytes(8).toString('hex'));
      this.movePending.run(this.currentGeneration.get()!.value);
      this.state.set('generation_base', (seq ?? (last ?? 0) + 1) - 1);
    });
  }

  /** The next pending commands, numbered within their generation, their JSON texts as stored. */
  private nextBatch(): OutboxCommand[] {
    const base = this.state.number('generation_base') ?? 0;
    const batch: OutboxCommand[] = [];
    let bytes = 0;
    for (const record of this.pending.all(MAX_COMMANDS_PER_PUSH)) {
      bytes += record.payload.length + record.changes.length + 200;
      if (batch.length > 0 && bytes > MAX_PUSH_BYTES) break;
      batch.push({ ...record, seq: record.seq - base });
    }
    return batch;
  }

  private settle(batch: OutboxCommand[], results: CommandResult[]): void {
    const byId = new Map(batch.map((command) => [command.command_id, command]));
    const now = new Date(this.clock()).toISOString();
    commitUnsynced(this.db, () => {
      let newest = this.state.get('acked_stamp') ?? '';
      let rejected = 0;
      for (const result of results) {
        const command = byId.get(result.command_id);
        if (!command) continue;
        this.acknowledge.run(result.command_id);
        if (command.hlc > newest) newest = command.hlc;
        if (result.status === 'rejected') {
          this.takeBack(command, result.reason ?? 'rejected', now);
          rejected += 1;
        }
      }
      if (newest) this.state.set('acked_stamp', newest);
      if (rejected > 0) this.state.set('rejected_commands', (this.state.number('rejected_commands') ?? 0) + rejected);
    });
  }

  private takeBack(command: OutboxCommand, reason: string, now: string): void {
    for (const change of JSON.parse(command.changes) as RowChange[]) {
      if (change.op === 'insert') {
        this.db.prepare(`DELETE FROM ${change.entity} WHERE id = ? AND hlc = ?`).run(change.entity_id, change.hlc);
      }
      this.recordConflict.run(
        this.newId(),
        'rejected_command',
        change.entity,
        change.entity_id,
        JSON.stringify({ command_id: command.command_id, kind: command.kind, reason }),
        now,
      );
    }
  }
}
