/**
 * A store's recent rounds and since when its hub has answered or not, kept in `meta` beside
 * the rest of its sync bookkeeping: the status page and `/health` of the daemon read them, and
 * so does a round run from the CLI beside it.
 */
import { z } from 'zod';
import type { SyncState } from '../sync-state.js';

/** Rounds kept: enough to see a pattern of failures on the status page, small enough for one meta row. */
export const KEPT_ROUNDS = 20;
/** A hub's error answer can be long; the start of it says what went wrong. */
const KEPT_ERROR_CHARS = 300;

export const RoundRecord = z.object({
  started_at: z.string(),
  ms: z.number().int(),
  ok: z.boolean(),
  pushed: z.number().int(),
  rejected: z.number().int(),
  pulled: z.number().int(),
  error: z.string().nullable(),
  /** The HTTP status the hub refused the round with; null when it succeeded or no answer came (rounds kept before it was recorded read null). */
  hub_status: z.number().int().nullable().default(null),
});
export type RoundRecord = z.infer<typeof RoundRecord>;

const RoundRecords = z.array(RoundRecord);

/** Statuses by which the hub refuses the node itself, not one of its requests: its name or secret. */
export const REFUSED_NODE = new Set([401, 403]);

/** The rounds kept, newest first; none when the record is missing or unreadable. */
export function recentRounds(state: SyncState): RoundRecord[] {
  const text = state.get('recent_rounds');
  if (text === undefined) return [];
  try {
    const parsed = RoundRecords.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/**
 * Adds a finished round, and moves the reachability stamp when the hub's answer changed:
 * `reachable_since` is the first success after a failure, `unreachable_since` the first
 * failure after a success.
 */
export function recordRound(state: SyncState, round: RoundRecord): void {
  const kept = { ...round, error: round.error?.slice(0, KEPT_ERROR_CHARS) ?? null };
  state.set('recent_rounds', JSON.stringify([kept, ...recentRounds(state)].slice(0, KEPT_ROUNDS)));
  const since = new Date(Date.parse(round.started_at) + round.ms).toISOString();
  if (round.ok) {
    if (state.get('reachable_since') === undefined) state.set('reachable_since', since);
    state.clear('unreachable_since');
  } else {
    if (state.get('unreachable_since') === undefined) state.set('unreachable_since', since);
    state.clear('reachable_since');
  }
}
