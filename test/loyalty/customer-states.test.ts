/**
 * DESIGN §5: a store's balance is the hub's published state of the customer plus the store's
 * own facts the state does not cover, and that must be what one fold of all the facts gives.
 * Three stores make point and credit facts for one customer with their stamps interleaved at
 * random; each has pushed some first part of them (the rest is late), and reported a
 * pushed-through stamp between what it pushed and what it did not. The hub applies what was
 * pushed and publishes the state; each store holds all of its own facts and the state row.
 * At any moment, every store's balances and the hub's equal the fold and the sum of the facts
 * that node can know of: the pushed ones plus its own; so do the points left on each record
 * the hub holds, and on each of a store's own records with an expiry (never-expiring ones it
 * can only share out among the records it holds). The same holds for the state published
 * before the stores reported (the pushed facts all in its tail) and for the settled one, and
 * for the totals — what those facts earned and redeemed — which the wallet's overviews answer.
 */
import fc from 'fast-check';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/core/config.js';
import { balanceAt, foldLedger, type PointFact } from '../support/ledger-oracle.js';
import { migrate } from '../../src/db/migrate.js';
import { MIGRATIONS } from '../../src/db/migrations/index.js';
import { openDatabase } from '../../src/db/open.js';
import { databaseFile, openNode, type Node } from '../../src/root/node.js';
import { encodeHlc } from '../../src/core/hlc.js';
import { CustomerStates } from '../../src/loyalty/customer-states.js';
import { sumStates } from '../../src/loyalty/state-settling.js';
import type { RowChange } from '../../src/sync/protocol/protocol.js';
import { tempDir } from '../support/server.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
/** The facts span at most 30 hours from T0; balances are read from now on, as the API reads them. */
const NOW = T0 + 2 * DAY;
const CUSTOMER = 'c0ffee00000000000000000001';
const STORES = ['a1a1a1a1', 'b2b2b2b2', 'c3c3c3c3'];
const OFFLINE: Config['offline'] = { redemption_margin_points: 0, max_age_hours: 24 * 365 };

