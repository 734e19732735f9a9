/**
 * DESIGN §5: a store's balance is the hub's published state of the customer plus the store's
 * own facts the state does not cover, and that must be what one fold of all the facts gives.
 * Three stores make facts for one customer with their stamps interleaved at random; each has
 * pushed some first part of them (the rest is late), and reported a pushed-through stamp
 * between what it pushed and what it did not. The hub applies what was pushed and publishes
 * the state; each store holds all of its own facts and the state row. At any moment, every
 * store's balance and the hub's equal the fold of the facts that node can know of: the
 * pushed ones plus its own.
 */
import fc from 'fast-check';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import { balanceAt, foldLedger, type PointFact } from '../../src/loyalty/ledger-fold.js';
import { openNode, type Node } from '../../src/node.js';
import { encodeHlc } from '../../src/sync/hlc.js';
import type { RowChange } from '../../src/sync/protocol.js';
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
  kind: fc.constantFrom<'collection' | 'redemption'>('collection', 'collection', 'redemption'),
  points: fc.integer({ min: 1, max: 200 }),
  validDays: fc.option(fc.integer({ min: 1, max: 40 }), { nil: null }),
});

interface Fact extends PointFact {
  store: number;
}

function toChange(fact: Fact): RowChange {
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

describe('customer states', () => {
  it('a store’s balance — the hub’s state plus its uncovered facts — is the fold of every fact it can know of, for any interleaving and late pushes', () => {
    fc.assert(
      fc.property(
        fc.array(draft, { minLength: 1, maxLength: 30 }),
        fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
        fc.integer({ min: 0, max: 60 * 24 }),
        (drafts, pushedCounts, atHour) => {
          run += 1;
          // Stamps one per hour from day 0, interleaving the stores as drawn.
          const facts: Fact[] = drafts.map((d, index) => {
            const ms = T0 + index * 3_600_000;
            return {
              id: `${run.toString(16).padStart(8, '0')}f${index.toString().padStart(4, '0')}`,
              store: d.store,
              kind: d.kind,
              points_milli: d.points * 1000,
              valid_to: d.kind === 'collection' && d.validDays !== null ? ms + d.validDays * DAY : null,
              at: ms,
              hlc: encodeHlc({ ms, counter: 0, node: STORES[d.store]! }),
            };
          });
          const ofStore = STORES.map((_, s) => facts.filter((fact) => fact.store === s));
          const pushed = ofStore.map((own, s) => own.slice(0, pushedCounts[s]! % (own.length + 1)));
          // Each store reports everything before its first late fact as pushed.
          const pushedThrough = ofStore.map((own, s) => {
            const late = own[pushed[s]!.length];
            return late ? encodeHlc({ ms: late.at - 1, counter: 0, node: STORES[s]! }) : encodeHlc({ ms: NOW - 1, counter: 0, node: STORES[s]! });
          });

          reset(hub);
          hub.db.transaction(() => {
            for (const fact of pushed.flat()) hub.writes.applyReplicated(toChange(fact), true);
            const clock = hub.db.prepare('INSERT INTO sync_node_clocks (node_id, pushed_through, reported_at) VALUES (?, ?, ?)');
            pushedThrough.forEach((stamp, s) => clock.run(STORES[s]!, stamp, new Date(NOW).toISOString()));
          })();
          hub.writes.write(null, (tx) => hub.states!.publish(tx, [CUSTOMER]));
          const state = hub.db.prepare('SELECT * FROM customer_states WHERE id = ?').get(CUSTOMER) as Record<string, string | number>;

          const at = NOW + atHour * 3_600_000;
          const expected = (known: Fact[]) => balanceAt(known, foldLedger(known), at);
          expect(hub.ledgers.balancesAt(CUSTOMER, at).pointsMilli).toBe(expected(pushed.flat()));
          stores.forEach((store, s) => {
            reset(store);
            store.db.transaction(() => {
              for (const fact of ofStore[s]!) store.writes.applyReplicated(toChange(fact), false);
              store.writes.applyReplicated({ entity: 'customer_states', entity_id: CUSTOMER, op: 'insert', row: state, hlc: String(state.hlc) }, false);
            })();
            const known = [...pushed.flat(), ...ofStore[s]!.slice(pushed[s]!.length)];
            expect(store.ledgers.balancesAt(CUSTOMER, at).pointsMilli).toBe(expected(known));
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});

function reset(node: Node): void {
  node.db.exec('DELETE FROM point_records; DELETE FROM customer_states; DELETE FROM sync_node_clocks;');
}
