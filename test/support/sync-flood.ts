/**
 * A flood of sync requests against a hub, as nodes with valid credentials can make it: pushes
 * whose bodies stop after their first bytes until released, and snapshots whose streams are not
 * read until released, each on a connection of its own — so they are in flight at the hub
 * together for as long as the caller holds them. Used by test/sync/hub/sync-limits.test.ts and
 * `npm run bench sync`. A hub on https is reached trusting the test run's CA (test/support/test-pki.ts).
 */
import { readFileSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { schemaVersion } from '../../src/db/migrate.js';
import { PROTOCOL_HEADER, PROTOCOL_VERSION, SCHEMA_HEADER } from '../../src/sync/protocol/protocol.js';
import type { StoreCredentials } from './cluster.js';
import { hex } from './ids.js';
import { testPki } from './test-pki.js';

/** A request to the hub at `url`, over https trusting the run's CA when the URL says so. */
function request(url: string, options: RequestOptions): ClientRequest {
  if (!url.startsWith('https:')) return httpRequest(url, options);
  return httpsRequest(url, { ...options, ca: readFileSync(testPki().caCert) });
}

/** How the hub answered a flood request: a refusal's body is read whole; an admitted snapshot answers 200 and is not read. */
export interface FloodAnswer {
  status: number;
  retryAfter: string | undefined;
  body: string;
}

export interface HeldRequest {
  /** Settles with the hub's answer: at once for a refusal, after `release()` for an admitted push. */
  answered: Promise<FloodAnswer>;
  /** Sends the rest of a push's body; drops an admitted snapshot's stream. */
  release(): void;
}

/** Bytes of a push's body sent before it is held. */
const HELD_AFTER_BYTES = 64 * 1024;

/** The headers a node's sync request carries: its credentials and this checkout's versions. */
export function syncHeaders(node: StoreCredentials): Record<string, string> {
  return {
    authorization: `Basic ${Buffer.from(`${node.node_name}:${node.node_secret}`).toString('base64')}`,
    [PROTOCOL_HEADER]: String(PROTOCOL_VERSION),
    [SCHEMA_HEADER]: String(schemaVersion()),
  };
}

/**
 * A push of exactly `bytes`: one command whose row changes, about 140 bytes each, fill it — a
 * body the hub refuses whole (409) once read, since no command carries rows, and refuses 413 at
 * the bytes that pass its `sync_limits.push_max_bytes` when that is smaller.
 */
export function floodPushBody(bytes: number): Buffer {
  const hlc = `${hex(Date.now(), 12)}-0000-f100d000`;
  const changes: string[] = [];
  let length = 200;
  for (let i = 0; length < bytes - 1000; i += 1) {
    const id = hex(i, 26);
    const change = `{"entity":"events","entity_id":"${id}","op":"insert","row":{"id":"${id}","data":"{}"},"hlc":"${hlc}"}`;
    changes.push(change);
    length += change.length + 1;
  }
  const head = `{"generation":"flood","commands":[{"seq":1,"command_id":"flood-1","kind":"events.create","hlc":"${hlc}","changes":[${changes.join(',')}],"operation":{"ids":[]}}],"pad":"`;
  const tail = '"}';
  return Buffer.from(head + 'x'.repeat(bytes - Buffer.byteLength(head) - tail.length) + tail);
}

/**
 * A push of `body` from `node`, its first bytes sent and the rest held until `release()`. Sent
 * without its length, as a stream of unknown length is: the hub counts its bytes as they come.
 * On a connection of its own kept alive, as a store's client keeps it: the hub then reads past
 * the rest of a body it refused, where on a connection the client asked to close it closes the
 * socket while the body is still coming, and the client's next write fails before it has read
 * the answer.
 */
export function heldPush(hubUrl: string, node: StoreCredentials, body: Buffer): HeldRequest {
  const outgoing = request(`${hubUrl}/sync/v1/commands`, {
    method: 'POST',
    agent: hubUrl.startsWith('https:') ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true }),
    headers: { ...syncHeaders(node), 'content-type': 'application/json' },
  });
  let sent = false;
  let responded = false;
  const answered = new Promise<FloodAnswer>((resolve, reject) => {
    // The hub answers a push it refuses at its bytes and closes the connection while the rest is
    // still being sent: a write that fails after its answer came is that close, not the answer's.
    outgoing.on('error', (error) => {
      if (!responded) reject(error);
    });
    outgoing.once('response', (incoming) => {
      responded = true;
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.once('end', () => {
        resolve({ status: incoming.statusCode!, retryAfter: header(incoming.headers['retry-after']), body: Buffer.concat(chunks).toString() });
        // A refused push's body is not sent on, nor the rest of one the hub stopped reading.
        outgoing.destroy();
      });
    });
  });
  // The hub may close the connection of a refused push while its body is still being sent.
  answered.catch(() => undefined);
  outgoing.write(body.subarray(0, HELD_AFTER_BYTES));
  /** The rest of the body a piece at a time, until it is all sent or the hub has answered. */
  const sendFrom = (offset: number): void => {
    if (responded || outgoing.destroyed) return;
    const end = Math.min(body.length, offset + HELD_AFTER_BYTES);
    if (end === body.length) {
      outgoing.end(body.subarray(offset));
      return;
    }
    if (outgoing.write(body.subarray(offset, end))) setImmediate(() => sendFrom(end));
    else outgoing.once('drain', () => sendFrom(end));
  };
  return {
    answered,
    release: () => {
      if (sent || outgoing.destroyed) return;
      sent = true;
      sendFrom(HELD_AFTER_BYTES);
    },
  };
}

/** A snapshot asked for by `node`, whose stream is not read: the hub's writes wait on it until `release()` drops it. */
export function heldSnapshot(hubUrl: string, node: StoreCredentials): HeldRequest {
  const outgoing = request(`${hubUrl}/sync/v1/snapshot?format=columns`, { agent: false, headers: syncHeaders(node) });
  let release = () => {
    outgoing.destroy();
  };
  const answered = new Promise<FloodAnswer>((resolve, reject) => {
    outgoing.on('error', reject);
    outgoing.once('response', (incoming) => {
      const retryAfter = header(incoming.headers['retry-after']);
      if (incoming.statusCode === 200) {
        incoming.pause();
        release = () => incoming.destroy();
        resolve({ status: 200, retryAfter, body: '' });
        return;
      }
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.once('end', () => resolve({ status: incoming.statusCode!, retryAfter, body: Buffer.concat(chunks).toString() }));
    });
  });
  answered.catch(() => undefined);
  outgoing.end();
  return { answered, release: () => release() };
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
