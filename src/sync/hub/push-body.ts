/**
 * A push's or replay's body as the hub reads it: refused as soon as its bytes pass
 * `sync_limits.push_max_bytes`, without the rest being read; parsed once whole, and refused when nested deeper than the API's
 * bodies may (src/core/json-depth.ts). A body whose
 * commands carry rows (`changes`, what stores of earlier protocols sent) is refused whole before
 * anything of it is applied: no row a store sends is ever written (DESIGN §5 "Authority").
 */
import type { Request } from 'express';
import type { Readable } from 'node:stream';
import { createGunzip, createInflate } from 'node:zlib';
import { AppError, malformedJson, nestedTooDeeply, payloadTooLarge, unsupportedMediaType } from '../../core/errors.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../core/json-depth.js';
import { rowsRefused } from '../../core/sync-errors.js';

/** The parsed body; undefined when the request is not JSON (the push's schema refuses it). */
export async function readPushBody(request: Request, maxBytes: number): Promise<unknown> {
  if (!request.is('application/json')) return undefined;
  if (Number(request.get('content-length') ?? 0) > maxBytes) throw payloadTooLarge(maxBytes);
  const text = await bounded(decoded(request), maxBytes);
  let body: unknown;
  try {
    body = JSON.parse(text.toString('utf8'));
  } catch (error) {
    throw malformedJson((error as Error).message);
  }
  if (nestsDeeperThan(body, MAX_JSON_DEPTH)) throw nestedTooDeeply();
  const carrying = indexCarryingRows(body);
  if (carrying !== undefined) throw rowsRefused(carrying);
  return body;
}

/**
 * The body's bytes, refused as soon as they pass the limit. The rest of a refused body is left
 * to flow past unread, so that the refusal is answered on a connection that stays open.
 */
function bounded(source: Readable, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
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

/** The index of the first command that carries rows, whatever else of the body its schema will refuse. */
function indexCarryingRows(body: unknown): number | undefined {
  const commands = (body as { commands?: unknown } | null)?.commands;
  if (!Array.isArray(commands)) return undefined;
  const index = commands.findIndex((command) => typeof command === 'object' && command !== null && Object.hasOwn(command, 'changes'));
  return index === -1 ? undefined : index;
}
