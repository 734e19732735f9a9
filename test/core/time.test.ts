import { describe, expect, it } from 'vitest';
import { formatOptionalTimestamp, formatTimestamp, parseTimestamp } from '../../src/core/time.js';

const PRAGUE = 'Europe/Prague';

describe('formatting timestamps', () => {
  it('writes YYYY-MM-DD HH:MM:SS in UTC', () => {
    expect(formatTimestamp('2026-07-01T10:15:30.000Z', 'UTC')).toBe('2026-07-01 10:15:30');
    expect(formatTimestamp(Date.UTC(2026, 0, 5, 0, 0, 7), 'UTC')).toBe('2026-01-05 00:00:07');
  });

  it('writes Prague summer time two hours ahead of UTC', () => {
    expect(formatTimestamp('2026-07-01T10:15:30Z', PRAGUE)).toBe('2026-07-01 12:15:30');
  });

  it('writes Prague winter time one hour ahead of UTC', () => {
    expect(formatTimestamp('2026-01-15T10:15:30Z', PRAGUE)).toBe('2026-01-15 11:15:30');
  });

  it('writes the local date, which can differ from the UTC date', () => {
    expect(formatTimestamp('2026-12-31T23:30:00Z', PRAGUE)).toBe('2027-01-01 00:30:00');
  });

  it('writes midnight as 00, never 24', () => {
    expect(formatTimestamp('2026-07-01T22:00:00Z', PRAGUE)).toBe('2026-07-02 00:00:00');
  });

  it('adds six fraction digits with micro, as last_change has', () => {
    expect(formatTimestamp('2026-07-01T10:15:30.123Z', 'UTC', true)).toBe('2026-07-01 10:15:30.123000');
    expect(formatTimestamp('2026-07-01T10:15:30.007Z', PRAGUE, true)).toBe('2026-07-01 12:15:30.007000');
    expect(formatTimestamp('2026-07-01T10:15:30Z', PRAGUE, true)).toBe('2026-07-01 12:15:30.000000');
  });

  it('leaves out the fraction without micro', () => {
    expect(formatTimestamp('2026-07-01T10:15:30.999Z', 'UTC')).toBe('2026-07-01 10:15:30');
  });

  it('jumps from 01:59:59 to 03:00:00 when Prague springs forward', () => {
    expect(formatTimestamp('2026-03-29T00:59:59Z', PRAGUE)).toBe('2026-03-29 01:59:59');
    expect(formatTimestamp('2026-03-29T01:00:00Z', PRAGUE)).toBe('2026-03-29 03:00:00');
  });

  it('repeats 02:00 to 02:59 when Prague falls back', () => {
    expect(formatTimestamp('2026-10-25T00:30:00Z', PRAGUE)).toBe('2026-10-25 02:30:00');
    expect(formatTimestamp('2026-10-25T01:30:00Z', PRAGUE)).toBe('2026-10-25 02:30:00');
    expect(formatTimestamp('2026-10-25T02:00:00Z', PRAGUE)).toBe('2026-10-25 03:00:00');
  });

  it('passes null through formatOptionalTimestamp', () => {
    expect(formatOptionalTimestamp(null, PRAGUE)).toBeNull();
    expect(formatOptionalTimestamp('2026-01-15T10:15:30Z', PRAGUE)).toBe('2026-01-15 11:15:30');
  });
});

