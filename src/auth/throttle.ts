/**
 * Throttling (DESIGN §4). A login throttle: after `allowed` failures within the window, per
 * login and per client address, further attempts answer 429 until the oldest failure
 * leaves the window. An attempt counts as a failure from the moment it is made, before the
 * (asynchronous) password check, and is forgiven when it succeeds: so parallel guesses
 * cannot all pass the check before the first failure is counted. A rate limit (token
 * creation, password-setup mail) is the same throttle whose attempts never succeed: every
 * request counts. Kept in memory: a restart forgiving old attempts is acceptable.
 */
import type { Clock } from '../core/clock.js';
import { tooManyRequests } from '../core/errors.js';

/** An attempt counted on its keys at a moment. */
export interface Attempt {
  keys: string[];
  at: number;
}

export class Throttle {
  private readonly failures = new Map<string, number[]>();
  /** The number of keys after the last sweep of those with nothing left in the window. */
  private sweptSize = 0;

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
    this.sweep(now);
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

  /**
   * Forgets the keys with no attempt left in the window once their number has doubled since
   * the last sweep: memory stays bounded by the attempts of one window, at a constant cost per attempt.
   */
  private sweep(now: number): void {
    if (this.failures.size < Math.max(1024, this.sweptSize * 2)) return;
    for (const key of this.failures.keys()) {
      if (this.recent(key, now).length === 0) this.failures.delete(key);
    }
    this.sweptSize = this.failures.size;
  }
}

/** Requests counted per subject (an api user, an e-mail address) and per client address, each with its own allowance within one window. */
export class RateLimit {
  private readonly subjects: Throttle;
  private readonly addresses: Throttle;

  constructor(clock: Clock, perSubject: number, perAddress: number, windowMs: number) {
    this.subjects = new Throttle(clock, perSubject, windowMs);
    this.addresses = new Throttle(clock, perAddress, windowMs);
  }

  /** Counts one request; throws 429 when the subject or the address has used its allowance. */
  take(subject: string, address: string): void {
    this.addresses.attempt([address]);
    this.subjects.attempt([subject]);
  }
}
