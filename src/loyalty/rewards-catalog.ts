/**
 * The program's rewards as the checkout engine reads them: rows of `rewards` whose
 * `details` hold the definition as loaded. Parsed once and kept until the rewards table
 * may have changed (a load, an import, a replicated change), which the write path's
 * table version tells without a query.
 */
import type { Db } from '../db/open.js';
import type { WritePath } from '../db/write-path.js';
import { RewardDefinition } from './program.schemas.js';

export class RewardsCatalog {
  private readonly all;
  private cached: { version: string; rewards: RewardDefinition[] } | undefined;

  constructor(
    db: Db,
    private readonly writes: WritePath,
  ) {
    this.all = db.prepare<[], { details: string }>("SELECT details FROM rewards WHERE state = 1 AND details LIKE '{%\"discount\"%' ORDER BY priority, id");
  }

  rewards(): RewardDefinition[] {
    const version = this.writes.tableVersion('rewards');
    if (this.cached?.version !== version) {
      const rewards = this.all.all().flatMap((row) => {
        const parsed = RewardDefinition.safeParse(JSON.parse(row.details));
        return parsed.success ? [parsed.data] : [];
      });
      this.cached = { version, rewards };
    }
    return this.cached.rewards;
  }
}
