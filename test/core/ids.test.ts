import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/core/clock.js';
import { createIdGenerator, ID_PATTERN, idTime } from '../../src/core/ids.js';

const COUNT = 1_000_000;
const START = Date.UTC(2026, 4, 17, 9, 30, 0);

/**
 * Draws COUNT ids and checks, one by one, that each is well formed, sorts strictly after
 * the one before (which alone proves them unique), and carries in its first 12 hex digits
 * the newest millisecond the clock has shown: a clock that steps back must not pull ids
 * back in time. Returns the ids.
 */
function checkIds(clock: Clock & { latest(): number }): string[] {
  const newId = createIdGenerator(clock);
  const ids: string[] = [];
  let previous = '';
  for (let i = 0; i < COUNT; i += 1) {
    const id = newId();
    if (!ID_PATTERN.test(id)) throw new Error(`id ${i} is malformed: ${id}`);
    if (!(id > previous)) throw new Error(`id ${i} ${id} does not sort after ${previous}`);
    if (idTime(id) !== clock.latest()) throw new Error(`id ${i} ${id} carries ${idTime(id)}, the clock said ${clock.latest()}`);
    ids.push(id);
    previous = id;
  }
  return ids;
}

/** A clock that shows `next(call)` on each call and remembers the newest time it showed. */
function scriptedClock(next: (call: number) => number): Clock & { latest(): number } {
  let call = 0;
  let latest = -Infinity;
  const clock = () => {
    const now = next(call);
    call += 1;
    latest = Math.max(latest, now);
    return now;
  };
  return Object.assign(clock, { latest: () => latest });
}

describe('record ids', () => {
  it('are 26 lowercase hex characters', () => {
    const newId = createIdGenerator(() => START);
    expect(newId()).toMatch(/^[0-9a-f]{26}$/);
    expect(ID_PATTERN.test('0123456789abcdef0123456789')).toBe(true);
    expect(ID_PATTERN.test('0123456789ABCDEF0123456789')).toBe(false);
    expect(ID_PATTERN.test('0123456789abcdef012345678')).toBe(false);
  });

  it('begin with the clock millisecond as 12 hex digits', () => {
    const newId = createIdGenerator(() => START);
    const id = newId();
    expect(id.slice(0, 12)).toBe(START.toString(16).padStart(12, '0'));
    expect(idTime(id)).toBe(START);
  });

  it('a million ids from a clock advancing every 50 calls are unique, strictly increasing and carry the clock time', () => {
    const ids = checkIds(scriptedClock((call) => START + Math.floor(call / 50)));
    expect(new Set(ids).size).toBe(COUNT);
  });

  it('a million ids from a clock frozen on one millisecond are unique, strictly increasing and carry that millisecond', () => {
    const ids = checkIds(scriptedClock(() => START));
    expect(ids).toHaveLength(COUNT);
    expect(idTime(ids[COUNT - 1]!)).toBe(START);
  });

  it('a million ids from a clock that steps back an hour midway stay unique and strictly increasing', () => {
    const clock = scriptedClock((call) => (call < COUNT / 2 ? START + Math.floor(call / 50) : START - 3_600_000 + Math.floor(call / 50)));
    const ids = checkIds(clock);
    expect(ids).toHaveLength(COUNT);
    expect(clock.latest()).toBeGreaterThan(START);
  });

  it('from two generators on the same millisecond do not collide', () => {
    const first = createIdGenerator(() => START);
    const second = createIdGenerator(() => START);
    const ids = new Set<string>();
    for (let i = 0; i < 10_000; i += 1) {
      ids.add(first());
      ids.add(second());
    }
    expect(ids.size).toBe(20_000);
  });
});
