/**
 * Values between JavaScript and PostgreSQL's text format, kept as SQLite gives them: integers
 * and numerics come back as numbers, booleans as 1 and 0 (SQLite has no boolean), bytea as a
 * Buffer, every other type as its text. A parameter is sent as text, a Buffer as bytea's hex.
 */
import { Buffer } from 'node:buffer';

/** Type oids of pg_type whose text is read as a number. */
const NUMERIC = new Set([
  20, // int8
  21, // int2
  23, // int4
  26, // oid
  700, // float4
  701, // float8
  1700, // numeric
]);
const BOOL = 16;
const BYTEA = 17;

export type Decode = (text: string) => unknown;

export function decoderOf(typeOid: number): Decode | undefined {
  if (NUMERIC.has(typeOid)) return Number;
  if (typeOid === BOOL) return (text) => (text === 't' ? 1 : 0);
  if (typeOid === BYTEA) return (text) => Buffer.from(text.slice(2), 'hex');
  return undefined;
}

export function encodeParameter(value: unknown): string | null {
  if (value === null) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (Buffer.isBuffer(value)) return `\\x${value.toString('hex')}`;
  throw new TypeError(`a ${typeof value} cannot be bound to a PostgreSQL parameter; bind numbers, strings, null or Buffers`);
}
