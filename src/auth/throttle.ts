/**
 * Failed-login throttling (DESIGN §4): after `allowed` failures within the window, per
 * login and per client address, further attempts answer 429 until the oldest failure
 * leaves the window. An attempt counts as a failure from the moment it is made, before the
 * (asynchronous) password check, and is forgiven when it succeeds: so parallel guesses
 * cannot all pass the check before the first failure is counted. Kept in memory: a restart
 * forgiving old failures is acceptable.
 */
import type { Clock } from '../clock.js';
import { tooManyRequests } from '../errors.js';

/** An attempt counted on its keys at a moment. */
export interface Attempt {
  keys: string[];
  at: number;
}

export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly allowed: number,
    private readonly windowMs: number,
  ) {}

  /** Counts an attempt on every key, as a failure until it succeeds; throws 429, counting nothing, when a key is locked out. */
  attempt(keys: string[]): Attempt {
    const now = this.clock();
    for (const key of keys) {
      const recent = this.recent(key, now);
      if (recent.length >= this.allowed) {
        throw tooManyRequests(Math.max(1, Math.ceil((recent[0]! + this.windowMs - now) / 1000)));
      }
    }
    for (const key of keys) this.failures.set(key, [...this.recent(key, now), now]);
    return { keys, at: now };
  }

  /** The attempt succeeded: it no longer counts, and the first key's (the login's) earlier failures are forgiven. */
  succeed(attempt: Attempt): void {
    const [login, ...others] = attempt.keys;
    if (login !== undefined) this.failures.delete(login);
    for (const key of others) {
      const failures = this.failures.get(key) ?? [];
      const index = failures.indexOf(attempt.at);
      if (index >= 0) this.failures.set(key, failures.toSpliced(index, 1));
    }
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((at) => at > now - this.windowMs);
  }
}
