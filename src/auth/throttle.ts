/**
 * Throttling (DESIGN §4). A login throttle: after `allowed` failures within the window, per
 * login and per client address, further attempts answer 429 until the oldest failure
 * leaves the window. An attempt counts as a failure from the moment it is made, before the
 * (asynchronous) password check, and is forgiven when it succeeds: so parallel guesses
 * cannot all pass the check before the first failure is counted. Customer-app logins are
 * counted by LoginThrottle, per customer and caller, per caller and per node. A rate limit (token
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
    this.check(keys, now);
    for (const key of keys) this.failures.set(key, [...this.recent(key, now), now]);
    this.sweep(now);
    return { keys, at: now };
  }

  /** Throws 429 when a key is locked out, until its oldest failure leaves the window. */
  check(keys: string[], now = this.clock()): void {
    for (const key of keys) {
      const recent = this.recent(key, now);
      if (recent.length >= this.allowed) {
        throw tooManyRequests(Math.max(1, Math.ceil((recent[0]! + this.windowMs - now) / 1000)));
      }
    }
  }

  /** The attempt succeeded: it no longer counts, and the first key's (the login's) earlier failures are forgiven. */
  succeed(attempt: Attempt): void {
    const [login, ...others] = attempt.keys;
    if (login !== undefined) this.failures.delete(login);
    this.withdraw({ keys: others, at: attempt.at });
  }

  /** The attempt succeeded and forgives nothing else: it no longer counts on any of its keys. */
  withdraw(attempt: Attempt): void {
    for (const key of attempt.keys) {
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

/** Who tries a login: the caller's address, and at the hub the node that forwarded it. */
export interface Caller {
  ip: string;
  node?: string;
}

/** A customer-app login as it is counted: on its login, its caller's address, and its node when a node forwarded it to the hub. */
export interface LoginAttempt {
  login: Attempt;
  address: Attempt;
  node: Attempt;
}

/**
 * Failed customer-app logins (src/decisions/0105-login-throttles.md), counted three ways, each
 * with its own allowance. Per customer and caller address: a caller's failures never lock the
 * customer out for anyone else, and her success forgives her own. Per caller address, across
 * customers: one address guessing at many. Per node, at the hub: a store names its callers'
 * addresses, so one naming a new address for each guess still runs into its own cap, while
 * other nodes' logins go on.
 */
export class LoginThrottle {
  constructor(
    private readonly logins: Throttle,
    private readonly addresses: Throttle,
    private readonly nodes: Throttle,
  ) {}

  /**
   * Counts a password login at `login` (a customer, or the login as typed when it names none) by
   * the caller at `caller.ip`; throws 429, counting nothing, when any count is locked out.
   */
  attempt(login: string, caller: Caller): LoginAttempt {
    return this.count(`${login} from ${caller.ip}`, [`ip:${caller.ip}`], caller);
  }

  /**
   * Counts a login with a code (an auth-token): on the code whoever tries it, for a code is
   * guessed at from anywhere, and its holder asks for another when it is locked out.
   */
  attemptCode(code: string, caller: Caller): LoginAttempt {
    return this.count(code, [], caller);
  }

  private count(login: string, address: string[], caller: Caller): LoginAttempt {
    const node = caller.node === undefined ? [] : [`node:${caller.node}`];
    this.addresses.check(address);
    this.nodes.check(node);
    return { login: this.logins.attempt([login]), address: this.addresses.attempt(address), node: this.nodes.attempt(node) };
  }

  /** The login succeeded: the caller's earlier failures at this login are forgiven; the address and the node are charged nothing for it. */
  succeed(attempt: LoginAttempt): void {
    this.logins.succeed(attempt.login);
    this.addresses.withdraw(attempt.address);
    this.nodes.withdraw(attempt.node);
  }
}
