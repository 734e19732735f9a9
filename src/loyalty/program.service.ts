/**
 * `loyaltyd program load FILE`: validates a program (src/loyalty/program.schemas.ts) and
 * writes it in one transaction — the program row and one `rewards` row per reward, whose
 * `details` keep the definition as written so that every node parses it the same way.
 * Rewards are matched by id, so loading a changed program updates them in place.
 */
import type { Db } from '../db/open.js';
import type { WritePath, WriteTransaction } from '../db/write-path.js';
import { fromZodIssues } from '../core/validation-errors.js';
import { PROGRAM_ROW_ID, type ProgramRepo } from './program.repo.js';
import { Program, type RewardDefinition } from './program.schemas.js';
import type { ProgramRulesRow, RewardsRow } from '../db/tables.generated.js';

export class ProgramService {
  private readonly rewardExists;
  private readonly programExists;

  constructor(
    db: Db,
    private readonly repo: ProgramRepo,
    private readonly writes: WritePath,
  ) {
    this.rewardExists = db.prepare<[string], Pick<RewardsRow, 'id'>>('SELECT id FROM rewards WHERE id = ?');
    this.programExists = db.prepare<[string], Pick<ProgramRulesRow, 'id'>>('SELECT id FROM program_rules WHERE id = ?');
  }

  load(raw: unknown): { rewards: number; earning_rules: number } {
    const parsed = Program.safeParse(raw);
    if (!parsed.success) throw fromZodIssues(parsed.error.issues, raw, '');
    const { rewards: rawRewards, ...rest } = raw as { rewards?: unknown[] };
    // Master data: loaded on the hub, it reaches stores through the change feed; it is never
    // a store's command.
    this.writes.write(null, (tx) => {
      this.repo.save(tx, rest, this.programExists.get(PROGRAM_ROW_ID) !== undefined);
      parsed.data.rewards.forEach((reward, index) => this.saveReward(tx, reward, rawRewards?.[index]));
    });
    return { rewards: parsed.data.rewards.length, earning_rules: parsed.data.earning.length };
  }

  /** One reward of an import file (`loyaltyd import rewards`), validated and matched by id as in a program. */
  importReward(reward: RewardDefinition, raw: unknown): void {
    this.writes.write(null, (tx) => this.saveReward(tx, reward, raw));
  }

  private saveReward(tx: WriteTransaction, reward: RewardDefinition, raw: unknown): void {
    const row = {
      code: reward.code,
      name: reward.name,
      priority: reward.priority,
      points_cost_milli: reward.points_cost,
      is_automated: reward.is_automated ? 1 : 0,
      details: JSON.stringify(raw),
      state: 1,
    };
    if (this.rewardExists.get(reward.id)) tx.update('rewards', reward.id, row);
    else tx.insert('rewards', { id: reward.id, ...row });
  }
}
