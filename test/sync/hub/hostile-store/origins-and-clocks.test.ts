/**
 * Origins, stamps and reports a hostile store crafts (DESIGN §5 "Authority", "Clocks"): a command
 * stamped with the hub's origin or another node's id is rejected and binds that origin to no
 * one; a stamp ten years ahead is brought back to the hub's clock before it is kept as the
 * node's progress or with a held command; a pushed-through report behind what the node had
 * acknowledged, or ahead of the hub, does not move the horizon's bound back or into the future.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../../../src/demo/demo.js';
import { msOfStamp, originOfStamp } from '../../../../src/core/hlc.js';
import { call } from '../../../support/server.js';
import { count } from '../../../support/node-reads.js';
import { HOSTILE_ORIGIN, nodeHeaders, push, stampAt, startChain, type Chain } from './crafted-commands.js';

const EVA = DEMO_IDS.customerEva;
const YEAR_MS = 365 * 86_400_000;

let chain: Chain;
let hostileNodeId: string;

const points = (customerId: string) => chain.hub.app.node.balances.balancesAt(customerId, chain.hub.clock.now()).pointsMilli;
const skewMs = () => chain.hub.config.sync.max_clock_skew_seconds * 1000;
const assign = (amount: number) => ({ kind: 'points.assign', body: { customer_id: EVA, amount } });

beforeAll(async () => {
  chain = await startChain();
  hostileNodeId = chain.hub.app.node.db.prepare("SELECT id FROM nodes WHERE name = 'store-hostile'").pluck().get() as string;
});

afterAll(async () => {
  await chain?.close();
});

describe('a hostile store stamping its commands', () => {
  it("has a command stamped with the hub's own origin rejected, and that origin bound to no one", async () => {
    const hubOrigin = chain.hub.app.node.identity.nodeId;
    const before = points(EVA);
    const [result] = await push(chain.hub, chain.hostile, 'hub-origin', [{ ...assign(10), hlc: stampAt(chain.hub.clock.now(), hubOrigin) }]);
    expect(result).toMatchObject({ status: 'rejected', reason: expect.stringContaining("the hub's own origin") });
    expect(count(chain.hub, 'SELECT count(*) AS n FROM sync_node_origins WHERE origin = ?', hubOrigin)).toBe(0);
    expect(points(EVA)).toBe(before);
  });

  it("has a command stamped with another node's id rejected, and that id bound to no one", async () => {
    const honestNodeId = chain.hub.app.node.db.prepare("SELECT id FROM nodes WHERE name = 'store-honest'").pluck().get() as string;
    const before = points(EVA);
    const [result] = await push(chain.hub, chain.hostile, 'node-origin', [{ ...assign(10), hlc: stampAt(chain.hub.clock.now(), honestNodeId) }]);
    expect(result).toMatchObject({ status: 'rejected', reason: expect.stringContaining("another node's id") });
    expect(count(chain.hub, 'SELECT count(*) AS n FROM sync_node_origins WHERE origin = ?', honestNodeId)).toBe(0);
    expect(points(EVA)).toBe(before);
  });

  it('has a stamp ten years ahead kept at the hub’s time, in its origin, as its progress and with a held command', async () => {
    const ahead = stampAt(chain.hub.clock.now() + 10 * YEAR_MS);
    // The second is past the node's manual points for Eva's day: held, with the stamp it came with.
    const results = await push(chain.hub, chain.hostile, 'ten-years-ahead', [
      { ...assign(1), hlc: ahead },
      { ...assign(900_000), hlc: stampAt(chain.hub.clock.now() + 10 * YEAR_MS + 1) },
    ]);
    expect(results.map((result) => result.status)).toEqual(['applied', 'held']);
    const kept = chain.hub.app.node.db.prepare('SELECT last_hlc FROM sync_node_progress WHERE node_id = ? AND generation = ?').pluck();
    const lastHlc = kept.get(hostileNodeId, 'ten-years-ahead') as string;
    expect(msOfStamp(lastHlc)).toBeLessThanOrEqual(chain.hub.clock.now() + skewMs());
    expect(originOfStamp(lastHlc)).toBe(HOSTILE_ORIGIN);
    const held = chain.hub.app.node.db
      .prepare("SELECT hlc FROM held_commands WHERE node_id = ? AND state = 'held'")
      .pluck()
      .all(hostileNodeId) as string[];
    expect(held).toHaveLength(1);
    expect(msOfStamp(held[0]!)).toBeLessThanOrEqual(chain.hub.clock.now() + skewMs());
    expect(originOfStamp(held[0]!)).toBe(HOSTILE_ORIGIN);
  });
});

describe("a hostile store's pushed-through reports", () => {
  const report = (pushedThrough: string) =>
    call('GET', `${chain.hub.url}/sync/v1/changes?after=0&limit=1&pushed_through=${encodeURIComponent(pushedThrough)}`, {
      headers: nodeHeaders(chain.hostile),
    });
  const kept = () =>
    chain.hub.app.node.db.prepare('SELECT pushed_through FROM sync_node_clocks WHERE node_id = ?').pluck().get(hostileNodeId) as string;
  const newestApplied = () =>
    chain.hub.app.node.db.prepare('SELECT max(last_hlc) FROM sync_node_progress WHERE node_id = ?').pluck().get(hostileNodeId) as string;

  it('keeps no report behind the newest stamp of its commands the hub applied, nor behind its previous one', async () => {
    const [applied] = await push(chain.hub, chain.hostile, 'reports', [assign(1)]);
    expect(applied!.status).toBe('applied');
    const dayAgo = stampAt(chain.hub.clock.now() - 86_400_000);
    expect((await report(dayAgo)).status).toBe(200);
    expect(kept() >= newestApplied()).toBe(true);
    expect(kept()).not.toBe(dayAgo);

    chain.hub.clock.advance(1000);
    const fresh = stampAt(chain.hub.clock.now() - 1);
    expect((await report(fresh)).status).toBe(200);
    expect(kept()).toBe(fresh);
    expect((await report(stampAt(chain.hub.clock.now() - 3_600_000))).status).toBe(200);
    expect(kept()).toBe(fresh);
  });

  it("keeps a report ahead of the hub at the hub's clock, in the store's origin", async () => {
    expect((await report(stampAt(chain.hub.clock.now() + 10 * YEAR_MS))).status).toBe(200);
    expect(msOfStamp(kept())).toBeLessThanOrEqual(Date.now() + skewMs());
    expect(originOfStamp(kept())).toBe(HOSTILE_ORIGIN);
  });
});
