/**
 * The error catalogue: every reason and exception the API answers with, the one error class
 * that carries them to the error handler (src/http/error-handler.ts), and the constructors of
 * the answers; those of the sync protocol between a store and its hub are in
 * src/core/sync-errors.ts. Shapes follow BasicError / BadRequestErrorBody of
 * spec/carecloud-openapi.yaml.
 */
import { MAX_JSON_DEPTH } from './json-depth.js';

/** Reasons of `invalid_params[].reason`: the generic ones first, then the operation ones. */
export const REASONS = {
  required: 'The parameter is required.',
  empty: 'The parameter must not be empty.',
  not_found: 'No record with this value exists.',
  not_allowed_value: 'The value is not allowed here.',
  invalid_value_format: 'The value has the wrong format.',
  already_exists: 'A record with this value already exists.',
  relation_already_exists: 'This relation already exists.',
  not_belong_to_logged_in_customer: 'The record does not belong to the logged-in customer.',
  deleted: 'The record was deleted.',
  expired: 'The value has expired.',
  already_used: 'The value was already used.',
  not_enough_points_for_payment: 'The customer has fewer points than the amount.',
  offline_redemption_limit: 'The store cannot redeem this many points until it has synced with head office.',
  item_price_lower_than_paid_amount: 'The item was paid more than its price times its quantity.',
  voucher_already_used: 'The voucher was already applied.',
  voucher_expired: 'The voucher is outside its validity.',
  voucher_not_allowed_in_store: 'The voucher cannot be applied in this store.',
  not_enough_items_for_voucher: 'The bill lacks the items the voucher needs.',
  max_number_of_voucher_exceeded: 'More vouchers of this reward than one bill allows.',
} as const;
export type Reason = keyof typeof REASONS;

export interface InvalidParam {
  name: string;
  reason: Reason;
  value?: string;
  message?: string;
}

/** Every `exception` an answer names, with its status (the README's table is kept equal to it). */
export const EXCEPTIONS = {
  invalid_params_exception: 400,
  unauthorized_exception: 401,
  interface_not_allowed_exception: 403,
  forbidden_exception: 403,
  not_found_exception: 404,
  method_not_allowed_exception: 405,
  sync_generation_diverged_exception: 409,
  sync_sequence_gap_exception: 409,
  sync_version_mismatch_exception: 409,
  sync_rows_refused_exception: 409,
  sync_cursor_expired_exception: 410,
  payload_too_large_exception: 413,
  unsupported_media_type_exception: 415,
  request_header_fields_too_large_exception: 431,
  idempotency_key_reused_exception: 422,
  too_many_requests_exception: 429,
  internal_server_error_exception: 500,
  service_unavailable_exception: 503,
} as const;

export type Exception = keyof typeof EXCEPTIONS;

export interface ErrorBody {
  type: string;
  exception: Exception;
  title: string;
  detail: string;
  error_data?: Record<string, unknown>;
}

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.detail);
    this.status = EXCEPTIONS[body.exception];
  }
}

/** The `type` of an answer whose exception says all there is. */
export const ABOUT_BLANK = 'about:blank';

export function badRequest(params: InvalidParam[], detail = 'The request has invalid parameters.'): AppError {
  const invalid_params = params.map((param) => ({
    name: param.name,
    reason: param.reason,
    value: param.value ?? '',
    message: param.message ?? REASONS[param.reason],
  }));
  return new AppError({
    type: ABOUT_BLANK,
    exception: 'invalid_params_exception',
    title: 'Invalid parameters',
    detail,
    error_data: { invalid_params },
  });
}

export function invalidParam(name: string, reason: Reason, value?: unknown, message?: string): AppError {
  return badRequest([{ name, reason, value: value === undefined ? undefined : stringify(value), message }]);
}

export function notFound(resourceName: string, resourceId: string): AppError {
  return new AppError({
    type: ABOUT_BLANK,
    exception: 'not_found_exception',
    title: 'Resource not found',
    detail: `Resource "${resourceName}" with id "${resourceId}" was not found`,
    error_data: { resource_name: resourceName, resource_id: resourceId },
  });
}

