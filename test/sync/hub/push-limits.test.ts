/**
 * What one push may carry (src/sync/hub/sync-limits.ts, src/sync/hub/push-body.ts), against a hub
 * on 127.0.0.1: bytes past `sync_limits.push_max_bytes` are answered 413, counted as they arrive,
 * and the node that sent them is answered 429 until its Retry-After has passed on the hub's
 * clock. A push whose commands carry rows is refused whole, 409, before any of it is applied.
 */
import { readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { setTimeout as delay } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaVersion } from '../../../src/db/migrate.js';
import { PROTOCOL_HEADER, PROTOCOL_VERSION, SCHEMA_HEADER } from '../../../src/sync/protocol/protocol.js';
import { hex } from '../../support/ids.js';
import { testPki } from '../../support/test-pki.js';
import { basic, call, startTestServer, TestClock, tempDir, type JsonResponse, type TestServer } from '../../support/server.js';

const MAX_BYTES = 1_048_576;
const RETRY_AFTER_SECONDS = 7;

let hub: TestServer;
let hubDir: string;
const clock = new TestClock();

beforeAll(async () => {
  hubDir = tempDir();
  hub = await startTestServer({
    clock,
    dataDir: hubDir,
    config: {
      mode: 'hub',
      'sync_limits.push_max_bytes': MAX_BYTES,
      'sync_limits.retry_after_seconds': RETRY_AFTER_SECONDS,
    },
  });
});

afterAll(async () => {
  await hub?.close();
  rmSync(hubDir, { recursive: true, force: true });
});

type Node = { node_name: string; node_secret: string };

/** A node's push of `rawBody` at `path`, in this protocol, as its JSON text. */
function push(node: Node, rawBody: string, path = 'commands'): Promise<JsonResponse> {
  return call('POST', `${hub.url}/sync/v1/${path}`, {
    headers: { ...basic(node.node_name, node.node_secret), [PROTOCOL_HEADER]: String(PROTOCOL_VERSION), [SCHEMA_HEADER]: String(schemaVersion()) },
    rawBody,
  });
}

let commands = 0;

/** A protocol-3 command's JSON text: its operation carries no call, so the hub answers it rejected; `extra` is spliced in as more fields. */
function commandText(seq: number, extra = ''): string {
  const hlc = `${hex(clock.now(), 12)}-0000-0a0b0c0d`;
  commands += 1;
  return `{"seq":${seq},"command_id":"limits-${commands}","kind":"events.create","hlc":"${hlc}","operation":{"ids":[]}${extra}}`;
}

/** A push of one command. */
function commandsText(): string {
  return `{"generation":"limits","commands":[${commandText(1)}]}`;
}

/** A push whose body is `bytes` long at least, padded in a field its schema does not read. */
function paddedText(bytes: number): string {
  return `{"generation":"limits","commands":[],"pad":"${'x'.repeat(bytes)}"}`;
}

/** The commands the hub kept a result of for a node: what a push it applied, rejected or held leaves. */
function keptCommands(node: Node): number {
  return hub.app.node.db
    .prepare<[string], number>('SELECT count(*) FROM applied_commands JOIN nodes ON nodes.id = applied_commands.node_id WHERE nodes.name = ?')
    .pluck()
    .get(node.node_name)!;
}

let nodes = 0;
const newNode = () => hub.app.services.nodes.add(`push-limits-${(nodes += 1)}`);

