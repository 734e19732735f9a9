/**
 * What a hostile store's tests share: a real hub, one honest store syncing with it, and the
 * commands a compromised in-store server crafts with a node secret of its own, sent straight to
 * `/sync/v1`. Every crafted command is made by `operation` and sent by `push`, so that a change
 * of the wire is made here once.
 */
import { rmSync } from 'node:fs';
import { expect } from 'vitest';
import { demoCredentials, DEMO_IDS } from '../../../../src/demo/demo.js';
import { schemaVersion } from '../../../../src/db/migrate.js';
import { PROTOCOL_VERSION } from '../../../../src/sync/protocol/protocol.js';
import { runRound } from '../../../../src/sync/store/agent.js';
import type { SyncParts } from '../../../../src/sync/store/sync-parts.js';
import { createStoreSync } from '../../../../src/root/store.js';
import { basic, call, startTestServer, tempDir, TestClock, type JsonResponse, type TestServer } from '../../../support/server.js';
import { hex } from '../../../support/ids.js';

/** A POS user of the demo, whom a store's operations name as their caller. */
export const POS_USER = `de${(0x101).toString(16).padStart(24, '0')}`;
export const HOSTILE_ORIGIN = 'a77ac4e1';

export interface NodeCredentials {
  node_name: string;
  node_secret: string;
}

export interface Chain {
  hub: TestServer;
  honest: TestServer;
  honestSync: SyncParts;
  /** A node the hostile tests push with, serving `hostileStores`. */
  hostile: NodeCredentials;
  round(): Promise<unknown>;
  close(): Promise<void>;
}

/** A hub, an honest store serving the airport that has bootstrapped, and a hostile node's credentials. */
export async function startChain(options: { hubConfig?: Record<string, unknown>; hostileStores?: string[] } = {}): Promise<Chain> {
  const hubDir = tempDir();
  const hub = await startTestServer({ config: { mode: 'hub', ...options.hubConfig }, dataDir: hubDir });
  const hostile = hub.app.services.nodes.add('store-hostile', options.hostileStores ?? [DEMO_IDS.storeCentral]);
  const credentials = hub.app.services.nodes.add('store-honest', [DEMO_IDS.storeAirport]);
  await hub.app.services.users.create({ ...AIRPORT_TILL, externalApplicationId: demoCredentials.external_application_id, legacyBasic: false });
  const honest = await startTestServer({
    demo: false,
    clock: new TestClock(hub.clock.now()),
    config: { 'hub.url': hub.url, 'node.name': credentials.node_name, 'node.secret': credentials.node_secret },
  });
  const honestSync = createStoreSync(honest.app.node, honest.config, honest.clock.now)!;
  const round = () => runRound(honestSync, honest.clock.now);
  expect(await round()).toMatchObject({ ok: true, bootstrapped: true });
  return {
    hub,
    honest,
    honestSync,
    hostile,
    round,
    close: async () => {
      await honestSync.client.close();
      await honest.close();
      await hub.close();
      rmSync(hubDir, { recursive: true, force: true });
    },
  };
}

/** The airport's till, the honest store's POS user (a store holds its own stores' users alone). */
const AIRPORT_TILL = { login: 'till-airport', password: 'till-airport-password', storeId: DEMO_IDS.storeAirport };

/** The honest store's till's Bearer header. */
export async function honestLogin(chain: Pick<Chain, 'honest'>): Promise<Record<string, string>> {
  const response = await call('POST', `${chain.honest.api('enterprise')}/users/actions/login`, {
    body: { user_external_application_id: demoCredentials.external_application_id, login: AIRPORT_TILL.login, password: AIRPORT_TILL.password },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { authorization: `Bearer ${response.body.data.bearer_token as string}` };
}

let made = 0;

/** A new id as a store makes one. */
export function newId(hub: TestServer): string {
  made += 1;
  return `${hex(hub.clock.now(), 12)}${hex(made, 14)}`;
}

/** A stamp at `ms` in `origin`. */
export function stampAt(ms: number, origin = HOSTILE_ORIGIN): string {
  return `${hex(ms, 12)}-${hex(made % 0xffff, 4)}-${origin}`;
}

export interface Crafted {
  kind: string;
  body: unknown;
  params?: Record<string, string>;
  /** The command's stamp; the hub's clock in the hostile origin when not given. */
  hlc?: string;
  /** The operation's as-of time; the stamp's when not given. */
  at?: number;
}

/** A command as a store queues the API call it served (src/core/operations.ts). */
export function operation(hub: TestServer, seq: number, crafted: Crafted) {
  const hlc = crafted.hlc ?? stampAt(hub.clock.now());
  const at = crafted.at ?? Number.parseInt(hlc.slice(0, 12), 16);
  return {
    seq,
    command_id: `${crafted.kind}-${seq}-${newId(hub)}`,
    kind: crafted.kind,
    hlc,
    operation: {
      call: {
        iface: 'enterprise',
        input: { params: crafted.params ?? {}, query: {}, body: crafted.body },
        principal: { kind: 'user', userId: POS_USER, scheme: 'bearer' },
      },
      as_of: at,
      ids: [newId(hub)],
    },
  };
}

/** The headers a store's node sends with each sync request. */
export function nodeHeaders(node: NodeCredentials): Record<string, string> {
  return {
    ...basic(node.node_name, node.node_secret),
    'x-loyaltyd-protocol': String(PROTOCOL_VERSION),
    'x-loyaltyd-schema': String(schemaVersion()),
  };
}

/** Sends a push as it is, answered whatever its status. */
export function sendPush(hub: TestServer, node: NodeCredentials, body: unknown): Promise<JsonResponse> {
  return call('POST', `${hub.url}/sync/v1/commands`, { headers: nodeHeaders(node), body });
}

export interface PushResult {
  seq: number;
  status: string;
  reason: string | null;
}

/** Pushes crafted commands in a generation of their own and answers their results; the push itself must be answered 200. */
export async function push(hub: TestServer, node: NodeCredentials, generation: string, commands: Crafted[]): Promise<PushResult[]> {
  const pushed = await sendPush(hub, node, { generation, commands: commands.map((crafted, index) => operation(hub, index + 1, crafted)) });
  expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
  return (pushed.body as { results: PushResult[] }).results;
}
