/**
 * The one error middleware, mounted after every router: AppError goes out as it is, body
 * parser and path-decoding failures become 400/413/415, anything else a logged 500 with
 * no internals. The cash-desk lane (src/http/cash-desk-lane.ts) answers by the same mapping.
 */
import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import { AppError, internalError, invalidParam, malformedJson, payloadTooLarge, unsupportedMediaType } from '../core/errors.js';
import { redactPath } from './redact-path.js';

interface BodyParserError {
  type?: string;
  status?: number;
  limit?: number;
  message?: string;
  charset?: string;
}

/** Where a failed request was going, for the log line of an unexpected error. */
export interface FailedRequest {
  method: string;
  path: string;
  requestId: unknown;
}

/** The AppError an error answers with; an unexpected one is logged, its path redacted, and answers a bare 500. */
export function errorAnswer(error: unknown, log: Logger, bodyLimitBytes: number, request: FailedRequest): AppError {
  const appError = toAppError(error, bodyLimitBytes);
  if (appError) return appError;
  log.error({ err: error, ...request, path: redactPath(request.path) }, 'request failed');
  return internalError();
}

export function errorHandler(log: Logger, bodyLimitBytes: number): ErrorRequestHandler {
  return (error: unknown, request, response, _next) => {
    const sent = errorAnswer(error, log, bodyLimitBytes, { method: request.method, path: request.path, requestId: response.locals.requestId });
    if (response.headersSent) return;
    response.set(sent.headers).status(sent.status).json({ error: sent.body });
  };
}

function toAppError(error: unknown, bodyLimitBytes: number): AppError | undefined {
  if (error instanceof AppError) return error;
  const parserError = error as BodyParserError;
  switch (parserError?.type) {
    case 'entity.too.large':
      return payloadTooLarge(parserError.limit ?? bodyLimitBytes);
    case 'entity.parse.failed':
      return malformedJson(parserError.message ?? 'unparsable');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return unsupportedMediaType(parserError.charset ?? 'this encoding');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return malformedJson(parserError.message ?? 'the body could not be read');
    default:
      break;
  }
  // The router cannot percent-decode a path segment such as `%E0%A4%A`.
  if (error instanceof URIError) return invalidParam('path', 'invalid_value_format', undefined, 'The path is not valid percent-encoding');
  // A body that does not inflate under its Content-Encoding (gzip, deflate, br): the parser
  // marks it 400 but gives it no type.
  if (parserError?.status === 400) return malformedJson(parserError.message ?? 'the body could not be decoded');
  return undefined;
}
