/**
 * The stores an operation names (DESIGN §5 "Authority"): every string under a key `store_id`
 * anywhere in its parsed input — the body's own, a card's or a customer's in a registration, a
 * bill's items, a voucher's use — each of which the hub checks against the stores the node
 * serves (src/sync/hub/hub-operations.ts). A voucher's use at a store names the store it was
 * used at: the API lets a call at head office leave it out, but a store's command that leaves it
 * out would use the voucher nowhere the hub can check, so the hub rejects it.
 */
import { CommandRejected } from './command-policy.js';

const STORE_ID = 'store_id';

/** The kinds whose call names its store in the body's `store_id`, though the API lets it be left out. */
const NAMES_ITS_STORE: ReadonlySet<string> = new Set(['vouchers.apply']);

/** Every string value under a key `store_id` in `value`, at any depth, in the order found; walked without recursion. */
export function storeIdsIn(value: unknown): string[] {
  const found: string[] = [];
  const pending: unknown[] = [value];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next !== 'object' || next === null) continue;
    for (const [key, inner] of Object.entries(next)) {
      if (key === STORE_ID && typeof inner === 'string') found.push(inner);
      else if (typeof inner === 'object' && inner !== null) pending.push(inner);
    }
  }
  return found;
}

/** The stores a store's operation of `kind` names in its parsed input; throws CommandRejected when a kind that must name its store names none. */
export function storesNamed(kind: string, input: { body?: unknown }): string[] {
  const named = storeIdsIn(input);
  const own = (input.body as { store_id?: unknown } | undefined)?.store_id;
  if (NAMES_ITS_STORE.has(kind) && typeof own !== 'string') throw new CommandRejected(`a ${kind} at a store names the store: store_id is required`);
  return named;
}
