/**
 * The JSON columns of the loyalty program's tables (src/db/column-codecs.ts). A customer's
 * ledger and state columns have theirs beside the tuple format they hold
 * (src/loyalty/stored-facts.ts).
 */
import { parsedJson, readableJson, type ColumnCodecs } from '../db/column-codecs.js';
import { Program, RewardDefinition } from './program.schemas.js';

export const loyaltyColumns = {
  'program_rules.body': parsedJson(Program),
  'program_history.body': parsedJson(Program),
  /** A reward this version cannot read is left out of the catalog, not a failed checkout. */
  'rewards.details': readableJson(RewardDefinition),
} satisfies ColumnCodecs;
