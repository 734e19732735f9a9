/**
 * The stored form of what a customer's balances fold from, and the SQL that reads the records
 * it stands for. customer_states holds the hub's lots and its tails of point and credit facts;
 * customer_ledgers holds this node's own facts after the state's horizon in the same form, as
 * the database's triggers list them, or the word 'records' in place of a list too long to keep,
 * whose facts are then read from the records. Nothing outside this file reads or writes these
 * JSON lists; everything else sees decoded objects.
 */
import { typedJson } from '../db/column-codecs.js';
import type { Db } from '../db/open.js';
import type { Lot, OrderedFact } from './ledger-fold.js';

/** A point fact with the stamp that orders it and the id that merges it: a collection's expiry, a redemption's moment. */
export type StampedFact = OrderedFact & { hlc: string; id: string };

/** A credit fact: minor units, negative for a redemption. */
export interface StampedCredit {
  signedMinor: number;
  hlc: string;
  id: string;
}

/** A list of this node's own facts too long for its row: its facts are read from the records. */
export const IN_RECORDS = Symbol('facts read from the records');

/** This node's own facts after the horizon, as its row lists them or as `IN_RECORDS`. */
export type OwnFacts<Fact> = Fact[] | typeof IN_RECORDS;

/** The columns of a point record its fact is made of. */
export interface PointFactRecord {
  id: string;
  kind: 'collection' | 'redemption';
  points_milli: number;
  valid_to: string | null;
  created_at: string;
  hlc: string;
}

/** A point fact as stored: kind, points in thousandths, a collection's valid_to or a redemption's created_at, stamp, id. */
type StoredFact = ['c' | 'r', number, string | null, string, string];

/** A credit fact as stored: signed minor units, stamp, id. */
type StoredCredit = [number, string, string];

/**
 * A lot as customer_states holds it: points left, and its expiry as the milliseconds after
 * the previous lot's (the first lot's after the epoch), or null for never. Lots are stored
 * earliest expiry first, so the gaps are short numbers: every store holds every customer's
 * lots, and the absolute times were most of their bytes.
 */
type StoredLot = [number, number | null];

/** The stored lists are written by the triggers and this file alone, so their reads are typed, not validated. */
const readFacts = typedJson<StoredFact[]>();
const readCredits = typedJson<StoredCredit[]>();
const readLots = typedJson<StoredLot[]>();

/** What the triggers write in place of a list longer than a row keeps. */
const LISTED_IN_RECORDS = 'records';

/** A customer's live point records stamped after a stamp ('' for all), in stamp order, by the (customer, stamp) index. */
export function pointRecordsAfter(db: Db) {
  return db.prepare<[string, string], PointFactRecord>(
    'SELECT id, kind, points_milli, valid_to, created_at, hlc FROM point_records WHERE customer_id = ? AND state = 1 AND hlc > ? ORDER BY hlc',
  );
}

/** A customer's live credit records stamped after a stamp ('' for all), in stamp order, signed. */
export function creditRecordsAfter(db: Db) {
  return db.prepare<[string, string], { id: string; signed_minor: number; hlc: string }>(
    "SELECT id, CASE kind WHEN 'collection' THEN amount_minor ELSE -amount_minor END AS signed_minor, hlc FROM credit_records WHERE customer_id = ? AND state = 1 AND hlc > ? ORDER BY hlc",
  );
}

export function factOfRecord(record: PointFactRecord): StampedFact {
  const { id, hlc, points_milli: pointsMilli } = record;
  if (record.kind === 'collection')
    return { kind: 'collection', points_milli: pointsMilli, valid_to: record.valid_to === null ? null : Date.parse(record.valid_to), id, hlc };
  return { kind: 'redemption', points_milli: pointsMilli, at: Date.parse(record.created_at), id, hlc };
}

export function creditOfRecord(record: { id: string; signed_minor: number; hlc: string }): StampedCredit {
  return { signedMinor: record.signed_minor, hlc: record.hlc, id: record.id };
}

export function encodePointFacts(records: readonly PointFactRecord[]): string {
  return JSON.stringify(
    records.map((record): StoredFact => {
      const collection = record.kind === 'collection';
      return [collection ? 'c' : 'r', record.points_milli, collection ? record.valid_to : record.created_at, record.hlc, record.id];
    }),
  );
}

export function decodePointFacts(text: string | null): StampedFact[] {
  if (text === null) return [];
  return readFacts(text).map(([kind, pointsMilli, moment, hlc, id]): StampedFact => {
    if (kind === 'c') return { kind: 'collection', points_milli: pointsMilli, valid_to: moment === null ? null : Date.parse(moment), id, hlc };
    return { kind: 'redemption', points_milli: pointsMilli, at: Date.parse(moment!), id, hlc };
  });
}

export function encodeCredits(credits: readonly StampedCredit[]): string {
  return JSON.stringify(credits.map((credit): StoredCredit => [credit.signedMinor, credit.hlc, credit.id]));
}

export function decodeCredits(text: string | null): StampedCredit[] {
  if (text === null) return [];
  return readCredits(text).map(([signedMinor, hlc, id]) => ({ signedMinor, hlc, id }));
}

/** A customer_ledgers list of point facts; null when the customer has no row. */
export function decodeOwnPointFacts(text: string | null): OwnFacts<StampedFact> {
  return text === LISTED_IN_RECORDS ? IN_RECORDS : decodePointFacts(text);
}

/** A customer_ledgers list of credit facts; null when the customer has no row. */
export function decodeOwnCredits(text: string | null): OwnFacts<StampedCredit> {
  return text === LISTED_IN_RECORDS ? IN_RECORDS : decodeCredits(text);
}

export function encodeLots(lots: readonly Lot[]): string {
  let previous = 0;
  return JSON.stringify(
    lots.map(({ remainingMilli, valid_to: validTo }): StoredLot => {
      if (validTo === null) return [remainingMilli, null];
      const gap = validTo - previous;
      previous = validTo;
      return [remainingMilli, gap];
    }),
  );
}

export function decodeLots(text: string): Lot[] {
  let previous = 0;
  return readLots(text).map(([remainingMilli, gap]) => {
    if (gap === null) return { remainingMilli, valid_to: null };
    previous += gap;
    return { remainingMilli, valid_to: previous };
  });
}
