/**
 * The fold (DESIGN §5). Point records are facts; balances and each collection record's
 * `available_points` are derived by folding a customer's facts in HLC order: a redemption
 * consumes the collection records that precede it and are unexpired at its time, earliest
 * `valid_to` first (records that never expire last). What no record covers becomes a debt — a
 * negative balance — which later collections pay off first. The fold depends only on the
 * facts, never on the order they arrived in, so every node that holds the same facts derives
 * the same balances. Points are in thousandths throughout.
 */

/**
 * A fact as the fold sees it, once the facts are in HLC order: a collection's expiry, a
 * redemption's moment (ms since the epoch). A collection names its record when the caller
 * needs what is left on each (a published lot, GET /points).
 */
export type OrderedFact =
  { kind: 'collection'; points_milli: number; valid_to: number | null; id?: string } | { kind: 'redemption'; points_milli: number; at: number };

/** A collection with points left after the facts folded so far. */
export interface Lot {
  id?: string;
  valid_to: number | null;
  remainingMilli: number;
}

/**
 * Where a fold stands after a prefix of the facts: the collections with points left, in HLC
 * order, and the debt. Folding the rest of the facts from it gives what folding all of them
 * gives, which is how the hub publishes a customer's state (src/loyalty/customer-states.ts).
 */
export interface FoldState {
  lots: Lot[];
  debtMilli: number;
}

export const EMPTY_FOLD: FoldState = { lots: [], debtMilli: 0 };

interface OpenCollection extends Lot {
  /** Position in the HLC order, which breaks ties between equal expiries. */
  index: number;
}

/** Where a fold from a state ends. */
export interface FoldOutcome {
  /** Points left on each folded fact (0 on redemptions). */
  remainingMilli: number[];
  /** Points left on each of the start's lots. */
  startRemainingMilli: number[];
  /** The state reached: the start's and the new collections' lots with points left. */
  state: FoldState;
}

/** The fold continued from `start` over facts in HLC order that all come after the ones `start` folded. */
export function foldFrom(start: FoldState, ordered: readonly OrderedFact[]): FoldOutcome {
  const remainingMilli = ordered.map(() => 0);
  const collections: OpenCollection[] = start.lots.map((lot, index) => ({ ...lot, index: index - start.lots.length }));
  let debtMilli = start.debtMilli;
  ordered.forEach((fact, index) => {
    if (fact.kind === 'collection') {
      const payoff = Math.min(debtMilli, fact.points_milli);
      debtMilli -= payoff;
      collections.push({ id: fact.id, index, valid_to: fact.valid_to, remainingMilli: fact.points_milli - payoff });
      return;
    }
    let neededMilli = fact.points_milli;
    const usable = collections
      .filter((collection) => collection.remainingMilli > 0 && (collection.valid_to === null || collection.valid_to > fact.at))
      .sort(byExpiry);
    for (const collection of usable) {
      if (neededMilli === 0) break;
      const taken = Math.min(neededMilli, collection.remainingMilli);
      collection.remainingMilli -= taken;
      neededMilli -= taken;
    }
    debtMilli += neededMilli;
  });
  const startRemainingMilli = start.lots.map(() => 0);
  const lots: Lot[] = [];
  for (const collection of collections) {
    if (collection.index >= 0) remainingMilli[collection.index] = collection.remainingMilli;
    else startRemainingMilli[collection.index + start.lots.length] = collection.remainingMilli;
    if (collection.remainingMilli > 0)
      lots.push(
        collection.id === undefined
          ? { valid_to: collection.valid_to, remainingMilli: collection.remainingMilli }
          : { id: collection.id, valid_to: collection.valid_to, remainingMilli: collection.remainingMilli },
      );
  }
  return { remainingMilli, startRemainingMilli, state: { lots, debtMilli } };
}

/** The balance of a fold's state at a moment: unexpired points left, less the debt. May be negative. */
export function balanceMilliOf(state: FoldState, at: number): number {
  let leftMilli = 0;
  for (const lot of state.lots) if (lot.valid_to === null || lot.valid_to > at) leftMilli += lot.remainingMilli;
  return leftMilli - state.debtMilli;
}

/**
 * The lots of a state as a store needs them: one per expiry, earliest first, never-expiring
 * last. Folding on from merged lots gives the same balances and debt, since a redemption takes
 * lots by expiry and, between equal expiries, the older first, and every lot of a state is
 * older than the facts folded after it.
 */
export function mergedByExpiry(lots: readonly Lot[]): Lot[] {
  const byExpiry = new Map<number | null, number>();
  for (const lot of lots) byExpiry.set(lot.valid_to, (byExpiry.get(lot.valid_to) ?? 0) + lot.remainingMilli);
  return [...byExpiry]
    .map(([validTo, remainingMilli]) => ({ valid_to: validTo, remainingMilli }))
    .sort((a, b) => (a.valid_to === b.valid_to ? 0 : a.valid_to === null ? 1 : b.valid_to === null ? -1 : a.valid_to - b.valid_to));
}

function byExpiry(a: OpenCollection, b: OpenCollection): number {
  if (a.valid_to !== b.valid_to) {
    if (a.valid_to === null) return 1;
    if (b.valid_to === null) return -1;
    return a.valid_to - b.valid_to;
  }
  return a.index - b.index;
}
