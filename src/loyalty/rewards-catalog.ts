/**
 * The program's rewards as the checkout engine reads them: rows of `rewards` whose
 * `details` hold the definition as loaded. Parsed once and kept until a reward row changes
 * (a load, or a replicated change), which the cheap fingerprint query notices.
 */
import type { Db } from '../db/open.js';
import { RewardDefinition } from './program.schemas.js';

export class RewardsCatalog {
  private readonly fingerprint;
  private readonly all;
  private cached: { key: string; rewards: RewardDefinition[] } | undefined;

  constructor(db: Db) {
    this.fingerprint = db.prepare<[], { n: number; newest: string | null }>('SELECT count(*) AS n, max(hlc) AS newest FROM rewards');
    this.all = db.prepare<[], { details: string }>("SELECT details FROM rewards WHERE state = 1 AND details LIKE '{%\"discount\"%' ORDER BY priority, id");
  }

  rewards(): RewardDefinition[] {
    const print = this.fingerprint.get()!;
    const key = `${print.n}:${print.newest ?? ''}`;
    if (this.cached?.key !== key) {
      const rewards = this.all.all().flatMap((row) => {
        const parsed = RewardDefinition.safeParse(JSON.parse(row.details));
        return parsed.success ? [parsed.data] : [];
      });
      this.cached = { key, rewards };
    }
    return this.cached.rewards;
  }
}