const folders: string[] = [];
const nodes: Node[] = [];
afterAll(() => {
  for (const node of nodes) node.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function open(mode: 'hub' | 'store'): Node {
  const folder = tempDir(`loyaltyd-states-${mode}-`);
  const node = openNode({ data_dir: folder, mode, offline: OFFLINE }, () => NOW);
  folders.push(folder);
  nodes.push(node);
  node.writes.write(null, (tx) => tx.insert('customers', { id: CUSTOMER, first_name: 'Fold' }));
  return node;
}

const hub = open('hub');
const stores = STORES.map(() => open('store'));

const draft = fc.record({
  store: fc.integer({ min: 0, max: 2 }),
  kind: fc.constantFrom<Kind>('collection', 'collection', 'redemption', 'credit'),
  points: fc.integer({ min: 1, max: 200 }),
  validDays: fc.option(fc.integer({ min: 1, max: 40 }), { nil: null }),
});

type Kind = 'collection' | 'redemption' | 'credit';

interface Fact extends PointFact {
  store: number;
  /** Credit in minor units, negative for a redemption; undefined on a point fact. */
  credit?: number;
}

function toChange(fact: Fact): RowChange {
  if (fact.credit !== undefined) {
    const row = {
      id: fact.id,
      customer_id: CUSTOMER,
      kind: fact.credit >= 0 ? 'collection' : 'redemption',
      amount_minor: Math.abs(fact.credit),
      created_at: new Date(fact.at).toISOString(),
      state: 1,
      hlc: fact.hlc,
      last_change: new Date(fact.at).toISOString(),
    };
    return { entity: 'credit_records', entity_id: fact.id, op: 'insert', row, hlc: fact.hlc };
  }
  const row = {
    id: fact.id,
    customer_id: CUSTOMER,
    kind: fact.kind,
    points_milli: fact.points_milli,
    valid_to: fact.valid_to === null ? null : new Date(fact.valid_to).toISOString(),
    created_at: new Date(fact.at).toISOString(),
    state: 1,
    hlc: fact.hlc,
    last_change: new Date(fact.at).toISOString(),
  };
  return { entity: 'point_records', entity_id: fact.id, op: 'insert', row, hlc: fact.hlc };
}

let run = 0;

/** Stamps one per hour from day 0, interleaving the stores as drawn. */
function factsOf(drafts: { store: number; kind: Kind; points: number; validDays: number | null }[], run: number): Fact[] {
  return drafts.map((d, index) => {
    const ms = T0 + index * 3_600_000;
    return {
      id: `${run.toString(16).padStart(8, '0')}f${index.toString().padStart(4, '0')}`,
      store: d.store,
      kind: d.kind === 'credit' ? 'collection' : d.kind,
      credit: d.kind === 'credit' ? (d.points % 2 === 0 ? d.points : -d.points) * 10 : undefined,
      points_milli: d.points * 1000,
      valid_to: d.kind === 'collection' && d.validDays !== null ? ms + d.validDays * DAY : null,
      at: ms,
      hlc: encodeHlc({ ms, counter: 0, node: STORES[d.store]! }),
    };
  });
}

describe('customer states', () => {
  it('a store’s balance — the hub’s state plus its uncovered facts — is the fold of every fact it can know of, for any interleaving and late pushes', () => {
    fc.assert(
      fc.property(
        fc.array(draft, { minLength: 1, maxLength: 30 }),
        fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
        fc.integer({ min: 0, max: 60 * 24 }),
        (drafts, pushedCounts, atHour) => {
          run += 1;
          const facts = factsOf(drafts, run);
          const ofStore = STORES.map((_, s) => facts.filter((fact) => fact.store === s));
          const pushed = ofStore.map((own, s) => own.slice(0, pushedCounts[s]! % (own.length + 1)));
          // Each store reports everything before its first late fact as pushed.
          const pushedThrough = ofStore.map((own, s) => {
            const late = own[pushed[s]!.length];
            return late ? encodeHlc({ ms: late.at - 1, counter: 0, node: STORES[s]! }) : encodeHlc({ ms: NOW - 1, counter: 0, node: STORES[s]! });
          });

          const at = NOW + atHour * 3_600_000;
          // Published before any store reported (every pushed fact in the tail), then settled.
          for (const reported of [false, true]) {
            reset(hub);
            hub.db.transaction(() => {
              for (const fact of pushed.flat()) hub.replicated.apply(toChange(fact), true);
              const clock = hub.db.prepare('INSERT INTO sync_node_clocks (node_id, pushed_through, reported_at) VALUES (?, ?, ?)');
              const stamps = reported ? pushedThrough : STORES.map((node) => encodeHlc({ ms: T0 - 1, counter: 0, node }));
              stamps.forEach((stamp, s) => clock.run(STORES[s]!, stamp, new Date(NOW).toISOString()));
            })();
            hub.writes.write(null, (tx) => hub.states!.publish(tx, [CUSTOMER]));
            const state = hub.db.prepare('SELECT * FROM customer_states WHERE id = ?').get(CUSTOMER) as Record<string, string | number>;
            expectLedger(hub, pushed.flat(), pushed.flat(), at);
            stores.forEach((store, s) => {
              reset(store);
              store.db.transaction(() => {
                for (const fact of ofStore[s]!) store.replicated.apply(toChange(fact), false);
                store.replicated.apply({ entity: 'customer_states', entity_id: CUSTOMER, op: 'insert', row: state, hlc: String(state.hlc) }, false);
              })();
              const known = [...pushed.flat(), ...ofStore[s]!.slice(pushed[s]!.length)];
              expectLedger(
                store,
                known,
                ofStore[s]!.filter((fact) => fact.valid_to !== null),
                at,
              );
            });
          }
        },
      ),
      { numRuns: 200 },
    );
    // 200 runs take ~10 s alone; a loaded 2-core machine needs several times that.
  }, 120_000);
});

describe('folding a state on from the one published before', () => {
  const twin = open('hub');
  const stateRow = (node: Node) =>
    node.db
      .prepare(
        `SELECT horizon, lots, debt_milli, tail, credit_minor, credit_tail, earned_milli, redeemed_milli, earned_credit_minor, redeemed_credit_minor
         FROM customer_states WHERE id = ?`,
      )
      .get(CUSTOMER);
  const setClocks = (node: Node, stamps: string[]) => {
    node.db.exec('DELETE FROM sync_node_clocks');
    const clock = node.db.prepare('INSERT INTO sync_node_clocks (node_id, pushed_through, reported_at) VALUES (?, ?, ?)');
    stamps.forEach((stamp, s) => clock.run(STORES[s]!, stamp, new Date(NOW).toISOString()));
  };

  it('gives the state a fold of every fact gives, as facts arrive in any order (late ones too) and the horizon moves on or back', () => {
    fc.assert(
      fc.property(
        fc.array(draft, { minLength: 1, maxLength: 30 }),
        fc.array(fc.nat(), { minLength: 30, maxLength: 30 }),
        fc.array(fc.record({ take: fc.nat(12), through: fc.array(fc.nat(32), { minLength: 3, maxLength: 3 }) }), { minLength: 1, maxLength: 6 }),
        (drafts, arrivalKeys, steps) => {
          run += 1;
          const facts = factsOf(drafts, run);
          const arrival = facts
            .map((fact, index) => ({ fact, key: arrivalKeys[index]! }))
            .sort((a, b) => a.key - b.key)
            .map(({ fact }) => fact);
          reset(hub);
          reset(twin);
          let next = 0;
          for (const step of steps) {
            const changes = arrival.slice(next, next + step.take).map(toChange);
            next += step.take;
            const clocks = step.through.map((hours, s) => encodeHlc({ ms: T0 - 1 + hours * 3_600_000, counter: 0, node: STORES[s]! }));
            for (const node of [hub, twin]) {
              node.db.transaction(() => {
                for (const change of changes) node.replicated.apply(change, true);
                setClocks(node, clocks);
              })();
            }
            hub.writes.write(null, (tx) => hub.states!.publish(tx, [CUSTOMER], CustomerStates.touched(changes)));
            twin.db.exec('DELETE FROM customer_states');
            twin.writes.write(null, (tx) => twin.states!.publish(tx, [CUSTOMER]));
            expect(stateRow(hub)).toEqual(stateRow(twin));
          }
        },
      ),
      { numRuns: 200 },
    );
  }, 120_000);
});

describe('a hub opened on records with no state (upgraded from schema 8)', () => {
  it('publishes their states at its first start, and reads the records for it no more at later starts', () => {
    const folder = tempDir('loyaltyd-states-sweep-');
    folders.push(folder);
    const db = openDatabase(databaseFile(folder));
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version < 9),
    );
    const record = db.prepare(
      `INSERT INTO point_records (id, customer_id, kind, points_milli, valid_to, created_at, state, hlc, last_change)
       VALUES (?, ?, 'collection', 5000, NULL, '2026-01-01T00:00:00.000Z', 1, ?, '2026-01-01')`,
    );
    db.prepare("INSERT INTO customers (id, first_name, hlc, last_change) VALUES (?, 'Old', '000000000001-0000-test', '2026-01-01')").run(CUSTOMER);
    record.run('5ea7f0000000000000000000a1', CUSTOMER, '000000000001-0000-test');
    db.close();
    const states = (node: Node) => node.db.prepare<[], number>('SELECT count(*) FROM customer_states').pluck().get();
    const first = openNode({ data_dir: folder, mode: 'hub', offline: OFFLINE }, () => NOW);
    expect(states(first)).toBe(1);
    expect(first.db.prepare("SELECT value FROM meta WHERE key = 'customer_states.swept_at'").pluck().get()).toBe(new Date(NOW).toISOString());
    // A record written behind the daemon's back (src/decisions/0042-state-in-every-write.md): in a state from the customer's next write, not from a start.
    first.db.exec('DELETE FROM customer_states; DELETE FROM customer_state_tails');
    first.close();
    const second = openNode({ data_dir: folder, mode: 'hub', offline: OFFLINE }, () => NOW);
    expect(states(second)).toBe(0);
    second.close();
  });
});

