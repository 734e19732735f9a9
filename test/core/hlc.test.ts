import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeHlc, encodeHlc, hlcOriginSql, HybridLogicalClock, originOfStamp, stampInOrigin, type HlcStamp } from '../../src/core/hlc.js';
import { migrate } from '../../src/db/migrate.js';
import { openDatabase } from '../../src/db/open.js';
import { databaseFile } from '../../src/root/node.js';
import { tempDir } from '../support/server.js';

const START = Date.UTC(2026, 4, 17, 9, 30, 0);
const HOUR = 3_600_000;

/** A wall clock tests set by hand. */
function wallClock(ms: number) {
  const wall = { ms, now: () => wall.ms };
  return wall;
}

function expectStrictlyIncreasing(stamps: string[]): void {
  for (let i = 1; i < stamps.length; i += 1) {
    if (!(stamps[i]! > stamps[i - 1]!)) throw new Error(`stamp ${i} ${stamps[i]} does not sort after ${stamps[i - 1]}`);
  }
}

function compareByFields(a: HlcStamp, b: HlcStamp): number {
  return a.ms - b.ms || a.counter - b.counter;
}

describe('the hybrid logical clock', () => {
  it('stamps with the wall clock millisecond and a zero counter while the wall clock moves forward', () => {
    const wall = wallClock(START);
    const hlc = new HybridLogicalClock('node0001', wall.now);
    expect(decodeHlc(hlc.now())).toEqual({ ms: START, counter: 0, node: 'node0001' });
    wall.ms += 5;
    expect(decodeHlc(hlc.now())).toEqual({ ms: START + 5, counter: 0, node: 'node0001' });
  });

  it('stays strictly increasing when the wall clock steps back by an hour', () => {
    const wall = wallClock(START);
    const hlc = new HybridLogicalClock('node0001', wall.now);
    const stamps: string[] = [];
    for (let i = 0; i < 100; i += 1) {
      stamps.push(hlc.now());
      wall.ms += 1;
    }
    wall.ms -= HOUR;
    for (let i = 0; i < 1000; i += 1) {
      stamps.push(hlc.now());
      wall.ms += 1;
    }
    expectStrictlyIncreasing(stamps);
    // While the wall clock is behind, the clock keeps the newest millisecond it issued.
    expect(decodeHlc(stamps[stamps.length - 1]!).ms).toBe(START + 99);
    expect(hlc.drift()).toBeGreaterThan(0);
  });

  it('catches up with the wall clock once it passes the last stamp again', () => {
    const wall = wallClock(START);
    const hlc = new HybridLogicalClock('node0001', wall.now);
    hlc.now();
    wall.ms = START - HOUR;
    hlc.now();
    wall.ms = START + 10;
    expect(decodeHlc(hlc.now())).toEqual({ ms: START + 10, counter: 0, node: 'node0001' });
    expect(hlc.drift()).toBe(0);
  });

  it('moves past a remote stamp that is ahead of it once observed', () => {
    const wall = wallClock(START);
    const hlc = new HybridLogicalClock('local001', wall.now);
    const before = hlc.now();
    const remote = encodeHlc({ ms: START + HOUR, counter: 7, node: 'remote01' });
    hlc.observe(remote);
    const after = hlc.now();
    expect(after > remote).toBe(true);
    expect(after > before).toBe(true);
    expect(decodeHlc(after)).toEqual({ ms: START + HOUR, counter: 8, node: 'local001' });
    expect(hlc.drift()).toBe(HOUR);
  });

  it('is not moved back by observing a remote stamp that is behind it', () => {
    const wall = wallClock(START);
    const hlc = new HybridLogicalClock('local001', wall.now);
    const before = hlc.now();
    hlc.observe(encodeHlc({ ms: START - HOUR, counter: 3, node: 'remote01' }));
    const after = hlc.now();
    expect(after > before).toBe(true);
    expect(decodeHlc(after)).toEqual({ ms: START, counter: 1, node: 'local001' });
  });

  it('sorts after a remote stamp of the same millisecond and counter from another node', () => {
    const wall = wallClock(START);
    const hlc = new HybridLogicalClock('aaaaaaaa', wall.now);
    const remote = encodeHlc({ ms: START, counter: 5, node: 'zzzzzzzz' });
    hlc.observe(remote);
    expect(hlc.now() > remote).toBe(true);
  });

  it('resumes past the stamp it is created from', () => {
    const wall = wallClock(START - HOUR);
    const last = encodeHlc({ ms: START, counter: 2, node: 'node0001' });
    const hlc = new HybridLogicalClock('node0001', wall.now, last);
    expect(hlc.now() > last).toBe(true);
  });

  it('orders encoded stamps as text exactly as by (ms, counter)', () => {
    const stamps: HlcStamp[] = [];
    const values = [0, 1, 9, 10, 15, 16, 255, 256, 4095, 4096, 0xffff];
    for (const ms of [0, 1, 15, 16, 255, 256, START, START + 1, 2 ** 40, 2 ** 48 - 1]) {
      for (const counter of values) stamps.push({ ms, counter, node: 'n' });
    }
    const byFields = [...stamps].sort(compareByFields).map(encodeHlc);
    const byText = stamps.map(encodeHlc).sort();
    expect(byText).toEqual(byFields);
  });

  it('keeps issuing increasing stamps when the counter of one millisecond is exhausted', () => {
    const wall = wallClock(START);
    const hlc = new HybridLogicalClock('node0001', wall.now);
    const stamps: string[] = [];
    for (let i = 0; i < 0x10000 + 10; i += 1) stamps.push(hlc.now());
    expectStrictlyIncreasing(stamps);
    expect(decodeHlc(stamps[0xffff]!)).toEqual({ ms: START, counter: 0xffff, node: 'node0001' });
    expect(decodeHlc(stamps[0x10000]!)).toEqual({ ms: START + 1, counter: 0, node: 'node0001' });
  });

  it('keeps issuing increasing stamps after observing a remote stamp with an exhausted counter', () => {
    const wall = wallClock(START);
    const hlc = new HybridLogicalClock('node0001', wall.now);
    const remote = encodeHlc({ ms: START, counter: 0xffff, node: 'remote01' });
    hlc.observe(remote);
    const next = hlc.now();
    expect(next > remote).toBe(true);
    expect(decodeHlc(next)).toEqual({ ms: START + 1, counter: 0, node: 'node0001' });
  });

  it('decodes what it encodes', () => {
    const samples: HlcStamp[] = [
      { ms: 0, counter: 0, node: 'a' },
      { ms: START, counter: 42, node: 'node0001' },
      { ms: 2 ** 48 - 1, counter: 0xffff, node: 'ff-with-dash' },
    ];
    for (const stamp of samples) expect(decodeHlc(encodeHlc(stamp))).toEqual(stamp);
    expect(encodeHlc({ ms: START, counter: 42, node: 'node0001' })).toBe(`${START.toString(16).padStart(12, '0')}-002a-node0001`);
  });

  it('refuses to decode text that is no stamp', () => {
    expect(() => decodeHlc('not a stamp')).toThrow(/not an HLC stamp/);
    expect(() => decodeHlc('0000000000-0000-node')).toThrow(/not an HLC stamp/);
    expect(() => decodeHlc('00000000000A-0000-node')).toThrow(/not an HLC stamp/);
  });
});

