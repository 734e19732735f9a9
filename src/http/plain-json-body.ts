/**
 * The cash-desk lane's body reader. A till sends its JSON the one plain way — `application/
 * json`, a Content-Length within the limit, no Content-Encoding — and for that form the body
 * is read and given to JSON.parse as it is. body-parser does the same through its general
 * machinery (content type and charset parsing, raw-body, an iconv decoder, on-finished),
 * which on the checkout bench cost recommended-best-rewards about a tenth of its work.
 *
 * Every other request goes to the API's body reader (src/http/json-body.ts) untouched, and
 * so does every body the plain reading does not take (not an object, a byte order mark,
 * JSON.parse refuses it): those bytes are handed to that reader as the request's body, so it
 * answers them as it answers express's calls, message for message
 * (test/http/cash-desk-lane.test.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { malformedJson, nestedTooDeeply } from '../core/errors.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../core/json-depth.js';

const PLAIN_TYPES = new Set(['application/json', 'application/json; charset=utf-8']);
const OPEN_BRACE = 0x7b;

/** A JSON body reader as express.json() is one: sets `request.body` or passes an error on. */
export type BodyParser = (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;

export function plainJsonBody(parser: BodyParser, limitBytes: number): BodyParser {
  return (request: IncomingMessage & { body?: unknown }, response, next) => {
    const length = Number(request.headers['content-length']);
    const plain =
      PLAIN_TYPES.has(request.headers['content-type'] ?? '') &&
      request.headers['content-encoding'] === undefined &&
      request.headers['transfer-encoding'] === undefined &&
      length > 0 &&
      length <= limitBytes;
    if (!plain) return parser(request, response, next);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.once('end', () => {
      const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      if (bytes[0] === OPEN_BRACE) {
        try {
          request.body = JSON.parse(bytes.toString('utf8'));
          return next(nestsDeeperThan(request.body, MAX_JSON_DEPTH) ? nestedTooDeeply() : undefined);
        } catch {
          // The body reader words the refusal.
        }
      }
      parseAgain(parser, request, response, bytes, next);
    });
    // The till went away mid-body (Node reports the abort as an error): answered as body-parser answers it.
    request.once('error', () => next(malformedJson('request aborted')));
  };
}

/**
 * Runs body-parser over bytes already read, as if they were the request's body. The stream
 * is ended only after the parser has looked at it: an ended one reads as already parsed.
 */
function parseAgain(
  parser: BodyParser,
  request: IncomingMessage & { body?: unknown },
  response: ServerResponse,
  bytes: Buffer,
  next: (error?: unknown) => void,
): void {
  const replay = Object.assign(new PassThrough(), { headers: request.headers, body: undefined as unknown });
  parser(replay as unknown as IncomingMessage, response, (error?: unknown) => {
    request.body = replay.body;
    next(error);
  });
  replay.end(bytes);
}
