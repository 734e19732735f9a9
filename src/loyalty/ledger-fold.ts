/**
 * The points ledger fold (DESIGN §5). Point records are facts; balances and each
 * collection record's `available_points` are derived by folding a customer's facts in HLC
 * order: a redemption consumes the collection records that precede it and are unexpired
 * at its time, earliest `valid_to` first (records that never expire last). What no record
 * covers becomes a debt — a negative balance — which later collections pay off first.
 * The fold depends only on the facts, never on the order they arrived in, so every node
 * that holds the same facts derives the same balances.
 */
export interface PointFact {
  id: string;
  kind: 'collection' | 'redemption';
  points_milli: number;
  /** When a collection expires (ms since the epoch); null for never. */
  valid_to: number | null;
  /** When the fact happened (ms since the epoch). */
  at: number;
  hlc: string;
}

export interface LedgerFold {
  /** Points left on each collection record, by id (redemptions are absent). */
  available: Map<string, number>;
  /** Redeemed points no record covered. */
  debt: number;
}

interface OpenCollection {
  id: string;
  valid_to: number | null;
  hlc: string;
  remaining: number;
}

export function foldLedger(facts: readonly PointFact[]): LedgerFold {
  const ordered = [...facts].sort((a, b) => (a.hlc < b.hlc ? -1 : a.hlc > b.hlc ? 1 : 0));
  const collections: OpenCollection[] = [];
  let debt = 0;
  for (const fact of ordered) {
    if (fact.kind === 'collection') {
      const payoff = Math.min(debt, fact.points_milli);
      debt -= payoff;
      collections.push({ id: fact.id, valid_to: fact.valid_to, hlc: fact.hlc, remaining: fact.points_milli - payoff });
      continue;
    }
    let needed = fact.points_milli;
    const usable = collections
      .filter((collection) => collection.remaining > 0 && (collection.valid_to === null || collection.valid_to > fact.at))
      .sort(byExpiry);
    for (const collection of usable) {
      if (needed === 0) break;
      const taken = Math.min(needed, collection.remaining);
      collection.remaining -= taken;
      needed -= taken;
    }
    debt += needed;
  }
  return { available: new Map(collections.map((collection) => [collection.id, collection.remaining])), debt };
}

/** The balance at a moment: unexpired points left, less the debt. May be negative. */
export function balanceAt(facts: readonly PointFact[], fold: LedgerFold, at: number): number {
  let balance = -fold.debt;
  for (const fact of facts) {
    if (fact.kind !== 'collection' || (fact.valid_to !== null && fact.valid_to <= at)) continue;
    balance += fold.available.get(fact.id) ?? 0;
  }
  return balance;
}

function byExpiry(a: OpenCollection, b: OpenCollection): number {
  if (a.valid_to !== b.valid_to) {
    if (a.valid_to === null) return 1;
    if (b.valid_to === null) return -1;
    return a.valid_to - b.valid_to;
  }
  return a.hlc < b.hlc ? -1 : 1;
}
