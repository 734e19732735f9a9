/**
 * The hub applies a push a turn of its event loop at a time (src/sync/hub/pushes-in-turns.ts),
 * a real hub process on loopback at `sync_limits.push_turn_ms` 0 (a command a turn) and a store
 * node in the test's process pushing 500 queued commands in one push: a read asked once part of
 * the push is committed is answered before the rest is; a hub killed between turns keeps
 * what it committed, and the store's next push is applied once, the committed part answered
 * from its results; a second store's push of a few commands, sent while the first is
 * applied, is applied after all of it; and the commands a store sends again to the hub restored
 * from a backup (src/sync/store/replay.ts), at the round after the one that finds the hub's feed
 * renewed, are run in turns as a push is, and a hub killed between two of a replay's turns keeps
 * what it committed and runs the rest once.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/core/clock.js';
import { DEMO_IDS } from '../../../src/demo/demo.js';
import { basePath } from '../../../src/http/interfaces.js';
import { openNode, type Node } from '../../../src/root/node.js';
import { createStoreSync } from '../../../src/root/store.js';
import { runRound, type RoundOutcome } from '../../../src/sync/store/agent.js';
import { addNode, demoBearer, demoHubFolder, freePort, restoredHub, startHub, storeConfig, type ServerProcess } from '../../support/cluster.js';
import { eventsAtHub, queueEvents } from '../../support/queued-events.js';
import { tempDir } from '../../support/server.js';
import { waitFor } from '../../support/wait.js';
import { dropHubDatabase, hubDatabaseEnv, openHubDatabase } from '../../support/hub-engine.js';

/** A store's batch at most (src/sync/protocol/protocol.ts): one push. */
const COMMANDS = 500;
/** A push checked in fewer turns than the rest of a whole one takes to apply: were turns shared in rounds, it would be applied before that one is done. */
const FEW_COMMANDS = 20;
const HUB_ENV = { LOYALTYD_SYNC_LIMITS__PUSH_TURN_MS: '0' };

let hubDir: string;
/** The hub's settings, on the run's engine (test/support/hub-engine.ts). */
let hubEnv: Record<string, string>;
let port: number;
let hub: ServerProcess;

/** A store node in the test's process, synced with the hub. */
interface Store {
  dir: string;
  node: Node;
  sync: NonNullable<ReturnType<typeof createStoreSync>>;
}

let store: Store;
let other: Store;

/** A store node registered as `name`, bootstrapped from the hub. */
async function bootstrappedStore(name: string): Promise<Store> {
  const dir = tempDir();
  const config = storeConfig(dir, hub.url, addNode(hubDir, name, hubEnv));
  const node = openNode(config, systemClock);
  const sync = createStoreSync(node, config, systemClock)!;
  expect(await runRound(sync, systemClock)).toMatchObject({ ok: true, bootstrapped: true });
  return { dir, node, sync };
}

beforeAll(async () => {
  hubDir = tempDir();
  hubEnv = { ...HUB_ENV, ...(await hubDatabaseEnv(hubDir)) };
  demoHubFolder(hubDir, hubEnv);
  port = await freePort();
  hub = await startHub(hubDir, hubEnv, port);
  store = await bootstrappedStore('turns-store');
  other = await bootstrappedStore('turns-other');
}, 60_000);

afterAll(async () => {
  for (const { dir, node, sync } of [store, other].filter(Boolean)) {
    await sync.client.close();
    node.close();
    rmSync(dir, { recursive: true, force: true });
  }
  await hub?.stop();
  rmSync(hubDir, { recursive: true, force: true });
  await dropHubDatabase(hubDir);
});

/**
 * The first and last place in the hub's change feed of its events with external ids of
 * `prefix`: the feed follows the order they were committed in, on either engine.
 */
function feedPlaces(prefix: string): { first: number; last: number } {
  const db = openHubDatabase(hubDir, { readonly: true });
  try {
    return db
      .prepare<[string], { first: number; last: number }>(
        `SELECT min(c.seq) AS first, max(c.seq) AS last FROM changes c
         JOIN events e ON c.entity = 'events' AND c.entity_id = e.id WHERE e.external_id LIKE ?`,
      )
      .get(`${prefix}-%`)!;
  } finally {
    db.close();
  }
}

/** A back-office read at the hub, answered 200. */
async function readAtHub(bearer: string): Promise<void> {
  const read = await fetch(`${hub.url}${basePath('enterprise')}/customers/${DEMO_IDS.customerJana}`, {
    headers: { authorization: `Bearer ${bearer}` },
  });
  expect(read.status).toBe(200);
}

/** Waits until the hub has committed part of the push of `prefix`'s events, not all of it; the number committed. */
function partCommitted(prefix: string): Promise<number> {
  return waitFor(
    `part of the push of ${prefix} committed at the hub, not all of it`,
    () => {
      const { applied } = eventsAtHub(hubDir, prefix);
      return applied > 0 && applied < COMMANDS ? applied : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 1 },
  );
}

