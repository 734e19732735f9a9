/**
 * The hub's limits on what stores ask of it at once (src/sync/hub/sync-limits.ts), real
 * processes on loopback: 20 pushes of 8 MB from five flooding nodes and 10 snapshots from three
 * reading nodes, held in flight together. The hub takes two of each a node and 8 pushes and
 * 4 snapshots in all, answers the rest 429 (a node's share) or 503 (the hub's) with
 * Retry-After before reading their bodies, refuses an admitted push at the bytes that pass
 * `push_max_bytes` (4 MB here), and makes its node wait its Retry-After. An honest store that pushes meanwhile is answered 503, waits at least the
 * Retry-After it was given, and its round completes once the flood is over.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../../src/demo/demo.js';
import { Cluster, posLogin, type StoreCredentials, type StoreProcess } from '../../support/cluster.js';
import { addCustomerPool } from '../../support/customer-pool.js';
import { floodPushBody, heldPush, heldSnapshot, type FloodAnswer, type HeldRequest } from '../../support/sync-flood.js';
import { createEvent } from '../../support/sync-writes.js';
import { waitFor } from '../../support/wait.js';

const RETRY_AFTER_SECONDS = 2;
/** Customers added to the hub's demo chain: a snapshot larger than loopback's socket buffers, so an unread one stays in flight. */
const CUSTOMERS = 100_000;
const PUSH_BYTES = 8 * 1024 * 1024;
/** What the hub takes in one push: half a flood push. */
const PUSH_MAX_BYTES = 4 * 1024 * 1024;

let cluster: Cluster;
let honest: StoreProcess;
let flooders: StoreCredentials[];
let readers: StoreCredentials[];
const held: HeldRequest[] = [];

beforeAll(async () => {
  cluster = await Cluster.start({
    stores: ['honest'],
    started: [],
    hubEnv: {
      LOYALTYD_SYNC_LIMITS__RETRY_AFTER_SECONDS: String(RETRY_AFTER_SECONDS),
      LOYALTYD_SYNC_LIMITS__PUSH_MAX_BYTES: String(PUSH_MAX_BYTES),
    },
  });
  await cluster.hub.stop();
  addCustomerPool(cluster.hub.dataDir, CUSTOMERS);
  await cluster.hub.start();
  honest = cluster.store('honest');
  await honest.start();
  await cluster.waitBootstrapped(honest, 60_000);
  const node = (name: string) => cluster.hub.cli(['nodes', 'add', '--name', name, '--store', DEMO_IDS.storeCentral]) as Promise<StoreCredentials>;
  flooders = await Promise.all(['flood-1', 'flood-2', 'flood-3', 'flood-4', 'flood-5'].map(node));
  readers = await Promise.all(['reader-1', 'reader-2', 'reader-3'].map(node));
}, 120_000);

afterAll(async () => {
  for (const request of held) request.release();
  await cluster?.close();
});

function expectRefusal(answer: FloodAnswer): void {
  expect([429, 503]).toContain(answer.status);
  expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(answer.retryAfter)).toBeLessThanOrEqual(RETRY_AFTER_SECONDS);
  const { error } = JSON.parse(answer.body) as { error: { exception: string; error_data: { retry_after: number } } };
  expect(error.exception).toBe(answer.status === 429 ? 'too_many_requests_exception' : 'service_unavailable_exception');
  expect(error.error_data.retry_after).toBe(Number(answer.retryAfter));
}

/** The store's log lines of failed rounds (pino JSON), as the agent wrote them. */
function failedRounds(store: StoreProcess): { hubStatus?: number; retry_in_ms: number; retryAfterMs?: number }[] {
  return store
    .logTail(500)
    .split('\n')
    .filter((line) => line.includes('"sync round failed"'))
    .map((line) => JSON.parse(line) as { hubStatus?: number; retry_in_ms: number; retryAfterMs?: number });
}