describe('what one push may carry', () => {
  it('takes a push of push_max_bytes', async () => {
    const node = newNode();
    const text = commandsText();
    const body = `${text.slice(0, -1)},"pad":"${'x'.repeat(MAX_BYTES - text.length - 9)}"}`;
    expect(body).toHaveLength(MAX_BYTES);
    const answer = await push(node, body);
    expect(answer.status).toBe(200);
    expect(answer.body.results).toMatchObject([{ seq: 1, status: 'rejected' }]);
  });

  it('answers a body past push_max_bytes 413 naming the limit', async () => {
    const answer = await push(newNode(), paddedText(MAX_BYTES));
    expect(answer.status).toBe(413);
    expect(answer.body.error).toMatchObject({ exception: 'payload_too_large_exception', error_data: { limit_bytes: MAX_BYTES } });
  });

  it('answers the node whose push was refused 429 with Retry-After until that has passed, then reads its pushes again', async () => {
    const node = newNode();
    expect((await push(node, paddedText(MAX_BYTES))).status).toBe(413);
    const refused = await push(node, commandsText());
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS));
    expect(refused.body.error).toMatchObject({ exception: 'too_many_requests_exception', error_data: { retry_after: RETRY_AFTER_SECONDS } });
    clock.advance(RETRY_AFTER_SECONDS * 1000 - 1000);
    expect((await push(node, commandsText())).headers.get('retry-after')).toBe('1');
    clock.advance(1000);
    expect((await push(node, commandsText())).status).toBe(200);
  });

  it('refuses a push sent without its length at the bytes that pass push_max_bytes', async () => {
    const pad = 'x'.repeat(65_536);
    // What follows is not JSON: only a count made as the bytes came can refuse it for its bytes.
    const pieces = ['{"generation":"limits","commands":[],"pad":"', ...Array.from({ length: 17 }, () => pad), ' and the rest is not JSON'];
    const answer = await pushInPieces(newNode(), pieces);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error).toMatchObject({ exception: 'payload_too_large_exception', error_data: { limit_bytes: MAX_BYTES } });
  });

  it('reads a push sent gzipped, counts its bytes as inflated, and refuses one in an encoding it does not read 415', async () => {
    const node = newNode();
    const zipped = await pushInPieces(node, [gzipSync(commandsText())], 'gzip');
    expect(zipped.status).toBe(200);
    const inflated = await pushInPieces(newNode(), [gzipSync(paddedText(MAX_BYTES))], 'gzip');
    expect(inflated.status).toBe(413);
    expect(JSON.parse(inflated.body).error.error_data).toEqual({ limit_bytes: MAX_BYTES });
    const unknown = await pushInPieces(node, [commandsText()], 'compress');
    expect(unknown.status).toBe(415);
    expect(JSON.parse(unknown.body).error.exception).toBe('unsupported_media_type_exception');
  });

  it('refuses a push or replay whose commands carry rows 409, before any of its commands is applied', async () => {
    const node = newNode();
    const rows = ',"changes":[{"entity":"point_records","entity_id":"r1","op":"insert","row":{"id":"r1"},"hlc":"0190000000a1-0000-0a0b0c0d"}]';
    for (const [path, text] of [
      ['commands', `{"generation":"limits","commands":[${commandText(1)},${commandText(2, rows)}]}`],
      ['replay', `{"commands":[${commandText(1)},${commandText(2, ',"changes":[]')}],"final":true}`],
    ] as const) {
      const answer = await push(node, text, path);
      expect(answer.status, path).toBe(409);
      expect(answer.body.error, path).toMatchObject({ exception: 'sync_rows_refused_exception', error_data: { command_index: 1 } });
      expect(keptCommands(node), path).toBe(0);
    }
    // The same push without the rows is applied (its command answered and kept).
    const answer = await push(node, `{"generation":"limits","commands":[${commandText(1)},${commandText(2)}]}`);
    expect(answer.status).toBe(200);
    expect(keptCommands(node)).toBe(2);
  });
});

/** A push whose body is sent a piece at a time, each piece its own chunk on the wire, a few milliseconds apart. */
function pushInPieces(node: Node, pieces: (string | Buffer)[], encoding?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${hub.url}/sync/v1/commands`, {
      method: 'POST',
      ca: readFileSync(testPki().caCert),
      headers: {
        ...basic(node.node_name, node.node_secret),
        [PROTOCOL_HEADER]: String(PROTOCOL_VERSION),
        [SCHEMA_HEADER]: String(schemaVersion()),
        'content-type': 'application/json',
        ...(encoding ? { 'content-encoding': encoding } : {}),
      },
    });
    outgoing.setNoDelay(true);
    outgoing.once('error', reject);
    outgoing.once('response', (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.once('end', () => resolve({ status: incoming.statusCode!, body: Buffer.concat(chunks).toString() }));
    });
    void (async () => {
      for (const piece of pieces) {
        if (outgoing.destroyed) return;
        outgoing.write(piece);
        await delay(2);
      }
      outgoing.end();
    })();
  });
}
