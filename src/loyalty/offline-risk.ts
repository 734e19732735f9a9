/**
 * Offline risk (DESIGN §5), like a card terminal's floor limit: a store redeems points on
 * balances head office may not have seen yet, so it keeps a margin below the balance it
 * knows, caps what it redeems per customer per day (the store's day, in `time_zone`), and stops redeeming altogether once it
 * has not synced for longer than the configured age. Credit, a money balance, is spent up
 * to the balance the store knows, and not at all past that age. Earning is never limited.
 * A hub, and a store with no hub, redeem up to the balance. A store's redemption the hub
 * runs again is a fact of its till: judged by the store when it was made, it is taken even
 * past the balance the hub knows, and a debt is listed (DESIGN §5).
 */
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { badRequest, invalidParam } from '../core/errors.js';
import type { PointsRepo } from './points.repo.js';
import { fromMinor } from '../core/money.js';
import { formatTimestamp, parseTimestamp } from '../core/time.js';

/** What RedemptionPolicy is built from. */
export interface RedemptionPolicyOptions {
  config: Pick<Config, 'mode' | 'hub' | 'offline'>;
  points: PointsRepo;
  /** When this node last synced with the hub (an ISO timestamp), or undefined for never. */
  lastSyncAt: () => string | undefined;
  nodeId: string;
  clock: Clock;
  timeZone: string;
  /** Whether a store's operation is being run again at the hub (src/core/operations.ts). */
  replaying: () => boolean;
}

export class RedemptionPolicy {
  private readonly config: Pick<Config, 'mode' | 'hub' | 'offline'>;
  private readonly points: PointsRepo;
  private readonly lastSyncAt: () => string | undefined;
  private readonly nodeId: string;
  private readonly clock: Clock;
  private readonly timeZone: string;
  private readonly replaying: () => boolean;

  constructor(options: RedemptionPolicyOptions) {
    const { config, points, lastSyncAt, nodeId, clock, timeZone, replaying } = options;
    this.config = config;
    this.points = points;
    this.lastSyncAt = lastSyncAt;
    this.nodeId = nodeId;
    this.clock = clock;
    this.timeZone = timeZone;
    this.replaying = replaying;
  }

  /** Whether the write being made is a store's fact the hub runs again: judged at the till, not here. */
  judgedAtTill(): boolean {
    return this.replaying();
  }

  /** Throws unless `milli` points may be redeemed from a known balance of `balanceMilli`. */
  check(customerId: string, milli: number, balanceMilli: number, field = 'amount'): void {
    if (this.replaying()) return;
    const guarded = this.guarded();
    const marginMilli = guarded ? this.config.offline.redemption_margin_points * 1000 : 0;
    if (milli > balanceMilli - marginMilli) {
      throw badRequest([
        {
          name: field,
          reason: 'not_enough_points_for_payment',
          value: String(milli / 1000),
          message: `The customer has ${balanceMilli / 1000} points${marginMilli ? `, of which ${marginMilli / 1000} are held back while offline` : ''}`,
        },
      ]);
    }
    if (!guarded) return;
    this.checkRecentSync(field, milli / 1000, 'points can be earned but not redeemed');
    const cap = this.config.offline.daily_redemption_cap_points;
    if (cap !== undefined) {
      const now = this.clock();
      const localDay = formatTimestamp(now, this.timeZone).slice(0, 10);
      const startOfDay = new Date(parseTimestamp(`${localDay} 00:00:00`, this.timeZone) ?? now).toISOString();
      const todayMilli = this.points.redeemedHereSince(customerId, startOfDay, this.nodeId);
      if (todayMilli + milli > cap * 1000) {
        throw invalidParam(field, 'offline_redemption_limit', milli / 1000, `At most ${cap} points a day per customer are redeemed here`);
      }
    }
  }

  /**
   * Throws unless `amountMinor` of credit may be spent from a known balance of
   * `balanceMinor`. No reason of the catalogue names credit, so a shortfall is
   * `not_allowed_value`; the offline age applies as to points (the margin and daily cap are
   * counted in points and do not).
   */
  checkCredit(amountMinor: number, balanceMinor: number, field: string): void {
    if (this.replaying()) return;
    if (amountMinor > balanceMinor) {
      throw invalidParam(field, 'not_allowed_value', fromMinor(amountMinor), `The customer has ${fromMinor(Math.max(0, balanceMinor))} in credit`);
    }
    if (this.guarded()) this.checkRecentSync(field, fromMinor(amountMinor), 'credit can be earned but not spent');
  }

  /** A store with a hub limits what it redeems; a hub, and a store with no hub, do not. */
  private guarded(): boolean {
    return this.config.mode === 'store' && this.config.hub.url !== undefined;
  }

  private checkRecentSync(field: string, value: number, consequence: string): void {
    const lastSync = this.lastSyncAt();
    const maxAgeMs = this.config.offline.max_age_hours * 3_600_000;
    if (!lastSync || this.clock() - Date.parse(lastSync) > maxAgeMs) {
      throw invalidParam(
        field,
        'offline_redemption_limit',
        value,
        `No sync with head office for over ${this.config.offline.max_age_hours} h; ${consequence}`,
      );
    }
  }
}
