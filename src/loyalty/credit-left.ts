/**
 * What a credit collection has left (GET /credits' `available_credits`). Credit never expires
 * and its balance is a sum, so which deposit a spend took is a convention: spends take the
 * oldest credit first, so the balance rests on the newest collections. The records' amounts
 * left add up to the balance, or to nothing when it is negative.
 */
export function creditLeftOn(balanceMinor: number, collectionsNewestFirst: readonly { id: string; amount_minor: number }[]): Map<string, number> {
  const left = new Map<string, number>();
  let rest = Math.max(0, balanceMinor);
  for (const collection of collectionsNewestFirst) {
    const share = Math.min(collection.amount_minor, rest);
    left.set(collection.id, share);
    rest -= share;
  }
  return left;
}
