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

/**
 * A fact as the fold sees it, once the facts are in HLC order: a collection's expiry, a
 * redemption's moment. The cash desk reads a customer's facts in this form, already in
 * order (src/loyalty/customer-ledgers.ts). A collection names its record when the caller
 * needs what is left on each (a published lot, GET /points).
 */
export type OrderedFact =
  { kind: 'collection'; points_milli: number; valid_to: number | null; id?: string } | { kind: 'redemption'; points_milli: number; at: number };

/** A collection with points left after the facts folded so far. */
export interface Lot {
  id?: string;
  valid_to: number | null;
  remaining: number;
}

/**
 * Where a fold stands after a prefix of the facts: the collections with points left, in HLC
 * order, and the debt. Folding the rest of the facts from it gives what folding all of them
 * gives, which is how the hub publishes a customer's state (src/loyalty/customer-states.ts).
 */
export interface FoldState {
  lots: Lot[];
  debt: number;
}

export const EMPTY_FOLD: FoldState = { lots: [], debt: 0 };

interface OpenCollection extends Lot {
  /** Position in the HLC order, which breaks ties between equal expiries. */
  index: number;
}

export function foldLedger(facts: readonly PointFact[]): LedgerFold {
  const ordered = [...facts].sort((a, b) => (a.hlc < b.hlc ? -1 : a.hlc > b.hlc ? 1 : 0));
  const { remaining, debt } = foldInOrder(ordered.map(toOrderedFact));
  const available = new Map<string, number>();
  ordered.forEach((fact, index) => {
    if (fact.kind === 'collection') available.set(fact.id, remaining[index]!);
  });
  return { available, debt };
}

export function toOrderedFact(fact: PointFact): OrderedFact {
  return fact.kind === 'collection'
    ? { kind: 'collection', points_milli: fact.points_milli, valid_to: fact.valid_to, id: fact.id }
    : { kind: 'redemption', points_milli: fact.points_milli, at: fact.at };
}

/** The fold over facts already in HLC order: points left on each fact (0 on redemptions), and the debt. */
export function foldInOrder(ordered: readonly OrderedFact[]): { remaining: number[]; debt: number } {
  const { remaining, state } = foldFrom(EMPTY_FOLD, ordered);
  return { remaining, debt: state.debt };
}

/** Where a fold from a state ends. */
export interface FoldOutcome {
  /** Points left on each folded fact (0 on redemptions). */
  remaining: number[];
  /** Points left on each of the start's lots. */
  startRemaining: number[];
  /** The state reached: the start's and the new collections' lots with points left. */
  state: FoldState;
}

/** The fold continued from `start` over facts in HLC order that all come after the ones `start` folded. */
export function foldFrom(start: FoldState, ordered: readonly OrderedFact[]): FoldOutcome {
  const remaining = ordered.map(() => 0);
  const collections: OpenCollection[] = start.lots.map((lot, index) => ({ ...lot, index: index - start.lots.length }));
  let debt = start.debt;
  ordered.forEach((fact, index) => {
    if (fact.kind === 'collection') {
      const payoff = Math.min(debt, fact.points_milli);
      debt -= payoff;
      collections.push({ id: fact.id, index, valid_to: fact.valid_to, remaining: fact.points_milli - payoff });
      return;
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
  });
  const startRemaining = start.lots.map(() => 0);
  const lots: Lot[] = [];
  for (const collection of collections) {
    if (collection.index >= 0) remaining[collection.index] = collection.remaining;
    else startRemaining[collection.index + start.lots.length] = collection.remaining;
    if (collection.remaining > 0)
      lots.push(
        collection.id === undefined
          ? { valid_to: collection.valid_to, remaining: collection.remaining }
          : { id: collection.id, valid_to: collection.valid_to, remaining: collection.remaining },
      );
  }
  return { remaining, startRemaining, state: { lots, debt } };
}

/** The balance of a fold's state at a moment: unexpired points left, less the debt. May be negative. */
export function balanceOfState(state: FoldState, at: number): number {
  let left = 0;
  for (const lot of state.lots) if (lot.valid_to === null || lot.valid_to > at) left += lot.remaining;
  return left - state.debt;
}

/**
 * The lots of a state as a store needs them: one per expiry, earliest first, never-expiring
 * last. Folding on from merged lots gives the same balances and debt, since a redemption takes
 * lots by expiry and, between equal expiries, the older first, and every lot of a state is
 * older than the facts folded after it.
 */
export function mergedByExpiry(lots: readonly Lot[]): Lot[] {
  const byExpiry = new Map<number | null, number>();
  for (const lot of lots) byExpiry.set(lot.valid_to, (byExpiry.get(lot.valid_to) ?? 0) + lot.remaining);
  return [...byExpiry]
    .map(([validTo, remaining]) => ({ valid_to: validTo, remaining }))
    .sort((a, b) => (a.valid_to === b.valid_to ? 0 : a.valid_to === null ? 1 : b.valid_to === null ? -1 : a.valid_to - b.valid_to));
}

/** The balance at a moment: unexpired points left, less the debt. May be negative. */
export function balanceAt(facts: readonly PointFact[], fold: LedgerFold, at: number): number {
  let left = 0;
  for (const fact of facts) {
    if (fact.kind !== 'collection' || (fact.valid_to !== null && fact.valid_to <= at)) continue;
    left += fold.available.get(fact.id) ?? 0;
  }
  return left - fold.debt;
}

function byExpiry(a: OpenCollection, b: OpenCollection): number {
  if (a.valid_to !== b.valid_to) {
    if (a.valid_to === null) return 1;
    if (b.valid_to === null) return -1;
    return a.valid_to - b.valid_to;
  }
  return a.index - b.index;
}
