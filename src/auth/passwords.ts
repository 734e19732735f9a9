/** Password hashes: scrypt from node:crypto (DESIGN §4), stored as `scrypt$N$r$p$salt$hash`. */
import { channel } from 'node:diagnostics_channel';
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const PARAMS = { N: 16384, r: 8, p: 1 };
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
const SCHEME = ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p].join('$');

/**
 * Scrypts that run at once on a thread; the rest wait their turn. Each holds one of libuv's
 * four pool threads for tens of milliseconds, and the pool also syncs the database's log
 * (src/db/durability.ts): a burst of logins must leave it threads for the tills' commits.
 */
const AT_ONCE = 2;
let running = 0;
const waiting: (() => void)[] = [];

async function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  // A scrypt that ends hands its turn to the first waiting, which `running` counts already.
  if (running < AT_ONCE) running += 1;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await new Promise((resolve, reject) => {
      scrypt(password, salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
    });
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, PARAMS);
  return [SCHEME, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Where each password check (one scrypt) is announced, for /metrics: a jump is someone guessing. */
export const PASSWORD_CHECKS_CHANNEL = 'loyaltyd:password-check';
const checks = channel(PASSWORD_CHECKS_CHANNEL);

/** Where a stored hash refused for its scheme, parameters or lengths is announced, for the log (src/ops/refused-hashes.ts). */
export const REFUSED_HASHES_CHANNEL = 'loyaltyd:password-hash-refused';
const refusals = channel(REFUSED_HASHES_CHANNEL);

/** What the log says of a refused hash: whose it is, and its scheme and parameters, never its salt or key. */
export interface RefusedHash {
  account: string;
  scheme: string;
}

/**
 * A hash no password matches, checked for a login that does not exist, so that it costs the
 * scrypt a known login costs. Its key is all zero bytes, which scrypt does not derive in practice.
 */
export const UNKNOWN_LOGIN_HASH = [SCHEME, Buffer.alloc(SALT_LENGTH).toString('base64'), Buffer.alloc(KEY_LENGTH).toString('base64')].join('$');

/** The salt and key of a hash this node writes; undefined for any other scheme, parameters or lengths. */
function ownHash(stored: string): { salt: Buffer; key: Buffer } | undefined {
  if (!stored.startsWith(`${SCHEME}$`)) return undefined;
  const [salt, key, ...rest] = stored.slice(SCHEME.length + 1).split('$');
  if (salt === undefined || key === undefined || rest.length > 0) return undefined;
  const parsed = { salt: Buffer.from(salt, 'base64'), key: Buffer.from(key, 'base64') };
  return parsed.salt.length === SALT_LENGTH && parsed.key.length === KEY_LENGTH ? parsed : undefined;
}

/**
 * Checks a password against a stored hash with this node's own scrypt parameters only: a
 * hash with others (replicated from anywhere) matches no password, and costs the one scrypt
 * of an unknown login rather than whatever work its parameters ask for. Such a refusal is
 * announced with `account`, the login the hash belongs to.
 */
export async function verifyPassword(password: string, stored: string, account: string): Promise<boolean> {
  const own = ownHash(stored);
  if (checks.hasSubscribers) checks.publish(undefined);
  if (own === undefined && refusals.hasSubscribers) {
    refusals.publish({ account, scheme: stored.split('$', 4).join('$').slice(0, 80) } satisfies RefusedHash);
  }
  const { salt, key } = own ?? ownHash(UNKNOWN_LOGIN_HASH)!;
  const actual = await derive(password, salt, PARAMS);
  return own !== undefined && timingSafeEqual(actual, key);
}
