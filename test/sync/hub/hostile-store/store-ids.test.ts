/**
 * Store ids a hostile store names (DESIGN §5 "Authority"): every store id anywhere in an
 * operation's input is checked against the stores its node serves, nested ones included, and a
 * voucher's use at a store names its store — the hub rejects a store's command that leaves it
 * out, and a store with a hub answers such a call 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../../../src/demo/demo.js';
import { call } from '../../../support/server.js';
import { count } from '../../../support/node-reads.js';
import { demoId } from '../../../support/ids.js';
import { push, startChain, type Chain, honestLogin } from './crafted-commands.js';

const EVA = DEMO_IDS.customerEva;
const VOUCHER = demoId(0x701);

let chain: Chain;

beforeAll(async () => {
  // The hostile node serves the central store alone.
  chain = await startChain({ hostileStores: [DEMO_IDS.storeCentral] });
});

afterAll(async () => {
  await chain?.close();
});

describe('a hostile store naming stores', () => {
  it('has an operation naming a store it does not serve deep in its input rejected, and nothing of it applied', async () => {
    const storeOf = () => chain.hub.app.node.db.prepare('SELECT store_id FROM customers WHERE id = ?').pluck().get(EVA);
    const before = storeOf();
    const [result] = await push(chain.hub, chain.hostile, 'nested-store', [
      {
        kind: 'customers.update',
        params: { customer_id: EVA },
        body: { customer: { personal_information: { first_name: 'Eve', store_id: DEMO_IDS.storeAirport } } },
      },
    ]);
    expect(result).toMatchObject({ status: 'rejected', reason: expect.stringContaining(`names store ${DEMO_IDS.storeAirport}`) });
    expect(storeOf()).toBe(before);
    expect(count(chain.hub, "SELECT count(*) AS n FROM customers WHERE first_name = 'Eve'")).toBe(0);
  });

  it("has a voucher's use naming no store rejected, and the voucher left unused", async () => {
    const [result] = await push(chain.hub, chain.hostile, 'voucher-nowhere', [
      { kind: 'vouchers.apply', params: { voucher_id: VOUCHER }, body: { date_applied: '2026-11-20 10:00:00' } },
    ]);
    expect(result).toMatchObject({ status: 'rejected', reason: expect.stringContaining('store_id is required') });
    expect(count(chain.hub, 'SELECT count(*) AS n FROM voucher_applications WHERE voucher_id = ?', VOUCHER)).toBe(0);
  });

  it("has a store with a hub answer a voucher's use naming no store 400, and queue nothing", async () => {
    const applied = await call('POST', `${chain.honest.api('enterprise')}/vouchers/${VOUCHER}/actions/apply-voucher`, {
      headers: await honestLogin(chain),
      body: { date_applied: '2026-11-20 10:00:00' },
    });
    expect(applied.status).toBe(400);
    expect(applied.body.error.error_data.invalid_params[0]).toMatchObject({ name: 'store_id', reason: 'required' });
    expect(count(chain.honest, 'SELECT count(*) AS n FROM voucher_applications WHERE voucher_id = ?', VOUCHER)).toBe(0);
  });
});
