/**
 * The JSON a TEXT column holds, decoded by one codec per `table.column`; the generated row
 * types (tables.generated.ts) type the column as the text it is. Layers import downwards, so
 * each lists the codecs of the columns whose types it owns: src/loyalty/column-codecs.ts,
 * src/sync/column-codecs.ts, src/features/column-codecs.ts, and this file those whose value
 * has no type of its own. Each list is keyed by a ColumnName: a codec naming a column the
 * schema lacks fails `tsc`.
 *
 * Two kinds: a column only this code writes, from a value of the type it is read as, is
 * typed by its codec (`typedJson`), and a read costs JSON.parse alone — the cash desk reads
 * several on every payment. A column holding JSON as a client sent it, or whose reader must
 * refuse what it cannot read, is validated by its zod schema (`parsedJson`, or
 * `readableJson` where the reader skips what it cannot read).
 */
import type { z } from 'zod';
import type { Tables } from './tables.generated.js';

/** `customers.address`: a table and one of its columns. */
export type ColumnName = { [Table in keyof Tables]: `${Table}.${keyof Tables[Table] & string}` }[keyof Tables];

export type ColumnCodec<T> = (text: string) => T;

/** The codecs of some JSON columns, by column. */
export type ColumnCodecs = Partial<Record<ColumnName, ColumnCodec<unknown>>>;

/** The decoder of a column whose every value this code wrote as a T. */
export function typedJson<T>(): ColumnCodec<T> {
  return (text) => JSON.parse(text) as T;
}

/** The decoder of a column whose value is what `schema` accepts; throws on anything else. */
export function parsedJson<T>(schema: z.ZodType<T>): ColumnCodec<T> {
  return (text) => schema.parse(JSON.parse(text));
}

/** The decoder of a column some of whose values this version cannot read (another version wrote them): undefined for those. */
export function readableJson<T>(schema: z.ZodType<T>): ColumnCodec<T | undefined> {
  return (text) => {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  };
}

export const dbColumns = {
  /** The answer an idempotent request gave, sent again as it was. */
  'idempotency_keys.response': typedJson<unknown>(),
  /** What a fold or sync found, as the code that listed the conflict described it. */
  'sync_conflicts.detail': typedJson<unknown>(),
} satisfies ColumnCodecs;