describe('states published before they carried sums', () => {
  const unsum = (node: Node) =>
    node.db.exec('UPDATE customer_states SET earned_milli = NULL, redeemed_milli = NULL, earned_credit_minor = NULL, redeemed_credit_minor = NULL');
  const facts = factsOf(
    [
      { store: 0, kind: 'collection', points: 50, validDays: null },
      { store: 1, kind: 'redemption', points: 20, validDays: null },
      { store: 0, kind: 'credit', points: 8, validDays: null },
      { store: 1, kind: 'credit', points: 3, validDays: null },
    ],
    (run += 1),
  );
  const totals = { earnedMilli: 50_000, redeemedMilli: 20_000, earnedCreditMinor: 80, redeemedCreditMinor: 30 };
  const stateOf = (node: Node) => node.db.prepare('SELECT * FROM customer_states WHERE id = ?').get(CUSTOMER) as Record<string, string | number>;
  /** The facts, applied at the hub with every store reporting it pushed everything up to `throughMs`. */
  const applyAtHub = (changes: RowChange[], throughMs = NOW - 1) =>
    hub.db.transaction(() => {
      for (const change of changes) hub.replicated.apply(change, true);
      const clock = hub.db.prepare('INSERT OR REPLACE INTO sync_node_clocks (node_id, pushed_through, reported_at) VALUES (?, ?, ?)');
      for (const node of STORES) clock.run(node, encodeHlc({ ms: throughMs, counter: 0, node }), new Date(NOW).toISOString());
    })();

  it('give a store no totals until the hub sums them again, batch by batch, from every fact', async () => {
    const [store] = stores as [Node];
    reset(hub);
    reset(store);
    applyAtHub(facts.map(toChange));
    hub.writes.write(null, (tx) => hub.states!.publish(tx, [CUSTOMER]));
    expect(stateOf(hub).tail).toBe('[]');
    unsum(hub);
    store.replicated.apply({ entity: 'customer_states', entity_id: CUSTOMER, op: 'insert', row: stateOf(hub), hlc: String(stateOf(hub).hlc) }, false);
    expect(store.balances.totals(CUSTOMER)).toBeUndefined();
    expect(hub.states!.unsummedCustomers(10)).toEqual([CUSTOMER]);

    expect(await sumStates(hub.states!, hub.writes)).toBe(1);
    expect(hub.states!.unsummedCustomers(10)).toEqual([]);
    expect(hub.states!.unsummedCount()).toBe(0);
    const summed = stateOf(hub);
    store.replicated.apply({ entity: 'customer_states', entity_id: CUSTOMER, op: 'update', row: summed, hlc: String(summed.hlc) }, false);
    expect(store.balances.totals(CUSTOMER)).toEqual(totals);
  });

  it('are found by their partial index, which holds them alone, not by reading every state; a fresh store that dropped it finds them still', () => {
    const plan = (sql: string) =>
      (hub.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(sql.includes('?') ? [10] : [])) as { detail: string }[]).map((step) => step.detail);
    for (const sql of [
      'SELECT id FROM customer_states WHERE earned_milli IS NULL LIMIT ?',
      'SELECT count(*) FROM customer_states WHERE earned_milli IS NULL',
    ])
      expect(plan(sql)).toEqual([expect.stringMatching(/^SCAN customer_states USING (COVERING )?INDEX customer_states_unsummed$/)]);
    // A store that bootstraps with nothing drops its secondary indexes until the snapshot is in
    // (src/sync/store/bootstrap-indexes.ts), and a CLI command opens it meanwhile.
    const fresh = open('store');
    fresh.db.exec('DROP INDEX customer_states_unsummed');
    const states = new CustomerStates(fresh.db, () => '');
    expect([states.unsummedCustomers(10), states.unsummedCount()]).toEqual([[], 0]);
  });

  it('are folded from every fact at the customer’s next write, not on from the state', () => {
    reset(hub);
    // The horizon between the first two facts and the later ones, which the next state folds on with.
    applyAtHub(facts.slice(0, 2).map(toChange), T0 + 90 * 60_000);
    hub.writes.write(null, (tx) => hub.states!.publish(tx, [CUSTOMER]));
    expect(stateOf(hub).tail).toBe('[]');
    unsum(hub);
    const later = facts.slice(2).map(toChange);
    applyAtHub(later);
    hub.writes.write(null, (tx) => hub.states!.publish(tx, [CUSTOMER], CustomerStates.touched(later)));
    expect(hub.balances.totals(CUSTOMER)).toEqual(totals);
  });
});

