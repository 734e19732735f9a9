/**
 * Query strings as generated SDKs send them (DESIGN §3): `a[]=x&a[]=y`, `a[0]=x&a[1]=y`
 * and `a=x&a=y` all become `{a: ['x', 'y']}`; a lone `a=x,y` stays a string, which the
 * array schemas of src/http/schemas.ts split on commas.
 */
export type ParsedQuery = Record<string, string | string[]>;

const BRACKETS = /^(.+?)\[(\d*)\]$/;

export function parseQuery(text: string): ParsedQuery {
  const result: ParsedQuery = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const match = BRACKETS.exec(rawKey);
    const key = match ? match[1]! : rawKey;
    const existing = result[key];
    if (existing === undefined) result[key] = match ? [value] : value;
    else if (Array.isArray(existing)) existing.push(value);
    else result[key] = [existing, value];
  }
  return result;
}