export function pathNotFound(path: string): AppError {
  return new AppError({
    type: ABOUT_BLANK,
    exception: 'not_found_exception',
    title: 'Resource not found',
    detail: `No resource at ${path}`,
    error_data: { resource_name: path },
  });
}

export function unauthorized(detail: string): AppError {
  return new AppError(
    { type: ABOUT_BLANK, exception: 'unauthorized_exception', title: 'Unauthorized', detail, error_data: {} },
    { 'WWW-Authenticate': 'Basic realm="loyaltyd", Bearer realm="loyaltyd"' },
  );
}

export function forbidden(detail: string): AppError {
  return new AppError({ type: ABOUT_BLANK, exception: 'forbidden_exception', title: 'Forbidden', detail, error_data: {} });
}

/** A customer who is not active (state other than 1) proved who they are, and still may not log in. */
export function customerBlocked(): AppError {
  return forbidden('The customer is blocked');
}

export function interfaceNotAllowed(resourceName: string, interfaceLabel: string): AppError {
  return new AppError({
    type: 'interface_not_allowed_exception',
    exception: 'interface_not_allowed_exception',
    title: `${interfaceLabel} API is not allowed for this resource`,
    detail: `Resource name "${resourceName}" is not allowed in ${interfaceLabel} API`,
    error_data: { invalid_resource_name: resourceName, interface: interfaceLabel },
  });
}

export function methodNotAllowed(method: string, allowed: string[]): AppError {
  return new AppError(
    {
      type: ABOUT_BLANK,
      exception: 'method_not_allowed_exception',
      title: 'Method not allowed',
      detail: `The resource does not support ${method}`,
      error_data: { http_method: method },
    },
    { Allow: allowed.join(', ') },
  );
}

export function payloadTooLarge(limitBytes: number): AppError {
  return new AppError({
    type: ABOUT_BLANK,
    exception: 'payload_too_large_exception',
    title: 'Payload too large',
    detail: `The request body is larger than ${limitBytes} bytes`,
    error_data: { limit_bytes: limitBytes },
  });
}

export function malformedJson(detail: string): AppError {
  return badRequest([{ name: 'body', reason: 'invalid_value_format', message: `The body is not valid JSON: ${detail}` }]);
}

/**
 * A JSON body nested deeper than MAX_JSON_DEPTH (src/core/json-depth.ts), refused by the body
 * readers before anything walks it; also what a walk that still overflows the stack answers.
 */
export function nestedTooDeeply(): AppError {
  return invalidParam('body', 'invalid_value_format', undefined, `The body nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays`);
}

/** JSON.stringify of what a call sent (undefined as ''), refused as the body when it nests too deep to walk. */
export function requestJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch (error) {
    if (error instanceof RangeError) throw nestedTooDeeply();
    throw error;
  }
}

/** A request line and headers larger than Node's limit (16 KB), refused before the app reads it (src/http/client-error.ts). */
export function headersTooLarge(): AppError {
  return new AppError({
    type: ABOUT_BLANK,
    exception: 'request_header_fields_too_large_exception',
    title: 'Request header fields too large',
    detail: 'The request line and headers are larger than 16 KB; send long values in the body',
    error_data: {},
  });
}

/** A request that is not well-formed HTTP, refused before the app reads it. */
export function malformedRequest(): AppError {
  return badRequest([], 'The request is not well-formed HTTP.');
}

export function unsupportedMediaType(contentType: string): AppError {
  return new AppError({
    type: ABOUT_BLANK,
    exception: 'unsupported_media_type_exception',
    title: 'Unsupported media type',
    detail: `Request bodies must be application/json, not ${contentType}`,
    error_data: {},
  });
}

export function tooManyRequests(retryAfterSeconds: number): AppError {
  return new AppError(
    {
      type: ABOUT_BLANK,
      exception: 'too_many_requests_exception',
      title: 'Too many requests',
      detail: `Too many attempts; retry after ${retryAfterSeconds} s`,
      error_data: { retry_after: retryAfterSeconds },
    },
    { 'Retry-After': String(retryAfterSeconds) },
  );
}

