import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { balanceAt, foldLedger, type PointFact } from '../support/ledger-oracle.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const stamp = (n: number) => `${n.toString(16).padStart(12, '0')}-0000-node`;

function collection(id: string, n: number, points: number, validDays: number | null): PointFact {
  return {
    id,
    kind: 'collection',
    points_milli: points * 1000,
    valid_to: validDays === null ? null : T0 + validDays * DAY,
    at: T0 + n,
    hlc: stamp(n),
  };
}
function redemption(id: string, n: number, points: number, atDay = 0): PointFact {
  return { id, kind: 'redemption', points_milli: points * 1000, valid_to: null, at: T0 + atDay * DAY + n, hlc: stamp(n) };
}

describe('the ledger fold', () => {
  it('a redemption consumes the record that expires first, then the next', () => {
    // 100 valid 30 days, 50 valid 10 days; redeem 80: the 10-day record gives 50, the 30-day 30.
    const facts = [collection('long', 1, 100, 30), collection('short', 2, 50, 10), redemption('r', 3, 80)];
    const fold = foldLedger(facts);
    expect(fold.available.get('short')).toBe(0);
    expect(fold.available.get('long')).toBe(70_000);
    expect(balanceAt(facts, fold, T0 + DAY)).toBe(70_000);
  });

  it('records that never expire are consumed last', () => {
    const facts = [collection('forever', 1, 100, null), collection('dated', 2, 100, 5), redemption('r', 3, 120)];
    const fold = foldLedger(facts);
    expect([fold.available.get('dated'), fold.available.get('forever')]).toEqual([0, 80_000]);
  });

  it('an expired record is not spent and no longer counts in the balance', () => {
    // 40 points expire on day 10; a redemption of 30 on day 20 finds nothing: debt 30.
    const facts = [collection('old', 1, 40, 10), redemption('r', 2, 30, 20)];
    const fold = foldLedger(facts);
    expect(fold.available.get('old')).toBe(40_000);
    expect(fold.debt).toBe(30_000);
    expect(balanceAt(facts, fold, T0 + 5 * DAY)).toBe(10_000);
    expect(balanceAt(facts, fold, T0 + 21 * DAY)).toBe(-30_000);
  });

  it('a redemption only consumes records that precede it by HLC', () => {
    const facts = [redemption('r', 1, 30), collection('later', 2, 100, null)];
    const fold = foldLedger(facts);
    // The redemption found nothing: a debt of 30, which the later collection pays off.
    expect(fold.debt).toBe(0);
    expect(fold.available.get('later')).toBe(70_000);
  });

  it('the same points spent twice leave a negative balance', () => {
    const facts = [collection('c', 1, 100, null), redemption('store-a', 2, 100), redemption('store-b', 3, 100)];
    const fold = foldLedger(facts);
    expect(balanceAt(facts, fold, T0)).toBe(-100_000);
  });

  it('gives the same result for any order in which the same facts arrive', () => {
    const fact = fc.record({
      kind: fc.constantFrom<'collection' | 'redemption'>('collection', 'redemption'),
      points: fc.integer({ min: 1, max: 500_000 }),
      validDays: fc.option(fc.integer({ min: 1, max: 60 }), { nil: null }),
      day: fc.integer({ min: 0, max: 90 }),
    });
    fc.assert(
      fc.property(fc.array(fact, { minLength: 1, maxLength: 40 }), fc.infiniteStream(fc.nat()), (drafts, randomness) => {
        const facts: PointFact[] = drafts.map((draft, index) => ({
          id: `f${index}`,
          kind: draft.kind,
          points_milli: draft.points,
          valid_to: draft.validDays === null ? null : T0 + (draft.day + draft.validDays) * DAY,
          at: T0 + draft.day * DAY + index,
          hlc: stamp(draft.day * DAY + index),
        }));
        const shuffled = [...facts];
        const picks = randomness.take(shuffled.length);
        let i = shuffled.length;
        for (const pick of picks) {
          i -= 1;
          const j = pick % (i + 1);
          [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
        }
        const a = foldLedger(facts);
        const b = foldLedger(shuffled);
        expect(b.debt).toBe(a.debt);
        expect([...b.available].sort()).toEqual([...a.available].sort());
        const end = T0 + 200 * DAY;
        expect(balanceAt(shuffled, b, end)).toBe(balanceAt(facts, a, end));
      }),
      { numRuns: 300 },
    );
  });
});