describe('a stamp’s origin', () => {
  const stamp = encodeHlc({ ms: START, counter: 7, node: 'store0042' });

  it('is the node that made the stamp, and a stamp of another time may be made in it', () => {
    expect(originOfStamp(stamp)).toBe('store0042');
    const later = encodeHlc({ ms: START + HOUR, counter: 1, node: 'hub00001' });
    expect(decodeHlc(stampInOrigin(later, originOfStamp(stamp)))).toEqual({ ms: START + HOUR, counter: 1, node: 'store0042' });
  });

  it('reads the same in SQL, and a query on it uses the index built on that expression', () => {
    const folder = tempDir('loyaltyd-hlc-origin-');
    const db = openDatabase(databaseFile(folder));
    try {
      migrate(db);
      expect(
        db
          .prepare<[string], string>(`SELECT ${hlcOriginSql('?')}`)
          .pluck()
          .get(stamp),
      ).toBe('store0042');
      const plan = db
        .prepare<[string], { detail: string }>(
          `EXPLAIN QUERY PLAN SELECT hlc FROM purchases WHERE ${hlcOriginSql('hlc')} = ? ORDER BY hlc DESC LIMIT 1`,
        )
        .all('store0042')
        .map((step) => step.detail);
      expect(plan.join('\n')).toContain('purchases_by_origin');
    } finally {
      db.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
