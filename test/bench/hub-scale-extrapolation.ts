/**
 * From the two sizes `npm run bench hub-scale` measured, each figure's growth, carried to
 * 500 and 5,000 stores over a month, a year and five years, and the month each limit is passed.
 * Each growth is drawn through the two measured points, never falling (a slope under zero, the
 * machine's noise, counts as flat), against what the work grows with:
 *
 * - bytes: the feed's and the command results' per bill while a bill is in the feed
 *   (`sync.feed_retention_days`, 7), the other facts' per bill for ever; customers, cards and
 *   states per store, as the chain's customers grow with its stores;
 * - backup and restore: straight, by the file's bytes;
 * - a customer's reads: straight, by the bills a customer holds, which grow with the months,
 *   not with the stores — they read or sort that customer's rows;
 * - a store's day, the unfiltered list and the catch-up's time per command: by the logarithm of
 *   the chain's bills — the day is read by an index of the store and the time, which reaches its
 *   span alone, the list no more than paging reaches (src/decisions/0008), an apply inserts
 *   into B-trees. The day's own bills grow tenfold between the two sizes (a tenth of a day, then
 *   a day) and stay at a day's after, so its line is steeper than the history makes it. Neither
 *   model sees the step when the indexes outgrow the machine's memory and each insert waits on
 *   the disk: past that the figures are a floor;
 * - the chain's writes at their peak: twice the mean of 12 trading hours;
 * - bootstrap: by the customers (a store receives the chain's customers and states, not its history).
 */
import { line } from './report.js';
import type { ChainScale } from './hub-scale-chain.js';
import type { ReadName, ReadTiming } from './hub-scale-reads.js';

export interface SizeFigures {
  scale: ChainScale;
  bills: number;
  /** Rows the bulk writing added, by table. */
  rows: Record<string, number>;
  writeMs: number;
  bytes: number;
  shares: Record<string, number>;
  backupMs: number;
  restoreMs: number;
  hubStartMs: number;
  reads: Record<ReadName, ReadTiming>;
  bootstrapMs: number;
  bootstrapRows: number;
  restartMs: number;
  catchUp: number;
  catchUpMs: number;
}

const DAYS_A_MONTH = 30.4;
const FEED_DAYS = 7;
/** The limits a chain meets: past each, the hub no longer serves it as one machine should. */
const LIMITS = {
  file: 2 * 1024 ** 4,
  backupMs: 3_600_000,
  restoreMs: 3_600_000,
  /** `sync.history_timeout_ms`: a store's history read past it answers from local data. */
  readP99Ms: 1_000,
  /** The catch-up's apply rate at least this many times the chain's peak writes. */
  applyHeadroom: 2,
  bootstrapMs: 3_600_000,
};

interface Target {
  stores: number;
  months: number;
}

/** A line through two points, its slope floored at zero. */
function fit(x1: number, y1: number, x2: number, y2: number): (x: number) => number {
  const slope = Math.max(0, (y2 - y1) / (x2 - x1));
  return (x) => y2 + slope * (x - x2);
}

/** A line through two points against the logarithm of x, its slope floored at zero. */
function logFit(x1: number, y1: number, x2: number, y2: number): (x: number) => number {
  const line = fit(Math.log(x1), y1, Math.log(x2), y2);
  return (x) => line(Math.log(x));
}

