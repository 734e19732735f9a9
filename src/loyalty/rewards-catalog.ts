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

/** Product, group and brand ids → positions in the catalog's rewards of those a condition of which names it. */
interface ItemIndex {
  byProduct: Map<string, number[]>;
  byGroup: Map<string, number[]>;
  byBrand: Map<string, number[]>;
  unconditioned: number[];
}

interface Catalog {
  version: string;
  rewards: RewardDefinition[];
  all: ItemIndex;
  /** accept-payment applies only automated rewards on its own. */
  automated: ItemIndex;
}

export class RewardsCatalog {
  private readonly rows;
  private cached: Catalog | undefined;

  constructor(
    db: Db,
    private readonly writes: WritePath,
  ) {
    this.rows = db.prepare<[], { details: string }>("SELECT details FROM rewards WHERE state = 1 AND details LIKE '{%\"discount\"%' ORDER BY priority, id");
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
    const { rewards, all } = this.catalog();
    return meetable(rewards, all, lines);
  }

  /** The automated ones among meetableBy(lines), in the same order. */
  automatedMeetableBy(lines: BillLine[]): RewardDefinition[] {
    const { rewards, automated } = this.catalog();
    return meetable(rewards, automated, lines);
  }

  private catalog(): Catalog {
    const version = this.writes.tableVersion('rewards');
    if (this.cached?.version !== version) {
      const rewards = this.rows.all().flatMap((row) => {
        const parsed = RewardDefinition.safeParse(JSON.parse(row.details));
        return parsed.success ? [parsed.data] : [];
      });
      this.cached = { version, rewards, all: indexByItem(rewards, () => true), automated: indexByItem(rewards, (reward) => reward.is_automated) };
    }
    return this.cached;
  }
}

function meetable(rewards: RewardDefinition[], index: ItemIndex, lines: BillLine[]): RewardDefinition[] {
  const positions = [...index.unconditioned];
  for (const line of lines) {
    if (line.product_id) addAll(positions, index.byProduct.get(line.product_id));
    if (line.product_group_id) addAll(positions, index.byGroup.get(line.product_group_id));
    if (line.brand_id) addAll(positions, index.byBrand.get(line.brand_id));
  }
  // A typed array sorts numbers without a comparator; a position met twice is taken once.
  const sorted = Int32Array.from(positions).sort();
  const found: RewardDefinition[] = [];
  for (let i = 0; i < sorted.length; i += 1) {
    if (i === 0 || sorted[i - 1] !== sorted[i]) found.push(rewards[sorted[i]!]!);
  }
  return found;
}

function addAll(positions: number[], more: number[] | undefined): void {
  if (more) for (const position of more) positions.push(position);
}

function indexByItem(rewards: RewardDefinition[], included: (reward: RewardDefinition) => boolean): ItemIndex {
  const index: ItemIndex = { byProduct: new Map(), byGroup: new Map(), byBrand: new Map(), unconditioned: [] };
  rewards.forEach((reward, position) => {
    if (!included(reward)) return;
    if (reward.conditions.length === 0) index.unconditioned.push(position);
    for (const condition of reward.conditions) {
      for (const id of condition.product_ids) addPosition(index.byProduct, id, position);
      for (const id of condition.product_group_ids) addPosition(index.byGroup, id, position);
      for (const id of condition.brand_ids) addPosition(index.byBrand, id, position);
    }
  });
  return index;
}

/** Positions are added in increasing order, so a reward naming an id twice is listed once. */
function addPosition(index: Map<string, number[]>, id: string, position: number): void {
  const positions = index.get(id);
  if (!positions) index.set(id, [position]);
  else if (positions.at(-1) !== position) positions.push(position);
}
