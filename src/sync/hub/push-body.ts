/**
 * A push's or replay's body as the hub reads it: its row changes are counted as its bytes
 * arrive, by the key every row change has, so a push past `push_max_changes` is refused at the
 * chunk that shows it, without the rest being read or a pass over 8 MB holding the event loop
 * every store waits on. A body within the limits is parsed; one nested deeper than the API's
 * bodies may (src/core/json-depth.ts) is refused; one that hid its changes from the count (an
 * escaped key) is counted again once parsed.
 */
import type { Request } from 'express';
import type { Readable } from 'node:stream';
import { createGunzip, createInflate } from 'node:zlib';
import { AppError, malformedJson, nestedTooDeeply, payloadTooLarge, unsupportedMediaType } from '../../core/errors.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../core/json-depth.js';
import { pushTooLarge } from '../../core/sync-errors.js';

/** The key every row change of a push has (src/sync/protocol/protocol.ts, RowChange). */
const CHANGE_KEY = Buffer.from('"entity_id"');
/** The most of a key one chunk can end with. */
const CUT = CHANGE_KEY.length - 1;

export interface PushBodyLimits {
  maxBytes: number;
  maxChanges: number;
}

/** The parsed body; undefined when the request is not JSON (the push's schema refuses it). */
export async function readPushBody(request: Request, limits: PushBodyLimits): Promise<unknown> {
  if (!request.is('application/json')) return undefined;
  if (Number(request.get('content-length') ?? 0) > limits.maxBytes) throw payloadTooLarge(limits.maxBytes);
  const text = await counted(decoded(request), limits);
  let body: unknown;
  try {
    body = JSON.parse(text.toString('utf8'));
  } catch (error) {
    throw malformedJson((error as Error).message);
  }
  if (nestsDeeperThan(body, MAX_JSON_DEPTH)) throw nestedTooDeeply();
  if (countChanges(body) > limits.maxChanges) throw pushTooLarge(limits.maxChanges);
  return body;
}

/**
 * The body's bytes, refused as soon as they pass either limit. The rest of a refused body is
 * left to flow past unread, so that the refusal is answered on a connection that stays open.
 */
function counted(source: Readable, { maxBytes, maxChanges }: PushBodyLimits): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let changes = 0;
    let carried: Buffer = Buffer.alloc(0);
    const stop = (error: Error | undefined) => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
      source.on('error', () => undefined);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxBytes) return stop(payloadTooLarge(maxBytes));
      // A key cut by the chunk's start is in the last bytes of the chunks before and its first.
      const joint = Buffer.concat([carried, chunk.subarray(0, CUT)]);
      changes += occurrences(joint, CHANGE_KEY) + occurrences(chunk, CHANGE_KEY);
      if (changes > maxChanges) return stop(pushTooLarge(maxChanges));
      carried = chunk.length >= CUT ? chunk.subarray(chunk.length - CUT) : joint.subarray(Math.max(0, joint.length - CUT));
      chunks.push(chunk);
    };
    const onEnd = () => stop(undefined);
    const onError = (error: Error) => stop(error instanceof AppError ? error : malformedJson(`the body could not be read (${error.message})`));
    source.on('data', onData);
    source.once('end', onEnd);
    source.once('error', onError);
  });
}

function decoded(request: Request): Readable {
  const encoding = (request.get('content-encoding') ?? 'identity').toLowerCase();
  if (encoding === 'identity') return request;
  if (encoding === 'gzip') return request.pipe(createGunzip());
  if (encoding === 'deflate') return request.pipe(createInflate());
  throw unsupportedMediaType(`content-encoding ${encoding}`);
}

/** How many times `key` is in `text`, counted at memchr's speed. */
function occurrences(text: Buffer, key: Buffer): number {
  let count = 0;
  for (let at = text.indexOf(key); at !== -1; at = text.indexOf(key, at + key.length)) count += 1;
  return count;
}

/** The row changes of a push's or replay's commands, whatever else of the body its schema will refuse. */
function countChanges(body: unknown): number {
  const commands = (body as { commands?: unknown } | null)?.commands;
  if (!Array.isArray(commands)) return 0;
  let changes = 0;
  for (const command of commands) {
    const rows = (command as { changes?: unknown } | null)?.changes;
    if (Array.isArray(rows)) changes += rows.length;
  }
  return changes;
}
