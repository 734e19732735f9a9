/**
 * How far the hub's customer states are settled (src/loyalty/state-settling.ts): where their
 * horizon stands, which store holds it back, and how many states carry a tail the horizon
 * has not passed. A store silent within the offline age holds the horizon; meanwhile every
 * state keeps the facts since in its tail, and the hub publishes a card used at every till
 * whole, tail and all, with each of its bills. `loyaltyd sync status`, /health (without the
 * store's name), the hub's status page and /metrics show it, so that head office sees the
 * store before the states grow.
 */
import type { Statement } from '../../db/engine.js';
import { msOfStamp } from '../../core/hlc.js';
import type { Db } from '../../db/open.js';
import { Horizon } from '../../loyalty/horizon.js';

export interface SettlingStatus {
  /** The horizon's moment: the states hold every fact stamped before it in their lots. */
  horizon_at: string;
  horizon_age_seconds: number;
  /** The store whose last report is the horizon; null when the offline age's floor is. */
  reported_by: string | null;
  /** That store, while a state waits on it; null when none does. */
  held_by: string | null;
  /** Customer states with a tail the horizon has not passed. */
  unsettled_states: number;
  /** Age of the oldest fact in those tails. */
  oldest_unsettled_age_seconds: number | null;
}

export class SettlingStatusReader {
  private readonly horizon: Horizon;
  private readonly name: Statement<[string], string>;
  private readonly tails: Statement<[], { states: number; oldest: string | null; newest: string | null }>;

  constructor(db: Db, offlineAgeMs: number) {
    this.horizon = new Horizon(db, offlineAgeMs);
    this.name = db.prepare<[string], string>('SELECT name FROM nodes WHERE id = ?').pluck();
    this.tails = db.prepare('SELECT count(*) AS states, min(first_stamp) AS oldest, max(first_stamp) AS newest FROM customer_state_tails');
  }

  read(now: number): SettlingStatus {
    const { stamp, heldBy } = this.horizon.at(now);
    const horizonMs = msOfStamp(stamp);
    const tails = this.tails.get()!;
    const ageOf = (ms: number) => Math.max(0, Math.round((now - ms) / 1000));
    const reporter = heldBy === undefined ? null : (this.name.get(heldBy) ?? heldBy);
    return {
      horizon_at: new Date(horizonMs).toISOString(),
      horizon_age_seconds: ageOf(horizonMs),
      reported_by: reporter,
      held_by: waitsOnHorizon(tails.newest, stamp) ? reporter : null,
      unsettled_states: tails.states,
      oldest_unsettled_age_seconds: tails.oldest === null ? null : ageOf(msOfStamp(tails.oldest)),
    };
  }
}

/**
 * Whether a state waits on the horizon: its tail starts at or after it, so no settling moves
 * any of it until the horizon's store reports again. Every store's last report is somewhere,
 * and the oldest is the horizon; a tail that starts before it is settled at the next run, and
 * the store holds nothing back.
 */
function waitsOnHorizon(newestTailStart: string | null, horizon: string): boolean {
  return newestTailStart !== null && newestTailStart >= horizon;
}
