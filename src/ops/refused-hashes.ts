/**
 * One warning a login whose stored password hash this node refused (src/auth/passwords.ts):
 * the login fails as a wrong password would, and the operator reads here why.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Logger } from 'pino';
import { REFUSED_HASHES_CHANNEL, type RefusedHash } from '../auth/passwords.js';

/** Logs each refused hash until the returned function is called. */
export function logRefusedHashes(log: Logger): () => void {
  const warn = (message: unknown) => {
    const { account, scheme } = message as RefusedHash;
    log.warn({ account, scheme }, 'login refused: the stored password hash has another scheme or other parameters than this node writes');
  };
  subscribe(REFUSED_HASHES_CHANNEL, warn);
  return () => unsubscribe(REFUSED_HASHES_CHANNEL, warn);
}