export function idempotencyMismatch(): AppError {
  return new AppError({
    type: ABOUT_BLANK,
    exception: 'idempotency_key_reused_exception',
    title: 'Idempotency key reused',
    detail: 'The Idempotency-Key was already used with a different request body',
    error_data: {},
  });
}

export function internalError(): AppError {
  return new AppError({
    type: ABOUT_BLANK,
    exception: 'internal_server_error_exception',
    title: 'Internal server error',
    detail: 'The server failed to handle the request; it has been logged',
  });
}

/**
 * A credential call (a login, a registration with a password, a logout) at a store whose hub does
 * not answer: only the hub does them (DESIGN §4), and sessions that exist keep working.
 */
export function madeAtHeadOffice(): AppError {
  return new AppError(
    {
      type: ABOUT_BLANK,
      exception: 'service_unavailable_exception',
      title: 'Head office unreachable',
      detail: 'Logins, passwords and sign-outs are handled by head office, which this store cannot reach now; try again shortly',
      error_data: {},
    },
    { 'Retry-After': '30' },
  );
}

/** A write a store with a hub may not make: head office owns the data. */
export function writtenAtHeadOffice(reason: string): AppError {
  return new AppError({
    type: ABOUT_BLANK,
    exception: 'forbidden_exception',
    title: 'Forbidden',
    detail: `This is written at head office, not at a store (${reason})`,
    error_data: {},
  });
}

/**
 * send-purchase of a bill this store already recorded, or a cancellation of a bill already
 * cancelled: the field and value that name it, and the purchase that holds it.
 */
export function billAlreadySent(param: { name: 'bill.bill_id' | 'bill.bill_number'; value: string; message: string }, purchaseId: string): AppError {
  return new AppError({
    type: ABOUT_BLANK,
    exception: 'invalid_params_exception',
    title: 'Invalid parameters',
    detail: param.message,
    error_data: {
      invalid_params: [{ ...param, reason: 'already_exists' }],
      purchase_id: purchaseId,
    },
  });
}

/** A login at a store that has not bootstrapped from its hub: it holds none of the chain's users yet. */
export function noDataYet(): AppError {
  return new AppError({
    type: ABOUT_BLANK,
    exception: 'service_unavailable_exception',
    title: 'No data yet',
    detail: 'This store holds no data yet: it has not bootstrapped from its hub (its /health and `loyaltyd sync status` say why)',
    error_data: {},
  });
}

/**
 * A hub whose PostgreSQL server does not answer (restarting, failing over to its standby): the
 * call did nothing, and the hub connects again at the next call.
 */
export function databaseUnreachable(): AppError {
  return new AppError(
    {
      type: ABOUT_BLANK,
      exception: 'service_unavailable_exception',
      title: 'Database unreachable',
      detail: 'This hub cannot reach its database now (a restart or a failover); nothing was done; try again shortly',
      error_data: {},
    },
    { 'Retry-After': '5' },
  );
}

/** An error answer made on the writer thread (src/root/writer.ts), as the thread made it. */
export function madeOnWriter(body: ErrorBody, headers: Record<string, string>): AppError {
  return new AppError(body, headers);
}

/** A store whose writer thread stopped (src/root/writer.ts): it answers reads, and no write until it is restarted. */
export function writerStopped(): AppError {
  return new AppError({
    type: ABOUT_BLANK,
    exception: 'service_unavailable_exception',
    title: 'Writes stopped',
    detail: 'This node takes no writes: its writer thread stopped (its log and /health say why); it takes them again once restarted',
    error_data: {},
  });
}

export function mailNotSent(): AppError {
  return new AppError({
    type: ABOUT_BLANK,
    exception: 'service_unavailable_exception',
    title: 'Mail not sent',
    detail: 'The mail server did not accept the message; try again later',
    error_data: {},
  });
}

function stringify(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}