describe('parsing timestamps', () => {
  it('reads ISO 8601 with Z', () => {
    expect(parseTimestamp('2026-07-01T10:15:30Z', PRAGUE)).toBe(Date.UTC(2026, 6, 1, 10, 15, 30));
  });

  it('reads ISO 8601 with an offset regardless of the configured zone', () => {
    expect(parseTimestamp('2026-07-01T12:15:30+02:00', PRAGUE)).toBe(Date.UTC(2026, 6, 1, 10, 15, 30));
    expect(parseTimestamp('2026-07-01T12:15:30+02:00', 'UTC')).toBe(Date.UTC(2026, 6, 1, 10, 15, 30));
    expect(parseTimestamp('2026-07-01T05:15:30-05:00', 'UTC')).toBe(Date.UTC(2026, 6, 1, 10, 15, 30));
    expect(parseTimestamp('2026-07-01T12:15:30+0200', 'UTC')).toBe(Date.UTC(2026, 6, 1, 10, 15, 30));
  });

  it('reads ISO 8601 with fractions of a second', () => {
    expect(parseTimestamp('2026-07-01T10:15:30.250Z', 'UTC')).toBe(Date.UTC(2026, 6, 1, 10, 15, 30, 250));
    expect(parseTimestamp('2026-07-01T10:15:30.123456789Z', 'UTC')).toBe(Date.UTC(2026, 6, 1, 10, 15, 30, 123));
  });

  it('reads ISO 8601 without an offset in the configured zone', () => {
    expect(parseTimestamp('2026-07-01T12:15:30', PRAGUE)).toBe(Date.UTC(2026, 6, 1, 10, 15, 30));
    expect(parseTimestamp('2026-01-15T11:15:30', PRAGUE)).toBe(Date.UTC(2026, 0, 15, 10, 15, 30));
    expect(parseTimestamp('2026-07-01T12:15:30', 'UTC')).toBe(Date.UTC(2026, 6, 1, 12, 15, 30));
  });

  it('reads YYYY-MM-DD HH:MM:SS in the configured zone, summer and winter', () => {
    expect(parseTimestamp('2026-07-01 12:15:30', PRAGUE)).toBe(Date.UTC(2026, 6, 1, 10, 15, 30));
    expect(parseTimestamp('2026-01-15 11:15:30', PRAGUE)).toBe(Date.UTC(2026, 0, 15, 10, 15, 30));
    expect(parseTimestamp('2026-01-15 11:15:30.123456', PRAGUE)).toBe(Date.UTC(2026, 0, 15, 10, 15, 30, 123));
  });

  it('reads back what it writes, in both zones', () => {
    for (const instant of ['2026-07-01T10:15:30Z', '2026-01-15T23:59:59Z', '2026-12-31T23:30:00Z', '2024-02-29T12:00:00Z']) {
      for (const zone of ['UTC', PRAGUE]) {
        expect(parseTimestamp(formatTimestamp(instant, zone), zone)).toBe(Date.parse(instant));
      }
    }
  });

  it('reads the wall times either side of the Prague spring-forward gap', () => {
    expect(parseTimestamp('2026-03-29 01:59:59', PRAGUE)).toBe(Date.UTC(2026, 2, 29, 0, 59, 59));
    expect(parseTimestamp('2026-03-29 03:00:00', PRAGUE)).toBe(Date.UTC(2026, 2, 29, 1, 0, 0));
    expect(parseTimestamp('2026-03-29 03:30:00', PRAGUE)).toBe(Date.UTC(2026, 2, 29, 1, 30, 0));
  });

  it('reads a wall time inside the spring-forward gap as the hour after it', () => {
    expect(parseTimestamp('2026-03-29 02:30:00', PRAGUE)).toBe(Date.UTC(2026, 2, 29, 1, 30, 0));
  });

  it('reads the wall times either side of the Prague fall-back hour', () => {
    expect(parseTimestamp('2026-10-25 01:59:59', PRAGUE)).toBe(Date.UTC(2026, 9, 24, 23, 59, 59));
    expect(parseTimestamp('2026-10-25 03:00:00', PRAGUE)).toBe(Date.UTC(2026, 9, 25, 2, 0, 0));
  });

  it('reads a repeated fall-back wall time as one of its two instants', () => {
    const ms = parseTimestamp('2026-10-25 02:30:00', PRAGUE);
    expect([Date.UTC(2026, 9, 25, 0, 30), Date.UTC(2026, 9, 25, 1, 30)]).toContain(ms);
    expect(formatTimestamp(ms!, PRAGUE)).toBe('2026-10-25 02:30:00');
  });

  it('refuses dates that do not exist', () => {
    expect(parseTimestamp('2026-02-30 10:00:00', PRAGUE)).toBeUndefined();
    expect(parseTimestamp('2026-02-29 10:00:00', PRAGUE)).toBeUndefined();
    expect(parseTimestamp('2026-13-01 10:00:00', PRAGUE)).toBeUndefined();
    expect(parseTimestamp('2026-04-31T10:00:00', PRAGUE)).toBeUndefined();
    expect(parseTimestamp('2026-02-30T10:00:00Z', PRAGUE)).toBeUndefined();
    expect(parseTimestamp('2026-02-30T10:00:00+01:00', PRAGUE)).toBeUndefined();
  });

  it('refuses times that do not exist', () => {
    expect(parseTimestamp('2026-01-01 24:00:00', PRAGUE)).toBeUndefined();
    expect(parseTimestamp('2026-01-01 10:60:00', PRAGUE)).toBeUndefined();
    expect(parseTimestamp('2026-01-01 10:00:60', PRAGUE)).toBeUndefined();
    expect(parseTimestamp('2026-01-01T24:00:00Z', PRAGUE)).toBeUndefined();
    expect(parseTimestamp('2026-01-01T10:61:00Z', PRAGUE)).toBeUndefined();
    expect(parseTimestamp('2026-01-01T10:00:00+25:00', PRAGUE)).toBeUndefined();
  });

  it('refuses text that is no timestamp', () => {
    for (const text of [
      '',
      'garbage',
      '2026-07-01',
      '10:15:30',
      '2026-7-1 10:15:30',
      '2026-07-01 10:15',
      '01.07.2026 10:15:30',
      '2026-07-01 10:15:30Z ',
      'null',
    ]) {
      expect(parseTimestamp(text, PRAGUE), text).toBeUndefined();
    }
  });
});
