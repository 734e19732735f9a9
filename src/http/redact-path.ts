/**
 * Request paths as the logs show them: a path segment that is a credential never reaches a
 * log line. Redacted are the segment after `tokens/` (a customer-interface token id, which
 * the router matches in any letter case) and after `password-setup/`, and any segment long
 * enough to be a secret rather than a record's id (ids are 26 characters, secrets 40 or more).
 */
const AFTER_SECRET_NAME = /(\/(?:tokens|password-setup)\/)[^/]+/gi;
const SECRET_LIKE = /(?<=\/)[\w%.~-]{32,}(?=\/|$)/g;

export const REDACTED = ':redacted';

export function redactPath(path: string): string {
  return path.replace(AFTER_SECRET_NAME, `$1${REDACTED}`).replace(SECRET_LIKE, REDACTED);
}
