/**
 * What the hub keeps of the commands it applied: per node and generation the last applied seq
 * and the newest stamp (sync_node_progress), and each command's result (applied_commands), by
 * which a command pushed again is answered without being applied again.
 */
import type { SyncNodeProgressRow } from '../../db/tables.generated.js';
import { syncColumns } from '../column-codecs.js';
import type { Statement } from '../../db/engine.js';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/open.js';
import { keptStamp } from './future-stamps.js';
import type { CommandResult } from '../protocol/protocol.js';

type KeptResult = Omit<CommandResult, 'rows'> & { rows: string | null; node_id: string };

/** What `resultOf` answers for a command id another node's command has. */
export const ANOTHER_NODES = 'another node';

export class AppliedCommands {
  private readonly progress: Statement<[string, string], Pick<SyncNodeProgressRow, 'last_seq'>>;
  private readonly saveProgress: Statement;
  private readonly previousResult: Statement<[string], KeptResult>;
  private readonly saveResult: Statement;
  private readonly held: Statement<[string], { generations: number; stamped: number; through: string | null }>;

  constructor(
    db: Db,
    private readonly clock: Clock,
    private readonly maxSkewMs: number,
  ) {
    this.progress = db.prepare('SELECT last_seq FROM sync_node_progress WHERE node_id = ? AND generation = ?');
    this.saveProgress = db.prepare(
      `INSERT INTO sync_node_progress (node_id, generation, last_seq, last_seen_at, last_hlc) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (node_id, generation) DO UPDATE SET last_seq = excluded.last_seq, last_seen_at = excluded.last_seen_at,
         last_hlc = CASE WHEN excluded.last_hlc > coalesce(sync_node_progress.last_hlc, '') THEN excluded.last_hlc ELSE coalesce(sync_node_progress.last_hlc, '') END`,
    );
    this.held = db.prepare(
      'SELECT count(*) AS generations, count(last_hlc) AS stamped, max(last_hlc) AS through FROM sync_node_progress WHERE node_id = ?',
    );
    this.previousResult = db.prepare('SELECT command_id, node_id, seq, status, reason, rows FROM applied_commands WHERE command_id = ?');
    this.saveResult = db.prepare(
      `INSERT INTO applied_commands (command_id, node_id, generation, seq, status, reason, applied_at, rows) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  /** The last seq of the generation the hub applied; 0 for none. */
  lastSeq(nodeId: string, generation: string): number {
    return this.progress.get(nodeId, generation)?.last_seq ?? 0;
  }

  /**
   * Keeps a generation's progress: its last applied seq and its newest stamp, which never goes
   * back, brought back to the hub's clock when it runs ahead past the tolerance.
   */
  keepProgress(nodeId: string, generation: string, lastSeq: number, seenAt: string, newest: string): void {
    this.saveProgress.run(nodeId, generation, lastSeq, seenAt, newest === '' ? newest : keptStamp(newest, this.clock(), this.maxSkewMs));
  }

  /** The newest stamp of the node's commands held: '' for none, undefined when a generation's progress has no stamp. */
  heldThrough(nodeId: string): string | undefined {
    const { generations, stamped, through } = this.held.get(nodeId)!;
    if (generations === 0) return '';
    return stamped === 0 ? undefined : through!;
  }

  /**
   * The node's command's result as the hub kept it, to answer again; undefined when it applied
   * no such command; ANOTHER_NODES when the id is another node's command's, whose result is not
   * the asking node's to read.
   */
  resultOf(commandId: string, nodeId: string): CommandResult | typeof ANOTHER_NODES | undefined {
    const kept = this.previousResult.get(commandId);
    if (!kept) return undefined;
    const { rows, node_id: owner, ...result } = kept;
    if (owner !== nodeId) return ANOTHER_NODES;
    return rows === null ? result : { ...result, rows: syncColumns['applied_commands.rows'](rows) };
  }

  keepResult(nodeId: string, generation: string, result: CommandResult, appliedAt: string): void {
    const rows = result.rows ? JSON.stringify(result.rows) : null;
    this.saveResult.run(result.command_id, nodeId, generation, result.seq, result.status, result.reason, appliedAt, rows);
  }
}