describe('points left on a record', () => {
  it('a lot of records that never expire is shared out as the fold spent it: the oldest first', () => {
    const facts: Fact[] = [10, 10, 10, -15].map((points, index) => {
      const ms = T0 + index * 3_600_000;
      const kind = points > 0 ? 'collection' : 'redemption';
      return {
        id: `5ea7f${index}`,
        store: 0,
        kind,
        points_milli: Math.abs(points) * 1000,
        valid_to: null,
        at: ms,
        hlc: encodeHlc({ ms, counter: 0, node: STORES[0]! }),
      };
    });
    reset(hub);
    hub.db.transaction(() => {
      for (const fact of facts) hub.replicated.apply(toChange(fact), true);
      hub.db
        .prepare('INSERT INTO sync_node_clocks (node_id, pushed_through, reported_at) VALUES (?, ?, ?)')
        .run(STORES[0]!, encodeHlc({ ms: NOW - 1, counter: 0, node: STORES[0]! }), new Date(NOW).toISOString());
    })();
    hub.writes.write(null, (tx) => hub.states!.publish(tx, [CUSTOMER]));
    const standing = hub.balances.standingByRecord(CUSTOMER, NOW);
    expect(facts.slice(0, 3).map((fact) => standing.pointsLeftMilli({ ...fact, valid_to: null, state: 1 }))).toEqual([0, 5000, 10_000]);
  });
});

