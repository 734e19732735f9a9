/** Small zod building blocks shared by request schemas of every resource. */
import { z } from 'zod';
import { ID_PATTERN } from './ids.js';

export const Id = z.string().regex(ID_PATTERN, 'must be 26 lowercase hexadecimal characters');

/** A non-empty string. */
export const Text = z.string().trim().min(1);

/** Array query parameters in any of the encodings of src/http/query.ts. */
export const QueryArray = z.preprocess(
  (value) => (value === undefined ? undefined : (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(','))),
  z.array(z.string().min(1)),
);

/** Booleans in a query string: true/false or 1/0. */
export const QueryBoolean = z.preprocess((value) => {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return value;
}, z.boolean());

/** Integers in a query string. */
export const QueryInteger = z.preprocess((value) => (typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value), z.number().int());

/** The state of a lookup record: 0 deleted, 1 active, 2 not active. */
export const LookupState = z.number().int().min(0).max(2);

/** A yes/no field the API gives as 0 or 1. */
export const Flag = z.number().int().min(0).max(1);

/** How deep a JSON value stored as sent (a property value, an event's data) may nest. */
export const JSON_NESTING_LIMIT = 32;

/**
 * Any JSON value nested at most JSON_NESTING_LIMIT levels. zod's z.json() walks a value by
 * recursion, and a 1 MB body can nest half a million levels, which would exhaust the stack:
 * the depth is measured first, level by level, without recursion.
 */
export const JsonValue = z
  .unknown()
  .refine((value) => nestsWithin(value, JSON_NESTING_LIMIT), `must not nest deeper than ${JSON_NESTING_LIMIT} levels`)
  .pipe(z.json());

function nestsWithin(value: unknown, limit: number): boolean {
  let level: unknown[] = [value];
  for (let depth = 0; level.length > 0; depth++) {
    if (depth > limit) return false;
    const next: unknown[] = [];
    for (const node of level) {
      if (node !== null && typeof node === 'object') for (const child of Object.values(node)) next.push(child);
    }
    level = next;
  }
  return true;
}

/** A collection answer (DESIGN §3): the page's items under their plural key, and how many there are in all. */
export function Collection<Key extends string, Item extends z.ZodType>(key: Key, item: Item) {
  return z.object({ [key]: z.array(item), total_items: z.number().int().min(0) } as { [K in Key]: z.ZodArray<Item> } & { total_items: z.ZodNumber });
}

/** A timestamp as the API writes it: `YYYY-MM-DD HH:MM:SS` in the store's time zone. */
export const StoreTimestamp = z.string().meta({ description: "YYYY-MM-DD HH:MM:SS in the store's time zone" });
