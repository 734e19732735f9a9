/**
 * The API's body reader, for express and the cash-desk lane alike: body-parser's JSON
 * parser, and around it the two refusals it does not make. A body in another content type
 * (text/plain, a form, none named) answers 415 naming that type, where body-parser would
 * leave it unread and the call would fail for the fields it lacks; a JSON value that is not
 * an object (`null`, an array, a string) answers 400 saying what it is, where body-parser's
 * strict mode would call it invalid JSON; and one nested deeper than MAX_JSON_DEPTH answers 400
 * (src/core/json-depth.ts).
 */
import express from 'express';
import type { IncomingMessage } from 'node:http';
import { invalidParam, nestedTooDeeply, unsupportedMediaType } from '../core/errors.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../core/json-depth.js';
import type { BodyParser } from './plain-json-body.js';

const JSON_TYPE = /^application\/(?:[^/;\s]+\+)?json$/;

export function jsonBody(limitBytes: number): BodyParser {
  const parser = express.json({ limit: limitBytes, type: ['application/json', 'application/*+json'], strict: false });
  return (request: IncomingMessage & { body?: unknown }, response, next) => {
    if (hasBody(request)) {
      const contentType = request.headers['content-type'];
      const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
      if (!JSON_TYPE.test(mediaType)) return next(unsupportedMediaType(contentType ? mediaType : 'a body without a Content-Type'));
    }
    parser(request as express.Request, response as express.Response, (error?: unknown) => {
      if (error) return next(error);
      const kind = jsonKind(request.body);
      if (request.body !== undefined && kind !== 'object') {
        return next(invalidParam('body', 'invalid_value_format', kind, `The body must be a JSON object, not ${kind}`));
      }
      if (nestsDeeperThan(request.body, MAX_JSON_DEPTH)) return next(nestedTooDeeply());
      next();
    });
  };
}

/** As body-parser judges it: a length above zero, or a body sent in chunks. */
function hasBody(request: IncomingMessage): boolean {
  return request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
}

function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'object';
  return `a ${typeof value}`;
}
