/**
 * How deep a JSON body may nest, in objects and arrays, the body itself the first: a request
 * deeper than this answers 400 on every route, before anything walks it. JSON.parse takes any
 * depth, but the walks that recurse into a body — its JSON.stringify for an Idempotency-Key's
 * fingerprint, the call a store's command records, the operation the hub holds, the copy to a
 * writer thread — overflow the stack some thousands of levels down, and answered 500.
 *
 * The API's own structures nest 9 levels at most (a voucher's update in the interface's OpenAPI
 * description; a bill 7). A value stored as sent — a property value, an event's data — may nest
 * JSON_NESTING_LIMIT (32, src/core/schemas.ts) levels of its own three levels down (an event's
 * `event.data`, a product's `properties[]`): 35. A store's push carries each call 6 levels
 * further down (`commands[].operation.call.input.body`): 41, the deepest legitimate body.
 * 128 is three times that, and far from the stack's limit.
 */
export const MAX_JSON_DEPTH = 128;

/** Whether a parsed JSON value nests deeper than `depth` objects and arrays; walked without recursion. */
export function nestsDeeperThan(value: unknown, depth: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue;
    if (next.depth > depth) return true;
    for (const inner of Object.values(next.value)) {
      if (typeof inner === 'object' && inner !== null) pending.push({ value: inner, depth: next.depth + 1 });
    }
  }
  return false;
}
