/**
 * What one push may carry (src/sync/hub/sync-limits.ts), against a hub on 127.0.0.1: bytes past
 * `sync_limits.push_max_bytes` and row changes past `push_max_changes` are answered 413 — the
 * changes counted in the body's bytes, or once parsed when the body escapes the key — and the
 * node that sent them is answered 429 until its Retry-After has passed on the hub's clock.
 */
import { readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { setTimeout as delay } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaVersion } from '../../../src/db/migrate.js';
import { PROTOCOL_HEADER, ROW_PROTOCOL, SCHEMA_HEADER } from '../../../src/sync/protocol/protocol.js';
import { hex } from '../../support/ids.js';
import { testPki } from '../../support/test-pki.js';
import { basic, call, startTestServer, TestClock, tempDir, type JsonResponse, type TestServer } from '../../support/server.js';

const MAX_CHANGES = 10;
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
      'sync_limits.push_max_changes': MAX_CHANGES,
      'sync_limits.push_max_bytes': MAX_BYTES,
      'sync_limits.retry_after_seconds': RETRY_AFTER_SECONDS,
    },
  });
});

afterAll(async () => {
  await hub?.close();
  rmSync(hubDir, { recursive: true, force: true });
});

/** A fresh node's push of `body`, in protocol 1 (which a new hub serves), as its JSON text. */
function push(node: { node_name: string; node_secret: string }, rawBody: string): Promise<JsonResponse> {
  return call('POST', `${hub.url}/sync/v1/commands`, {
    headers: { ...basic(node.node_name, node.node_secret), [PROTOCOL_HEADER]: String(ROW_PROTOCOL), [SCHEMA_HEADER]: String(schemaVersion()) },
    rawBody,
  });
}

let commands = 0;

/** One command with `changes` row changes of new events, its key `entity_id` written as `key`. */
function commandsText(changes: number, key = 'entity_id'): string {
  const hlc = `${hex(clock.now(), 12)}-0000-0a0b0c0d`;
  commands += 1;
  const rows = Array.from({ length: changes }, (_, index) => {
    const id = hex(commands * 1000 + index, 26);
    return `{"entity":"events","${key}":"${id}","op":"insert","row":{"id":"${id}"},"hlc":"${hlc}"}`;
  });
  return `{"generation":"limits","commands":[{"seq":1,"command_id":"limits-${commands}","kind":"events.create","payload":{},"hlc":"${hlc}","changes":[${rows.join(',')}]}]}`;
}

let nodes = 0;
const newNode = () => hub.app.services.nodes.add(`push-limits-${(nodes += 1)}`);

describe('what one push may carry', () => {
  it('takes a push with as many changes as push_max_changes', async () => {
    expect((await push(newNode(), commandsText(MAX_CHANGES))).status).toBe(200);
  });

  it('answers a push with one change more 413, counted in its bytes', async () => {
    const answer = await push(newNode(), commandsText(MAX_CHANGES + 1));
    expect(answer.status).toBe(413);
    expect(answer.body.error).toMatchObject({ exception: 'payload_too_large_exception', error_data: { limit_changes: MAX_CHANGES } });
  });

  it('counts the changes again once parsed when the body escapes the key the bytes are searched for', async () => {
    const answer = await push(newNode(), commandsText(MAX_CHANGES + 1, 'entity\\u005fid'));
    expect(answer.status).toBe(413);
    expect(answer.body.error.error_data).toEqual({ limit_changes: MAX_CHANGES });
  });

  it('answers a body past push_max_bytes 413 naming the limit', async () => {
    const answer = await push(newNode(), `{"generation":"limits","commands":[],"pad":"${'x'.repeat(MAX_BYTES)}"}`);
    expect(answer.status).toBe(413);
    expect(answer.body.error).toMatchObject({ exception: 'payload_too_large_exception', error_data: { limit_bytes: MAX_BYTES } });
  });

  it('answers the node whose push was refused 429 with Retry-After until that has passed, then reads its pushes again', async () => {
    const node = newNode();
    expect((await push(node, commandsText(MAX_CHANGES + 1))).status).toBe(413);
    const refused = await push(node, commandsText(1));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS));
    expect(refused.body.error).toMatchObject({ exception: 'too_many_requests_exception', error_data: { retry_after: RETRY_AFTER_SECONDS } });
    clock.advance(RETRY_AFTER_SECONDS * 1000 - 1000);
    expect((await push(node, commandsText(1))).headers.get('retry-after')).toBe('1');
    clock.advance(1000);
    expect((await push(node, commandsText(1))).status).toBe(200);
  });

  it('refuses a push at the bytes that show one change too many, keys cut between the chunks it came in counted', async () => {
    const text = commandsText(MAX_CHANGES + 1);
    // What follows the changes is not JSON: only a count made as the bytes came can refuse it for its changes.
    const body = `${text.slice(0, text.lastIndexOf('"entity_id"') + 20)} and the rest is not JSON`;
    const pieces = body.split('entity_id').flatMap((piece, index, all) => (index === all.length - 1 ? [piece] : [`${piece}entity`, '_id']));
    const answer = await pushInPieces(newNode(), pieces);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error).toMatchObject({ exception: 'payload_too_large_exception', error_data: { limit_changes: MAX_CHANGES } });
  });

  it('reads a push sent gzipped, and refuses one in an encoding it does not read 415', async () => {
    const node = newNode();
    const zipped = await pushInPieces(node, [gzipSync(commandsText(1))], 'gzip');
    expect(zipped.status).toBe(200);
    const unknown = await pushInPieces(node, [commandsText(1)], 'compress');
    expect(unknown.status).toBe(415);
    expect(JSON.parse(unknown.body).error.exception).toBe('unsupported_media_type_exception');
  });
});

/** A push whose body is sent a piece at a time, each piece its own chunk on the wire, a few milliseconds apart. */
function pushInPieces(
  node: { node_name: string; node_secret: string },
  pieces: (string | Buffer)[],
  encoding?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${hub.url}/sync/v1/commands`, {
      method: 'POST',
      ca: readFileSync(testPki().caCert),
      headers: {
        ...basic(node.node_name, node.node_secret),
        [PROTOCOL_HEADER]: String(ROW_PROTOCOL),
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
