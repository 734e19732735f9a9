/**
 * Query strings as generated SDKs send them (DESIGN §3): `a[]=x&a[]=y`, `a[0]=x&a[1]=y`
 * and `a=x&a=y` all become `{a: ['x', 'y']}`; a lone `a=x,y` stays a string, which the
 * array schemas of src/core/schemas.ts split on commas.
 */
export type ParsedQuery = Record<string, string | string[]>;

const BRACKETS = /^(.+?)\[(\d*)\]$/;

export function parseQuery(text: string): ParsedQuery {
  // Collected in a Map, not an object literal: a parameter named `constructor` or
  // `__proto__` must be a value like any other, not an inherited member or the prototype.
  const collected = new Map<string, string | string[]>();
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const match = BRACKETS.exec(rawKey);
    const key = match ? match[1]! : rawKey;
    const existing = collected.get(key);
    if (existing === undefined) collected.set(key, match ? [value] : value);
    else if (Array.isArray(existing)) existing.push(value);
    else collected.set(key, [existing, value]);
  }
  return Object.fromEntries(collected);
}