describe("the sync API's limits under a flood", () => {
  it('answers pushes and snapshots past a node’s share 429 and past the hub’s 503 with Retry-After, and the honest store’s round completes', async () => {
    const body = floodPushBody(PUSH_BYTES);
    const pushes = Array.from({ length: 20 }, (_, index) => ({ node: flooders[index % flooders.length]!.node_name, index }));
    const pushRequests = pushes.map(({ index }) => heldPush(cluster.hub.url, flooders[index % flooders.length]!, body));
    held.push(...pushRequests);
    // Refusals come before a body is read; the admitted pushes wait on theirs.
    const refusedPushes = await waitFor('12 of the 20 pushes refused', async () => {
      const settled = await Promise.all(pushRequests.map((request) => Promise.race([request.answered, Promise.resolve(undefined)])));
      const answered = settled.flatMap((answer, index) => (answer ? [{ ...answer, node: pushes[index]!.node, index }] : []));
      return answered.length >= 12 && answered;
    });
    expect(refusedPushes).toHaveLength(12);
    for (const answer of refusedPushes) expectRefusal(answer);
    expect(new Set(refusedPushes.map((answer) => answer.status))).toEqual(new Set([429, 503]));
    const admittedPushes = pushes.filter(({ index }) => !refusedPushes.some((answer) => answer.index === index));
    for (const flooder of flooders) expect(admittedPushes.filter((push) => push.node === flooder.node_name).length).toBeLessThanOrEqual(2);

    // Snapshots one after another, so each arrives with the ones before it in flight.
    const snapshots: (FloodAnswer & { node: string })[] = [];
    for (let index = 0; index < 10; index += 1) {
      const reader = readers[index % readers.length]!;
      const request = heldSnapshot(cluster.hub.url, reader);
      held.push(request);
      snapshots.push({ ...(await request.answered), node: reader.node_name });
    }
    expect(snapshots.filter((answer) => answer.status === 200)).toHaveLength(4);
    const refusedSnapshots = snapshots.filter((answer) => answer.status !== 200);
    for (const answer of refusedSnapshots) expectRefusal(answer);
    expect(new Set(refusedSnapshots.map((answer) => answer.status))).toEqual(new Set([429, 503]));

    // The honest store writes while every push slot is taken: its push is answered 503.
    const event = await createEvent(honest, await posLogin(honest), DEMO_IDS.customerJana, 'during-the-flood');
    await waitFor('the honest store’s push to be refused', () => honest.peekStatus().last_error_status === 503, { timeoutMs: 20_000 });
    expect(cluster.hub.count('SELECT count(*) AS n FROM events WHERE id = ?', event.id)).toBe(0);

    for (const request of held) request.release();
    const admittedAnswers = await Promise.all(admittedPushes.map(({ index }) => pushRequests[index]!.answered));
    for (const answer of admittedAnswers) {
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body).error).toMatchObject({ exception: 'payload_too_large_exception', error_data: { limit_bytes: PUSH_MAX_BYTES } });
    }
    // A node whose push was refused for what it held waits its Retry-After before the hub reads another.
    const again = heldPush(
      cluster.hub.url,
      flooders.find((flooder) => flooder.node_name === admittedPushes[0]!.node)!,
      Buffer.from('{}'),
    );
    again.release();
    expectRefusal(await again.answered);

    await waitFor('the honest store’s event at the hub', () => cluster.hub.count('SELECT count(*) AS n FROM events WHERE id = ?', event.id) === 1, {
      timeoutMs: 30_000,
    });
    await waitFor('the honest store’s outbox drained', () => honest.peekStatus().outbox.pending === 0);
    const refusedRounds = failedRounds(honest).filter((round) => round.hubStatus === 503);
    expect(refusedRounds.length).toBeGreaterThan(0);
    for (const round of refusedRounds) {
      expect(round.retryAfterMs).toBeGreaterThanOrEqual(1000);
      expect(round.retry_in_ms).toBeGreaterThanOrEqual(round.retryAfterMs! - 50);
    }
  }, 120_000);
});
