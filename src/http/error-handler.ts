/**
 * The one error middleware, mounted after every router: AppError goes out as it is, body
 * parser and path-decoding failures become 400/413/415, anything else a logged 500 with
 * no internals.
 */
import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import { AppError, internalError, invalidParam, malformedJson, payloadTooLarge, unsupportedMediaType } from '../errors.js';

interface BodyParserError {
  type?: string;
  status?: number;
  limit?: number;
  message?: string;
  charset?: string;
}

export function errorHandler(log: Logger, bodyLimitBytes: number): ErrorRequestHandler {
  return (error: unknown, request, response, _next) => {
    const appError = toAppError(error, bodyLimitBytes);
    if (!appError) {
      log.error({ err: error, method: request.method, path: request.path, requestId: response.locals.requestId }, 'request failed');
    }
    const sent = appError ?? internalError();
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
