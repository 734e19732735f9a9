/**
 * src/core/time.ts keeps each zone's offset by UTC minute instead of asking Intl on every call.
 * Whatever it remembers, formatting and parsing must give what asking Intl every time gives
 * — the reference below, src/core/time.ts as it was — at daylight-saving edges, in zones whose
 * offsets are not whole hours (India, Nepal, Newfoundland, Chatham, Lord Howe's half-hour
 * summer time), and in years whose local mean time offsets have seconds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatTimestamp, parseTimestamp } from '../../src/core/time.js';

const ZONES = [
  'Europe/Prague',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'America/St_Johns',
  'Pacific/Chatham',
  'Australia/Lord_Howe',
  'America/New_York',
  'UTC',
];

function referenceParts(ms: number, timeZone: string): Record<string, string> {
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  return Object.fromEntries(format.formatToParts(new Date(ms)).map((part) => [part.type, part.value]));
}

function referenceFormat(ms: number, timeZone: string): string {
  const p = referenceParts(ms, timeZone);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

function referenceOffset(ms: number, timeZone: string): number {
  const p = referenceParts(ms, timeZone);
  return (
    Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second)) - Math.floor(ms / 1000) * 1000
  );
}

/** A local `YYYY-MM-DD HH:MM:SS` read in the zone, as parseTimestamp did it. */
function referenceParseLocal(text: string, timeZone: string): number {
  const [date, time] = text.split(' ') as [string, string];
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute, second] = time.split(':').map(Number) as [number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  const guess = asUtc - referenceOffset(asUtc, timeZone);
  return asUtc - referenceOffset(guess, timeZone);
}

/** Every second from `from` for `seconds`, in UTC ms. */
function seconds(from: string, count: number): number[] {
  return Array.from({ length: count }, (_, n) => Date.parse(from) + n * 1000);
}

const PRAGUE_SPRING = seconds('2026-03-29T00:58:00Z', 240);
const PRAGUE_AUTUMN = seconds('2026-10-25T00:58:00Z', 240);
const LORD_HOWE_AUTUMN = seconds('2026-04-04T14:58:00Z', 240);

