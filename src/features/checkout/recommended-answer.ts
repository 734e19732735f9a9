/**
 * recommended-best-rewards' answer as JSON pieces (src/http/json-text.ts). A reward listed
 * with a given max_count is written the same on every call, so each is written out once,
 * as the bytes of `,{…}`, and kept by its place in the catalog for as long as the catalog
 * holds that definition there; a call lists those pieces, and the answer is one copy of
 * them. On the checkout bench (~75 rewards listed a bill) building the objects and
 * JSON.stringify took ~50 µs a call, more than finding and pricing the rewards.
 */
import { JsonText } from '../../http/json-text.js';
import type { RewardDefinition } from '../../loyalty/program.schemas.js';
import type { RecommendedReward } from '../../loyalty/recommended-rewards.js';
import type { RecommendedRewardListing } from './checkout.schemas.js';

const OPEN = Buffer.from('{"recommended_best_rewards":[');
/** Pieces are kept for the counts a bill usually allows; a larger count is written each time. */
const KEPT_COUNTS = 16;

/** A reward's pieces, by max_count, at its place in the catalog. */
interface Kept {
  reward: RewardDefinition;
  byCount: Buffer[];
}

export class RecommendedAnswers {
  /** By the rewards' places in the catalog; a place another definition took is written again. */
  private readonly kept: (Kept | undefined)[] = [];

  answer(recommended: RecommendedReward[]): JsonText {
    const pieces: Uint8Array[] = [OPEN];
    recommended.forEach(({ reward, position, maxCount }, n) => {
      const piece = this.pieceOf(reward, position, maxCount);
      pieces.push(n === 0 ? piece.subarray(1) : piece);
    });
    pieces.push(Buffer.from(`],"total_items":${recommended.length}}`));
    return new JsonText(pieces);
  }

  private pieceOf(reward: RewardDefinition, position: number, maxCount: number): Buffer {
    if (maxCount >= KEPT_COUNTS) return listing(reward, maxCount);
    let kept = this.kept[position];
    if (kept?.reward !== reward) this.kept[position] = kept = { reward, byCount: [] };
    return (kept.byCount[maxCount] ??= listing(reward, maxCount));
  }
}

/** A reward as the answer lists it, after a comma. */
function listing(reward: RewardDefinition, maxCount: number): Buffer {
  const listed: RecommendedRewardListing = {
    code: reward.code,
    name: reward.name,
    reward_priority: reward.priority,
    max_count: maxCount,
    description: reward.description,
    reward_properties: { image: reward.image, valid_from: reward.time_from ?? '00:00:00', valid_to: reward.time_to ?? '23:59:59' },
  };
  return Buffer.from(`,${JSON.stringify(listed)}`);
}
