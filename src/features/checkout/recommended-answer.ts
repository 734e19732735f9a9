/**
 * recommended-best-rewards' answer as JSON bytes (src/http/json-text.ts). A reward's fields
 * but max_count are the same on every call, so each definition is written out once and kept
 * while the catalog keeps the definition; a call copies those pieces around its counts. On
 * the checkout bench (~75 rewards listed a bill) building the objects and JSON.stringify
 * took ~50 µs a call, more than finding and pricing the rewards.
 */
import { JsonWriter, type JsonText } from '../../http/json-text.js';
import type { RewardDefinition } from '../../loyalty/program.schemas.js';
import type { RecommendedReward } from '../../loyalty/recommended-rewards.js';

/** A reward's JSON before and after its max_count. */
type Pieces = [Buffer, Buffer];

const OPEN = Buffer.from('{"recommended_best_rewards":[');
const COMMA = Buffer.from(',');
const TOTAL = Buffer.from('],"total_items":');
const CLOSE = Buffer.from('}');

export class RecommendedAnswers {
  private readonly pieces = new WeakMap<RewardDefinition, Pieces>();

  answer(recommended: RecommendedReward[]): JsonText {
    const json = new JsonWriter().piece(OPEN);
    recommended.forEach(({ reward, maxCount }, n) => {
      const [head, tail] = this.piecesOf(reward);
      if (n > 0) json.piece(COMMA);
      json.piece(head).integer(maxCount).piece(tail);
    });
    return json.piece(TOTAL).integer(recommended.length).piece(CLOSE).done();
  }

  private piecesOf(reward: RewardDefinition): Pieces {
    let pieces = this.pieces.get(reward);
    if (!pieces) {
      const properties = { image: reward.image, valid_from: reward.time_from ?? '00:00:00', valid_to: reward.time_to ?? '23:59:59' };
      pieces = [
        Buffer.from(`{"code":${JSON.stringify(reward.code)},"name":${JSON.stringify(reward.name)},"reward_priority":${reward.priority},"max_count":`),
        Buffer.from(`,"description":${JSON.stringify(reward.description)},"reward_properties":${JSON.stringify(properties)}}`),
      ];
      this.pieces.set(reward, pieces);
    }
    return pieces;
  }
}
