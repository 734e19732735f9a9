/**
 * The day an operation counts on in its node's limits (src/sync/hub/node-limits.ts), in the
 * chain's time zone. A node may use the allowance of each day from its last contact with the
 * hub to the hub's today, once each: an operation counts on its as-of day when that day is
 * within them, on the last contact day when it claims one before, and on today when it claims
 * one after. The as-of time is the store's to say; the hub's clock is not.
 *
 * The last contact is the node's last report that it has pushed everything (its pull's
 * `pushed_through`, kept with the hub's time in `sync_node_clocks.reported_at`,
 * src/sync/hub/node-clocks.ts). A store's round pushes all it had pending before it pulls
 * (src/sync/store/agent.ts), so a backlog of days, however many pushes it takes, is counted
 * on its own days from the contact before it, and the next contact moves the first day on. A
 * node that never reported counts on today. The totals of the days from each node's last
 * contact on are kept, so a day is never a fresh allowance twice; older ones are forgotten.
 * Why: src/decisions/0103-per-node-totals.md.
 */
import type { Statement } from '../../db/engine.js';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/open.js';
import { formatTimestamp } from '../../core/time.js';

/** The day an operation's totals count on, and the day it was made on when that is another. */
export interface CountedDay {
  day: string;
  asOfDay: string;
  /** How a claimed day was moved: before the last contact, onto it; after today, onto today. */
  moved?: 'last contact' | 'today';
}

/** The first day a node may still count on. */
export interface FirstDay {
  nodeId: string;
  day: string;
}

export class LimitDays {
  private readonly reportedAt: Statement<[string], string | undefined>;
  private readonly reports: Statement<[], { node_id: string; reported_at: string }>;
  /** The day of each node's last contact, kept with the report it was read from. */
  private readonly contactDays = new Map<string, { reportedAt: string; day: string }>();
  /** The last day computed of an operation's as-of time and of the hub's clock, each for its minute. */
  private readonly lastDays: Record<'asOf' | 'today', { minute: number; day: string } | undefined> = { asOf: undefined, today: undefined };

  constructor(
    db: Db,
    private readonly timeZone: string,
    private readonly clock: Clock,
  ) {
    this.reportedAt = db.prepare<[string], string | undefined>('SELECT reported_at FROM sync_node_clocks WHERE node_id = ?').pluck();
    this.reports = db.prepare('SELECT node_id, reported_at FROM sync_node_clocks');
  }

  /** The day an operation of the node made at `asOf` counts on. */
  of(nodeId: string, asOf: number): CountedDay {
    const asOfDay = this.dayOf(asOf, 'asOf');
    const today = this.today();
    const first = this.firstDayOf(nodeId, this.reportedAt.get(nodeId), today);
    if (asOfDay < first) return { day: first, asOfDay, moved: 'last contact' };
    if (asOfDay > today) return { day: today, asOfDay, moved: 'today' };
    return { day: asOfDay, asOfDay };
  }

  /** Each node's first day it may still count on; a node not listed counts on `today` alone. */
  firstDays(): { nodes: FirstDay[]; today: string } {
    const today = this.today();
    return {
      nodes: this.reports.all().map((report) => ({ nodeId: report.node_id, day: this.firstDayOf(report.node_id, report.reported_at, today) })),
      today,
    };
  }

  private today(): string {
    return this.dayOf(this.clock(), 'today');
  }

  /** The day of the node's last contact, never after today (a hub's clock set back); today for none. */
  private firstDayOf(nodeId: string, reportedAt: string | undefined, today: string): string {
    if (reportedAt === undefined) return today;
    let kept = this.contactDays.get(nodeId);
    if (kept?.reportedAt !== reportedAt) {
      kept = { reportedAt, day: formatTimestamp(reportedAt, this.timeZone).slice(0, 10) };
      this.contactDays.set(nodeId, kept);
    }
    return kept.day < today ? kept.day : today;
  }

  /**
   * The day of an instant in the chain's time zone, kept for its minute: a push's operations
   * mostly share a minute, and a day always begins on one.
   */
  private dayOf(instant: number, of: 'asOf' | 'today'): string {
    const minute = Math.floor(instant / 60_000);
    const kept = this.lastDays[of];
    if (kept?.minute === minute) return kept.day;
    const day = formatTimestamp(instant, this.timeZone).slice(0, 10);
    this.lastDays[of] = { minute, day };
    return day;
  }
}
