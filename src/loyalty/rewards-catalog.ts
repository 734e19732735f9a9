/**
 * The program's rewards as the checkout engine reads them: rows of `rewards` whose
 * `details` hold the definition as loaded. Parsed once and kept until the rewards table
 * may have changed (a load, an import, a replicated change), which the write path's
 * table version tells without a query. With them, matchers (src/loyalty/reward-matcher.ts)
 * that check a bill's five items against the few rewards they can meet rather than against
 * every reward of the program, and the terms recommendations weigh (recommended-rewards.ts).
 */
import type { Db } from '../db/open.js';
import type { WritePath } from '../db/write-path.js';
import type { Bill, BillLine } from './bill.js';
import { loyaltyColumns } from './column-codecs.js';
import type { RewardDefinition } from './program.schemas.js';
import { rankRewards, recommendRewards, type RankedRewards, type RecommendedReward, type RewardListType } from './recommended-rewards.js';
import { RewardMatcher, type BillRewards } from './reward-matcher.js';
import type { RewardsRow } from '../db/tables.generated.js';

interface Catalog {
  version: string;
  rewards: RewardDefinition[];
  all: RankedRewards;
  /** accept-payment applies only automated rewards on its own. */
  automated: RewardMatcher;
}

export class RewardsCatalog {
  private readonly rows;
  private cached: Catalog | undefined;

  constructor(
    db: Db,
    private readonly writes: WritePath,
  ) {
    this.rows = db.prepare<[], Pick<RewardsRow, 'details'>>(
      'SELECT details FROM rewards WHERE state = 1 AND details LIKE \'{%"discount"%\' ORDER BY priority, id',
    );
  }

  /** Every reward, by priority then id. */
  rewards(): RewardDefinition[] {
    return this.catalog().rewards;
  }

  /**
   * The automated rewards these lines can meet — those with a condition an item in the
   * program and not taken back meets by its product, group or brand — and those without
   * conditions, in the order of rewards(). Any automated reward left out gives no discount.
   */
  automatedMeetableBy(lines: BillLine[]): RewardDefinition[] {
    return this.catalog().automated.meetable(lines);
  }

  /** What these lines do for any reward of the catalog, until the next evaluate or recommend. */
  evaluate(lines: BillLine[]): BillRewards {
    return this.catalog().all.matcher.evaluate(lines);
  }

  /** recommended-best-rewards' list for this bill and points balance. */
  recommend(bill: Bill, balanceMilli: number, type: RewardListType): RecommendedReward[] {
    return recommendRewards(this.catalog().all, bill, balanceMilli, type);
  }

  private catalog(): Catalog {
    const version = this.writes.versions.tableVersion('rewards');
    if (this.cached?.version !== version) {
      const rewards = this.rows.all().flatMap((row) => loyaltyColumns['rewards.details'](row.details) ?? []);
      this.cached = {
        version,
        rewards,
        all: rankRewards(rewards),
        automated: new RewardMatcher(rewards, (reward) => reward.is_automated),
      };
    }
    return this.cached;
  }
}
