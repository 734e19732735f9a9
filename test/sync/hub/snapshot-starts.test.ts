/**
 * The snapshots a store's node may start in a minute (src/sync/hub/sync-limits.ts), against a
 * hub on 127.0.0.1 on a clock the test moves: past `sync_limits.snapshots_per_node_minute` the
 * node is answered 429 with the Retry-After until its oldest start is a minute old, and served
 * again once it is; another node is served meanwhile.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaVersion } from '../../../src/db/migrate.js';
import { PROTOCOL_HEADER, PROTOCOL_VERSION, SCHEMA_HEADER } from '../../../src/sync/protocol/protocol.js';
import { basic, startTestServer, TestClock, type TestServer } from '../../support/server.js';

const STARTS = 2;

let hub: TestServer;
const clock = new TestClock();

beforeAll(async () => {
  hub = await startTestServer({ clock, config: { mode: 'hub', 'sync_limits.snapshots_per_node_minute': STARTS } });
});

afterAll(async () => {
  await hub?.close();
});

let nodes = 0;
const newNode = () => hub.app.services.nodes.add(`snapshot-starts-${(nodes += 1)}`);

/** A whole snapshot read by `node`: its status, Retry-After and body. */
async function snapshot(node: { node_name: string; node_secret: string }): Promise<{ status: number; retryAfter: string | null; body: string }> {
  const response = await fetch(`${hub.url}/sync/v1/snapshot?format=columns`, {
    headers: { ...basic(node.node_name, node.node_secret), [PROTOCOL_HEADER]: String(PROTOCOL_VERSION), [SCHEMA_HEADER]: String(schemaVersion()) },
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() };
}

describe('the snapshots a node starts in a minute', () => {
  it('are refused 429 past the limit until the oldest is a minute old, and served again then', async () => {
    const node = newNode();
    for (let start = 0; start < STARTS; start += 1) {
      expect((await snapshot(node)).status).toBe(200);
      clock.advance(10_000);
    }
    const refused = await snapshot(node);
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe('40');
    expect(JSON.parse(refused.body).error).toMatchObject({
      exception: 'too_many_requests_exception',
      error_data: { work: 'snapshot', limit: STARTS, retry_after: 40 },
    });
    expect((await snapshot(newNode())).status).toBe(200);
    clock.advance(39_000);
    expect((await snapshot(node)).retryAfter).toBe('1');
    clock.advance(1_000);
    const again = await snapshot(node);
    expect(again.status).toBe(200);
    expect(again.body.endsWith('{"end":true}\n')).toBe(true);
  });
});