/** The node's balances are the fold and sum of `known`, and each of `records` has what that fold leaves on it. */
function expectLedger(node: Node, known: Fact[], records: Fact[], at: number): void {
  const points = known.filter((fact) => fact.credit === undefined);
  const fold = foldLedger(points);
  const balances = node.balances.balancesAt(CUSTOMER, at);
  expect(balances.pointsMilli).toBe(balanceAt(points, fold, at));
  expect(balances.creditMinor).toBe(known.reduce((sum, fact) => sum + (fact.credit ?? 0), 0));
  const credits = known.flatMap((fact) => (fact.credit === undefined ? [] : [fact.credit]));
  const pointsOf = (kind: Fact['kind']) => points.filter((fact) => fact.kind === kind).reduce((sum, fact) => sum + fact.points_milli, 0);
  expect(node.balances.totals(CUSTOMER)).toEqual({
    earnedMilli: pointsOf('collection'),
    redeemedMilli: pointsOf('redemption'),
    earnedCreditMinor: credits.filter((credit) => credit > 0).reduce((sum, credit) => sum + credit, 0),
    redeemedCreditMinor: credits.filter((credit) => credit < 0).reduce((sum, credit) => sum - credit, 0),
  });
  const standing = node.balances.standingByRecord(CUSTOMER, at);
  for (const fact of records.filter((record) => record.credit === undefined && record.kind === 'collection')) {
    const record = { ...fact, valid_to: fact.valid_to === null ? null : new Date(fact.valid_to).toISOString(), state: 1 };
    expect(standing.pointsLeftMilli(record), `points left on ${fact.id}`).toBe(fold.available.get(fact.id));
  }
}

function reset(node: Node): void {
  node.db.exec('DELETE FROM point_records; DELETE FROM credit_records; DELETE FROM customer_states; DELETE FROM sync_node_clocks;');
}