/** The hub restored from a backup taken before the store pushed `COMMANDS` events of `prefix`. */
function restoredAfterPush(prefix: string): Promise<ServerProcess> {
  return restoredHub(
    hub,
    hubDir,
    port,
    async () => {
      queueEvents(store.node, COMMANDS, prefix);
      expect(await runRound(store.sync, systemClock)).toMatchObject({ ok: true, pushed: COMMANDS, rejected: 0, held: 0 });
    },
    hubEnv,
  );
}

describe('a push applied in turns', () => {
  it('gives way to a read asked while it is applied', async () => {
    const bearer = await demoBearer(hub.url);
    queueEvents(store.node, COMMANDS, 'turns-a');
    const round = runRound(store.sync, systemClock);
    await partCommitted('turns-a');
    await readAtHub(bearer);
    expect(eventsAtHub(hubDir, 'turns-a').applied).toBeLessThan(COMMANDS);
    expect(await round).toMatchObject({ ok: true, pushed: COMMANDS, rejected: 0, held: 0 });
    expect(eventsAtHub(hubDir, 'turns-a')).toEqual({ applied: COMMANDS, distinct: COMMANDS });
  });

  it('keeps the turns a hub killed between them committed, and applies the rest once', async () => {
    queueEvents(store.node, COMMANDS, 'turns-b');
    const cut = runRound(store.sync, systemClock);
    const committed = await partCommitted('turns-b');
    process.kill(hub.pid, 'SIGKILL');
    const outcome: RoundOutcome = await cut;
    expect(outcome.ok).toBe(false);
    expect(eventsAtHub(hubDir, 'turns-b').applied).toBeGreaterThanOrEqual(committed);

    hub = await startHub(hubDir, hubEnv, port);
    expect(await runRound(store.sync, systemClock)).toMatchObject({ ok: true, pushed: COMMANDS, rejected: 0, held: 0 });
    expect(eventsAtHub(hubDir, 'turns-b')).toEqual({ applied: COMMANDS, distinct: COMMANDS });
    const pending = store.node.db.prepare<[], number>("SELECT count(*) FROM outbox WHERE status = 'pending'").pluck().get();
    expect(pending).toBe(0);
  });

  it("applies a second store's push sent while the first is applied after all of the first", async () => {
    queueEvents(store.node, COMMANDS, 'turns-c');
    queueEvents(other.node, FEW_COMMANDS, 'turns-d');
    const first = runRound(store.sync, systemClock);
    await partCommitted('turns-c');
    const second = runRound(other.sync, systemClock);
    expect(await first).toMatchObject({ ok: true, pushed: COMMANDS, rejected: 0, held: 0 });
    expect(await second).toMatchObject({ ok: true, pushed: FEW_COMMANDS, rejected: 0, held: 0 });
    expect(eventsAtHub(hubDir, 'turns-c')).toEqual({ applied: COMMANDS, distinct: COMMANDS });
    expect(eventsAtHub(hubDir, 'turns-d')).toEqual({ applied: FEW_COMMANDS, distinct: FEW_COMMANDS });
    expect(feedPlaces('turns-c').last).toBeLessThan(feedPlaces('turns-d').first);
  });

  it('runs the commands a store sends again to a hub restored from a backup in turns, giving way to a read', async () => {
    hub = await restoredAfterPush('turns-e');
    expect(eventsAtHub(hubDir, 'turns-e').applied).toBe(0);

    const renewed = await runRound(store.sync, systemClock);
    expect(renewed).toMatchObject({ ok: false, bootstrapped: false, pushed: 0 });
    expect(renewed.error).toMatch(/restored from a backup/);

    const bearer = await demoBearer(hub.url);
    const round = runRound(store.sync, systemClock);
    await partCommitted('turns-e');
    await readAtHub(bearer);
    expect(eventsAtHub(hubDir, 'turns-e').applied).toBeLessThan(COMMANDS);
    expect(await round).toMatchObject({ ok: true, bootstrapped: true, pushed: COMMANDS, rejected: 0, held: 0 });
    expect(eventsAtHub(hubDir, 'turns-e')).toEqual({ applied: COMMANDS, distinct: COMMANDS });
  });

  it('keeps the turns of a replay a hub killed between them committed, and runs the rest once', async () => {
    hub = await restoredAfterPush('turns-f');
    expect(await runRound(store.sync, systemClock)).toMatchObject({ ok: false, bootstrapped: false, pushed: 0 });

    const cut = runRound(store.sync, systemClock);
    const committed = await partCommitted('turns-f');
    process.kill(hub.pid, 'SIGKILL');
    expect((await cut).ok).toBe(false);
    expect(eventsAtHub(hubDir, 'turns-f').applied).toBeGreaterThanOrEqual(committed);

    hub = await startHub(hubDir, hubEnv, port);
    expect(await runRound(store.sync, systemClock)).toMatchObject({ ok: true, pushed: COMMANDS, rejected: 0, held: 0 });
    expect(eventsAtHub(hubDir, 'turns-f')).toEqual({ applied: COMMANDS, distinct: COMMANDS });
  });
});
