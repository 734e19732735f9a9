/**
 * The program's rewards as the checkout engine reads them: rows of `rewards` whose
 * `details` hold the definition as loaded. Parsed once and kept until the rewards table
 * may have changed (a load, an import, a replicated change), which the write path's
 * table version tells without a query. With them, an index from each product, group and
 * brand a condition names to its rewards, so that a bill's five items are checked against
 * the few rewards they can meet rather than against every reward of the program.
 */
import type { Db } from '../db/open.js';
import type { WritePath } from '../db/write-path.js';
import type { BillLine } from './bill.js';
import { RewardDefinition } from './program.schemas.js';

interface Catalog {
  version: string;
  rewards: RewardDefinition[];
  /** `p:`, `g:` or `b:` and an id → positions in `rewards` of the rewards a condition of which names it. */
  byItem: Map<string, number[]>;
  unconditioned: number[];
}

export class RewardsCatalog {
  private readonly all;
  private cached: Catalog | undefined;

  constructor(
    db: Db,
    private readonly writes: WritePath,
  ) {
    this.all = db.prepare<[], { details: string }>("SELECT details FROM rewards WHERE state = 1 AND details LIKE '{%\"discount\"%' ORDER BY priority, id");
  }

  /** Every reward, by priority then id. */
  rewards(): RewardDefinition[] {
    return this.catalog().rewards;
  }

  /**
   * The rewards these lines can meet — those with a condition naming one of their products,
   * groups or brands — and those without conditions, in the order of rewards(). Any reward
   * left out has conditions no line matches, so it can neither be recommended under list
   * type C nor give a discount.
   */
  meetableBy(lines: BillLine[]): RewardDefinition[] {
    const { rewards, byItem, unconditioned } = this.catalog();
    const positions = new Set(unconditioned);
    for (const line of lines) {
      for (const key of [line.product_id && `p:${line.product_id}`, line.product_group_id && `g:${line.product_group_id}`, line.brand_id && `b:${line.brand_id}`]) {
        if (key) for (const position of byItem.get(key) ?? []) positions.add(position);
      }
    }
    return [...positions].sort((a, b) => a - b).map((position) => rewards[position]!);
  }

  private catalog(): Catalog {
    const version = this.writes.tableVersion('rewards');
    if (this.cached?.version !== version) {
      const rewards = this.all.all().flatMap((row) => {
        const parsed = RewardDefinition.safeParse(JSON.parse(row.details));
        return parsed.success ? [parsed.data] : [];
      });
      this.cached = { version, rewards, ...indexByItem(rewards) };
    }
    return this.cached;
  }
}

function indexByItem(rewards: RewardDefinition[]): Pick<Catalog, 'byItem' | 'unconditioned'> {
  const byItem = new Map<string, number[]>();
  const unconditioned: number[] = [];
  rewards.forEach((reward, position) => {
    if (reward.conditions.length === 0) unconditioned.push(position);
    const keys = new Set(
      reward.conditions.flatMap((condition) => [
        ...condition.product_ids.map((id) => `p:${id}`),
        ...condition.product_group_ids.map((id) => `g:${id}`),
        ...condition.brand_ids.map((id) => `b:${id}`),
      ]),
    );
    for (const key of keys) {
      const positions = byItem.get(key);
      if (positions) positions.push(position);
      else byItem.set(key, [position]);
    }
  });
  return { byItem, unconditioned };
}
