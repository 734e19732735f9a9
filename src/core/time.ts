/**
 * Timestamps on the wire (DESIGN §3): out as `YYYY-MM-DD HH:MM:SS` in the configured time
 * zone; in as ISO 8601 with or without an offset, or `YYYY-MM-DD HH:MM:SS`. Without an
 * offset a time is read in the configured time zone. Stored as ISO instants in UTC.
 */
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?$/;
const WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})$/;

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

function wallClockParts(ms: number, timeZone: string): Record<string, string> {
  const parts: Record<string, string> = {};
  for (const part of partsFormatter(timeZone).formatToParts(new Date(ms))) parts[part.type] = part.value;
  return parts;
}

/** `YYYY-MM-DD HH:MM:SS`, or with `.ffffff` when `micro` is set (as `last_change` is). */
export function formatTimestamp(instant: string | number, timeZone: string, micro = false): string {
  const ms = typeof instant === 'number' ? instant : Date.parse(instant);
  const base = wallClockText(ms, timeZone);
  if (!micro) return base;
  const millis = ((ms % 1000) + 1000) % 1000;
  return `${base}.${String(millis * 1000).padStart(6, '0')}`;
}

export function formatOptionalTimestamp(instant: string | null, timeZone: string): string | null {
  return instant === null ? null : formatTimestamp(instant, timeZone);
}

/** Milliseconds since the epoch, or undefined when the text is no accepted timestamp. */
export function parseTimestamp(text: string, timeZone: string): number | undefined {
  const withOffset = WITH_OFFSET.exec(text);
  const match = withOffset ?? LOCAL.exec(text);
  if (!match) return undefined;
  const asUtc = wallTimeAsUtc(match);
  if (asUtc === undefined) return undefined;
  if (withOffset) {
    const ms = Date.parse(text);
    return Number.isNaN(ms) ? undefined : ms;
  }
  // The zone's offset at that wall time; asking twice settles daylight-saving edges.
  const guess = asUtc - zoneOffset(asUtc, timeZone);
  return asUtc - zoneOffset(guess, timeZone);
}

/**
 * The wall time of a matched timestamp read as if it were UTC, or undefined when a field
 * is out of range (2026-02-30, 10:61): Date.UTC and Date.parse would roll those over
 * into another day or hour instead of refusing them.
 */
function wallTimeAsUtc(match: RegExpExecArray): number | undefined {
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const fraction = match[7] ? Math.floor(Number(match[7]) * 1000) : 0;
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second, fraction);
  const check = new Date(asUtc);
  const valid =
    check.getUTCFullYear() === year &&
    check.getUTCMonth() === month - 1 &&
    check.getUTCDate() === day &&
    check.getUTCHours() === hour &&
    check.getUTCMinutes() === minute &&
    check.getUTCSeconds() === second;
  return valid ? asUtc : undefined;
}

/**
 * The wall clock at an instant as `YYYY-MM-DD HH:MM:SS`: the UTC fields of the instant moved
 * by the zone's offset, which is what Intl prints, or Intl's own parts when the offset is not
 * known by the minute.
 */
function wallClockText(ms: number, timeZone: string): string {
  const offset = minuteOffset(ms, timeZone);
  if (offset !== undefined) {
    const wall = new Date(ms + offset);
    return `${wall.getUTCFullYear()}-${twoDigits(wall.getUTCMonth() + 1)}-${twoDigits(wall.getUTCDate())} ${twoDigits(wall.getUTCHours())}:${twoDigits(wall.getUTCMinutes())}:${twoDigits(wall.getUTCSeconds())}`;
  }
  const p = wallClockParts(ms, timeZone);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

function twoDigits(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}

/** Offset of the zone from UTC at an instant, in ms (positive east of Greenwich). */
function zoneOffset(ms: number, timeZone: string): number {
  return minuteOffset(ms, timeZone) ?? intlOffset(ms, timeZone);
}

/** Zone offsets by UTC minute, per zone; a bounded memo, as the minutes asked for cluster around now. */
const offsetsByMinute = new Map<string, Map<number, number>>();
const MEMO_MINUTES = 10_000;
/** Years 1000 to 9999 with a day to spare, whose wall clock Intl prints with four-digit years. */
const MEMO_FROM = Date.UTC(1000, 0, 2);
const MEMO_TO = Date.UTC(9999, 11, 30);

/**
 * The zone's offset throughout the UTC minute of an instant, or undefined when it is not the
 * same whole number of minutes at both ends of that minute: local mean times have seconds
 * (Prague's +0:57:44 until 1891), and so may the moment they end (23:02:16 UTC), but no zone
 * changes its offset twice within a minute. Intl's formatToParts, which tells the offset,
 * costs microseconds; every checkout call asks at least once.
 */
function minuteOffset(ms: number, timeZone: string): number | undefined {
  if (!(ms >= MEMO_FROM && ms <= MEMO_TO)) return undefined;
  let offsets = offsetsByMinute.get(timeZone);
  if (!offsets) offsetsByMinute.set(timeZone, (offsets = new Map()));
  const minute = Math.floor(ms / 60_000);
  const known = offsets.get(minute);
  if (known !== undefined) return known;
  const offset = intlOffset(minute * 60_000, timeZone);
  if (offset % 60_000 !== 0 || intlOffset(minute * 60_000 + 59_999, timeZone) !== offset) return undefined;
  if (offsets.size >= MEMO_MINUTES) offsets.clear();
  offsets.set(minute, offset);
  return offset;
}

function intlOffset(ms: number, timeZone: string): number {
  const p = wallClockParts(ms, timeZone);
  const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return wall - Math.floor(ms / 1000) * 1000;
}
