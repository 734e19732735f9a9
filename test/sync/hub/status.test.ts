/**
 * The hub's `sync status`, real processes: right from the stores' first contact it says when
 * each was seen and names a store as holding the customer states' horizon back only while a
 * state waits on it; without `--json` it lists the nodes as a table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../../src/demo/demo.js';
import { runCli } from '../../support/cli.js';
import { Cluster, posLogin, type StoreProcess } from '../../support/cluster.js';
import { waitFor } from '../../support/wait.js';
import { assignPoints } from '../../support/sync-writes.js';

interface HubStatus {
  nodes: { name: string; last_seen_at: string | null }[];
  storage: { settling: { held_by: string | null; unsettled_states: number } };
}

let cluster: Cluster;
let prague: StoreProcess;
let brno: StoreProcess;

beforeAll(async () => {
  cluster = await Cluster.start({ stores: ['prague', 'brno'] });
  prague = cluster.store('prague');
  brno = cluster.store('brno');
  for (const store of [prague, brno]) await cluster.waitBootstrapped(store);
});

afterAll(async () => {
  await cluster?.close();
});

const hubStatus = async () => (await cluster.hub.cli(['sync', 'status'])) as HubStatus;

describe("the hub's sync status", () => {
  it('right after the stores bootstrap, each has been seen, and none is named as holding the horizon back', async () => {
    const status = await hubStatus();
    expect(status.nodes.map((node) => [node.name, typeof node.last_seen_at])).toEqual([
      ['brno', 'string'],
      ['prague', 'string'],
    ]);
    expect(status.storage.settling.held_by).toBeNull();
  });

  it('lists the nodes as a table without --json', async () => {
    const printed = await runCli(['sync', 'status', '--mode', 'hub', '--data-dir', cluster.hub.dataDir], cluster.hub.commandEnv);
    expect(printed.code).toBe(0);
    expect(printed.stdout).not.toContain('[{');
    expect(printed.stdout).toMatch(
      /^nodes\n {2}name\s+generation\s+last_seq\s+last_seen_at\s+seconds_since_seen\n {2}brno\s+\S+.*\n {2}prague\s+\S+/m,
    );
    expect(printed.stdout).toMatch(/^feed_last_seq\s+\d+$/m);
  });

  it('names the store that holds the horizon back: one silent while another sells to a customer', async () => {
    await brno.stop();
    expect((await assignPoints(prague, await posLogin(prague), DEMO_IDS.customerEva, 5)).status).toBe(204);
    await waitFor(
      'prague to push the points',
      () => prague.peekStatus().outbox.pending === 0 && cluster.hub.count('SELECT count(*) AS n FROM customer_state_tails') > 0,
    );
    const status = await hubStatus();
    expect(status.storage.settling).toMatchObject({ held_by: 'brno' });
    expect(status.storage.settling.unsettled_states).toBeGreaterThan(0);
  });
});
