/**
 * A hostile store's rows (DESIGN §5 "Authority": no row a store sends is ever written): row
 * changes carried by commands of any kind, a push or replay in protocol 1 or 2, and a replay of
 * rows are each refused whole — 409, or 400 for a body no protocol reads — and write nothing at
 * the hub or, after its next round, at the honest store; commands of the kinds that used to
 * travel as rows are rejected with their reason, and an honest command behind them applies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../../../src/demo/demo.js';
import { call, type TestServer } from '../../../support/server.js';
import { count } from '../../../support/node-reads.js';
import { newId, nodeHeaders, operation, push, sendPush, stampAt, startChain, type Chain } from './crafted-commands.js';

const JANA = DEMO_IDS.customerJana;
const PETR = DEMO_IDS.customerPetr;

let chain: Chain;

beforeAll(async () => {
  chain = await startChain();
});
afterAll(() => chain?.close());

/** A row change as stores of earlier protocols sent them: a point record of a million points for Jana. */
function pointRow(hub: TestServer, id: string) {
  const hlc = stampAt(hub.clock.now());
  const row = {
    id,
    customer_id: JANA,
    kind: 'collection',
    points_milli: 1_000_000_000,
    point_type_id: 'manual',
    partner_id: null,
    valid_to: null,
    purchase_id: null,
    linked_point_id: null,
    created_at: new Date(hub.clock.now()).toISOString(),
    state: 1,
    hlc,
    last_change: new Date(hub.clock.now()).toISOString(),
  };
  return { entity: 'point_records', entity_id: id, op: 'insert', row, hlc };
}

/** A credit record of 50,000 CZK for Petr. */
function creditRow(hub: TestServer, id: string) {
  const hlc = stampAt(hub.clock.now());
  const at = new Date(hub.clock.now()).toISOString();
  const row = { id, customer_id: PETR, kind: 'deposit', amount_minor: 5_000_000, created_at: at, state: 1, hlc, last_change: at };
  return { entity: 'credit_records', entity_id: id, op: 'insert', row, hlc };
}

/** What the attacks must leave alone, at a node: the two customers' balances and the records they name. */
function standing(server: TestServer, ids: string[]) {
  const at = server.clock.now();
  return {
    jana: server.app.node.balances.balancesAt(JANA, at),
    petr: server.app.node.balances.balancesAt(PETR, at),
    records: ids.map(
      (id) =>
        count(server, 'SELECT count(*) AS n FROM point_records WHERE id = ?', id) +
        count(server, 'SELECT count(*) AS n FROM credit_records WHERE id = ?', id),
    ),
  };
}

describe('a hostile store sending rows', () => {
  it('has every push, replay and protocol that carries rows refused whole, nothing of them anywhere, and the honest command behind them applied', async () => {
    const { hub, honest, hostile } = chain;
    const ids = Array.from({ length: 6 }, () => newId(hub));
    const before = { hub: standing(hub, ids), honest: standing(honest, ids) };
    const applied = () =>
      count(hub, 'SELECT count(*) AS n FROM applied_commands WHERE node_id = (SELECT id FROM nodes WHERE name = ?)', hostile.node_name);
    const withRows = (seq: number, kind: string, change: unknown) => ({ ...operation(hub, seq, { kind, body: {} }), changes: [change] });
    const refusals: { what: string; status: number; exception: string }[] = [];
    const note = (what: string, answer: { status: number; body: { error?: { exception?: string } } }) =>
      refusals.push({ what, status: answer.status, exception: answer.body.error?.exception ?? '' });

    // Row kinds carrying rows of another table: a token's creation giving Jana a million points,
    // a login code's giving Petr 50,000 CZK. The honest assign behind them is refused with them.
    const honestAssign = operation(hub, 3, { kind: 'points.assign', body: { customer_id: JANA, amount: 1 } });
    note(
      'row kinds',
      await sendPush(hub, hostile, {
        generation: 'rows',
        commands: [withRows(1, 'tokens.create', pointRow(hub, ids[0]!)), withRows(2, 'auth-tokens.issue', creditRow(hub, ids[1]!)), honestAssign],
      }),
    );
    // Protocol 1 and 2, the protocols that carried rows, on a push and a replay.
    for (const protocol of ['1', '2']) {
      const headers = { ...nodeHeaders(hostile), 'x-loyaltyd-protocol': protocol };
      note(
        `protocol ${protocol} push`,
        await call('POST', `${hub.url}/sync/v1/commands`, {
          headers,
          body: {
            generation: `p${protocol}`,
            commands: [
              {
                seq: 1,
                command_id: `p${protocol}`,
                kind: 'points.assign',
                payload: {},
                hlc: stampAt(hub.clock.now()),
                changes: [pointRow(hub, ids[2]!)],
              },
            ],
          },
        }),
      );
      note(`protocol ${protocol} replay`, await call('POST', `${hub.url}/sync/v1/replay`, { headers, body: { changes: [pointRow(hub, ids[3]!)] } }));
    }
    // A replay of rows, and a replayed command carrying rows, in this protocol.
    note(
      'a replay of rows',
      await call('POST', `${hub.url}/sync/v1/replay`, { headers: nodeHeaders(hostile), body: { changes: [creditRow(hub, ids[4]!)] } }),
    );
    note(
      'a replayed command with rows',
      await call('POST', `${hub.url}/sync/v1/replay`, {
        headers: nodeHeaders(hostile),
        body: { commands: [withRows(1, 'points.assign', pointRow(hub, ids[5]!))] },
      }),
    );
    expect(refusals).toEqual([
      { what: 'row kinds', status: 409, exception: 'sync_rows_refused_exception' },
      { what: 'protocol 1 push', status: 409, exception: 'sync_version_mismatch_exception' },
      { what: 'protocol 1 replay', status: 409, exception: 'sync_version_mismatch_exception' },
      { what: 'protocol 2 push', status: 409, exception: 'sync_version_mismatch_exception' },
      { what: 'protocol 2 replay', status: 409, exception: 'sync_version_mismatch_exception' },
      { what: 'a replay of rows', status: 400, exception: 'invalid_params_exception' },
      { what: 'a replayed command with rows', status: 409, exception: 'sync_rows_refused_exception' },
    ]);
    expect(applied()).toBe(0);

    // The kinds that used to travel as rows, sent as operations: rejected with their reason, counted nowhere; the honest assign behind them applies.
    const results = await push(hub, hostile, 'kinds', [
      { kind: 'tokens.create', body: { device: {}, setup: {} } },
      { kind: 'auth-tokens.issue', body: {} },
      { kind: 'tokens.send-password-setup-email', body: { email: 'attacker@evil.test' } },
      { kind: 'points.assign', body: { customer_id: JANA, amount: 1 } },
    ]);
    expect(results.map((result) => [result.status, result.reason])).toEqual([
      ['rejected', 'a store does not perform tokens.create'],
      ['rejected', 'a store does not perform auth-tokens.issue'],
      ['rejected', 'a store does not perform tokens.send-password-setup-email'],
      ['applied', null],
    ]);

    expect(await chain.round()).toMatchObject({ ok: true, rejected: 0, held: 0 });
    const after = { hub: standing(hub, ids), honest: standing(honest, ids) };
    for (const node of ['hub', 'honest'] as const) {
      expect(after[node].records).toEqual([0, 0, 0, 0, 0, 0]);
      expect(after[node].petr).toEqual(before[node].petr);
      expect(after[node].jana.pointsMilli).toBe(before[node].jana.pointsMilli + 1000);
    }
    expect(count(hub, 'SELECT count(*) AS n FROM password_setup_requests')).toBe(0);
  });
});
