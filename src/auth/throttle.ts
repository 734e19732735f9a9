/**
 * Failed-login throttling (DESIGN §4): after `allowed` failures within the window, per
 * login and per client address, further attempts answer 429 until the oldest failure
 * leaves the window. Kept in memory: a restart forgiving old failures is acceptable.
 */
import type { Clock } from '../clock.js';
import { tooManyRequests } from '../errors.js';

export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly allowed: number,
    private readonly windowMs: number,
  ) {}

  /** Throws 429 when either key is locked out. */
  check(keys: string[]): void {
    const now = this.clock();
    for (const key of keys) {
      const recent = this.recent(key, now);
      if (recent.length >= this.allowed) {
        throw tooManyRequests(Math.max(1, Math.ceil((recent[0]! + this.windowMs - now) / 1000)));
      }
    }
  }

  fail(keys: string[]): void {
    const now = this.clock();
    for (const key of keys) this.failures.set(key, [...this.recent(key, now), now]);
  }

  succeed(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((at) => at > now - this.windowMs);
  }
}