export function extrapolate(small: SizeFigures, large: SizeFigures): void {
  const { stores, billsPerDay, customers } = large.scale;
  const perBill = (group: string) => Math.max(0, ((large.shares[group] ?? 0) - (small.shares[group] ?? 0)) / (large.bills - small.bills));
  const feedPerBill = perBill('feed (changes)');
  const appliedPerBill = perBill('applied commands');
  const factsPerBill = ['purchases', 'purchase items', 'point and credit records'].reduce((sum, group) => sum + perBill(group), 0);
  const perStore = (large.shares['customers, states and the rest'] ?? 0) / stores;
  const customersPerStore = customers / stores;
  const backup = fit(small.bytes, small.backupMs, large.bytes, large.backupMs);
  const restore = fit(small.bytes, small.restoreMs, large.bytes, large.restoreMs);
  const perCustomer = (size: SizeFigures) => size.bills / size.scale.customers;
  const readFit = (name: ReadName, x: (size: SizeFigures) => number, by = fit) =>
    by(x(small), small.reads[name].p99, x(large), large.reads[name].p99);
  const reads: [ReadName, (x: { bills: number; perCustomer: number }) => number][] = [
    ['purchases of a customer', (t) => readFit('purchases of a customer', perCustomer)(t.perCustomer)],
    ['purchases of a store for a day', (t) => readFit('purchases of a store for a day', (size) => size.bills, logFit)(t.bills)],
    ['points overview of a customer', (t) => readFit('points overview of a customer', perCustomer)(t.perCustomer)],
    ['purchase list, unfiltered', (t) => readFit('purchase list, unfiltered', (size) => size.bills, logFit)(t.bills)],
  ];
  const commandMs = logFit(small.bills, small.catchUpMs / small.catchUp, large.bills, large.catchUpMs / large.catchUp);
  const bootstrapPerCustomer = large.bootstrapMs / customers;

  const at = ({ stores: n, months }: Target) => {
    const bills = n * billsPerDay * DAYS_A_MONTH * months;
    const kept = (days: number) => Math.min(bills, n * billsPerDay * days);
    const bytes = perStore * n + factsPerBill * bills + feedPerBill * kept(FEED_DAYS) + appliedPerBill * kept(FEED_DAYS);
    const peakWrites = ((n * billsPerDay) / (12 * 3600)) * 2;
    return {
      bills,
      bytes,
      backupMs: backup(bytes),
      restoreMs: restore(bytes),
      p99: reads.map(([name, p99]) => [name, p99({ bills, perCustomer: bills / (n * customersPerStore) })] as const),
      applyRate: 1000 / commandMs(bills),
      peakWrites,
      bootstrapMs: bootstrapPerCustomer * n * customersPerStore,
    };
  };

  line(
    'extrapolation: bytes a bill, facts / feed / results (these two 7 days)',
    `${factsPerBill.toFixed(0)} / ${feedPerBill.toFixed(0)} / ${appliedPerBill.toFixed(0)} B`,
  );
  line(
    'extrapolation: customers, cards, states and the rest a store',
    `${(perStore / 1024 / 1024).toFixed(1)} MB (${customersPerStore.toLocaleString('en')} customers a store)`,
  );
  line('extrapolation: columns', 'bills | file | backup | restore | p99 customer / store-day / overview / list | apply vs peak writes | bootstrap');
  const targets: Target[] = [500, 5_000].flatMap((n) => [1, 12, 60].map((months) => ({ stores: n, months })));
  for (const target of targets) {
    const figures = at(target);
    line(
      `extrapolation: ${target.stores.toLocaleString('en')} stores, ${target.months} month${target.months > 1 ? 's' : ''}`,
      [
        `${(figures.bills / 1e6).toFixed(0)}M`,
        gigabytes(figures.bytes),
        minutes(figures.backupMs),
        minutes(figures.restoreMs),
        figures.p99.map(([, ms]) => ms.toFixed(0)).join(' / ') + ' ms',
        `${figures.applyRate.toFixed(0)} /s vs ${figures.peakWrites.toFixed(0)} /s`,
        minutes(figures.bootstrapMs),
      ].join(' | '),
    );
  }
  type Limit = [string, (figures: ReturnType<typeof at>) => boolean];
  const limits: Limit[] = [
    ['file past 2 TB', (figures) => figures.bytes > LIMITS.file],
    ['backup past 1 h', (figures) => figures.backupMs > LIMITS.backupMs],
    ['restore past 1 h', (figures) => figures.restoreMs > LIMITS.restoreMs],
    ...reads.map(([name], index): Limit => [`${name} p99 past 1 s`, (figures) => figures.p99[index]![1] > LIMITS.readP99Ms]),
    ['apply rate under 2× the peak writes', (figures) => figures.applyRate < LIMITS.applyHeadroom * figures.peakWrites],
    ['bootstrap past 1 h', (figures) => figures.bootstrapMs > LIMITS.bootstrapMs],
  ];
  for (const n of [500, 5_000]) {
    const months = limits
      .map(([name, passed]) => [name, Array.from({ length: 60 }, (_, m) => m + 1).find((m) => passed(at({ stores: n, months: m })))] as const)
      .sort((a, b) => (a[1] ?? 61) - (b[1] ?? 61));
    line(
      `limits passed at ${n.toLocaleString('en')} stores, by month`,
      months.map(([name, month]) => `${name}: ${month === undefined ? 'not in 5 years' : `month ${month}`}`).join('; '),
    );
  }
}

function gigabytes(bytes: number): string {
  return `${(bytes / 1024 ** 3).toFixed(bytes < 10 * 1024 ** 3 ? 1 : 0)} GB`;
}

function minutes(ms: number): string {
  return ms < 60_000 ? `${(ms / 1000).toFixed(0)} s` : `${(ms / 60_000).toFixed(0)} min`;
}