describe('zone offsets remembered by the minute', () => {
  it('format every second across the Prague daylight-saving edges as Intl does, asked once and again', () => {
    for (const ms of [...PRAGUE_SPRING, ...PRAGUE_AUTUMN, ...PRAGUE_SPRING]) {
      expect(formatTimestamp(ms, 'Europe/Prague')).toBe(referenceFormat(ms, 'Europe/Prague'));
    }
    expect(formatTimestamp('2026-03-29T00:59:59Z', 'Europe/Prague')).toBe('2026-03-29 01:59:59');
    expect(formatTimestamp('2026-03-29T01:00:00Z', 'Europe/Prague')).toBe('2026-03-29 03:00:00');
    expect(formatTimestamp('2026-10-25T00:59:59Z', 'Europe/Prague')).toBe('2026-10-25 02:59:59');
    expect(formatTimestamp('2026-10-25T01:00:00Z', 'Europe/Prague')).toBe('2026-10-25 02:00:00');
  });

  it('read every wall time around the Prague daylight-saving edges as Intl does, asked once and again', () => {
    for (const ms of [...PRAGUE_SPRING, ...PRAGUE_AUTUMN]) {
      for (const local of [referenceFormat(ms, 'UTC'), referenceFormat(ms + 3_600_000, 'UTC'), referenceFormat(ms + 7_200_000, 'UTC')]) {
        expect(parseTimestamp(local, 'Europe/Prague')).toBe(referenceParseLocal(local, 'Europe/Prague'));
        expect(parseTimestamp(local, 'Europe/Prague')).toBe(referenceParseLocal(local, 'Europe/Prague'));
      }
    }
    expect(parseTimestamp('2026-03-29 02:30:00', 'Europe/Prague')).toBe(Date.UTC(2026, 2, 29, 1, 30));
    expect(parseTimestamp('2026-10-25 03:00:00', 'Europe/Prague')).toBe(Date.UTC(2026, 9, 25, 2, 0));
  });

  it('follow a half-hour daylight-saving change (Lord Howe) second by second', () => {
    for (const ms of LORD_HOWE_AUTUMN) {
      expect(formatTimestamp(ms, 'Australia/Lord_Howe')).toBe(referenceFormat(ms, 'Australia/Lord_Howe'));
      const local = referenceFormat(ms, 'UTC');
      expect(parseTimestamp(local, 'Australia/Lord_Howe')).toBe(referenceParseLocal(local, 'Australia/Lord_Howe'));
    }
  });

  it('format and read zones whose offsets are not whole hours', () => {
    expect(formatTimestamp('2026-07-01T10:15:30Z', 'Asia/Kolkata')).toBe('2026-07-01 15:45:30');
    expect(formatTimestamp('2026-07-01T10:15:30Z', 'Asia/Kathmandu')).toBe('2026-07-01 16:00:30');
    expect(formatTimestamp('2026-07-01T10:15:30Z', 'America/St_Johns')).toBe('2026-07-01 07:45:30');
    expect(formatTimestamp('2026-01-15T10:15:30Z', 'America/St_Johns')).toBe('2026-01-15 06:45:30');
    expect(parseTimestamp('2026-07-01 15:45:30', 'Asia/Kolkata')).toBe(Date.UTC(2026, 6, 1, 10, 15, 30));
    expect(parseTimestamp('2026-07-01 16:00:30', 'Asia/Kathmandu')).toBe(Date.UTC(2026, 6, 1, 10, 15, 30));
  });

  it('leave offsets with seconds to Intl: Prague kept its local mean time, +0:57:44, until 1891', () => {
    expect(formatTimestamp('1890-06-01T12:00:00Z', 'Europe/Prague')).toBe('1890-06-01 12:57:44');
    expect(formatTimestamp('1890-06-01T12:00:30Z', 'Europe/Prague')).toBe('1890-06-01 12:58:14');
    expect(parseTimestamp('1890-06-01 12:57:44', 'Europe/Prague')).toBe(Date.UTC(1890, 5, 1, 12, 0, 0));
    // It ended in the middle of a UTC minute, 23:02:16 on 30 September.
    for (const ms of [...seconds('1891-09-30T23:02:40Z', 40), ...seconds('1891-09-30T23:01:00Z', 180)]) {
      expect(formatTimestamp(ms, 'Europe/Prague')).toBe(referenceFormat(ms, 'Europe/Prague'));
    }
    expect(formatTimestamp('1891-09-30T23:02:15Z', 'Europe/Prague')).toBe('1891-09-30 23:59:59');
    expect(formatTimestamp('1891-09-30T23:02:16Z', 'Europe/Prague')).toBe('1891-10-01 00:02:16');
  });

  it('format any instant from year 1 to 9999 and read any wall time as Intl does, in every zone', () => {
    const instant = fc.integer({ min: Date.UTC(1, 0, 1), max: Date.UTC(9999, 11, 31) });
    fc.assert(
      fc.property(instant, fc.constantFrom(...ZONES), (ms, zone) => {
        expect(formatTimestamp(ms, zone)).toBe(referenceFormat(ms, zone));
        expect(formatTimestamp(ms + 1000, zone)).toBe(referenceFormat(ms + 1000, zone));
        const local = referenceFormat(ms, 'UTC');
        if (/^\d{4}-/.test(local)) expect(parseTimestamp(local, zone)).toBe(referenceParseLocal(local, zone));
      }),
      { numRuns: 3000 },
    );
  });

  it('format instants of recent years, second by second near each other, as Intl does', () => {
    const instant = fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2100, 0, 1) });
    fc.assert(
      fc.property(instant, fc.constantFrom(...ZONES), fc.integer({ min: 0, max: 120 }), (ms, zone, step) => {
        expect(formatTimestamp(ms + step * 1000, zone)).toBe(referenceFormat(ms + step * 1000, zone));
      }),
      { numRuns: 3000 },
    );
  });
});
