/**
 * Enterprise-interface users: Bearer login (DESIGN §4) and the deprecated hourly
 * SHA-256 Basic scheme, which only users switched to it accept.
 */
import { hashPassword, UNKNOWN_LOGIN_HASH, verifyPassword } from '../../auth/passwords.js';
import { equalSecrets, md5Hex, newSecret, sha256Hex } from '../../auth/secrets.js';
import type { Throttle } from '../../auth/throttle.js';
import type { Clock } from '../../core/clock.js';
import type { WritePath } from '../../db/write-path.js';
import { invalidParam, noDataYet, unauthorized } from '../../core/errors.js';
import type { IdGenerator } from '../../core/ids.js';
import type { ExternalApplicationsRepo } from '../external-applications/external-applications.repo.js';
import type { UsersRepo } from './users.repo.js';
import type { UserLoggedIn, UserLogin } from './users.schemas.js';

export interface NewUser {
  login: string;
  password: string;
  externalApplicationId: string;
  legacyBasic: boolean;
  /** The store whose POS the user logs in at; null for head office, whose users reach no store. */
  storeId: string | null;
}

type Session = NonNullable<ReturnType<UsersRepo['sessionByTokenHash']>>;

/** Tills logged in at once, with room to spare; past it the kept sessions start over. */
const KEPT_SESSIONS = 10_000;

/** What UsersService is built from. */
export interface UsersServiceOptions {
  repo: UsersRepo;
  applications: ExternalApplicationsRepo;
  writes: WritePath;
  newId: IdGenerator;
  clock: Clock;
  throttle: Throttle;
  bearerTtlMs: number;
}

export class UsersService {
  private readonly sessions = new Map<string, Session>();
  private sessionsVersion = '';

  private readonly repo: UsersRepo;
  private readonly applications: ExternalApplicationsRepo;
  private readonly writes: WritePath;
  private readonly newId: IdGenerator;
  private readonly clock: Clock;
  private readonly throttle: Throttle;
  private readonly bearerTtlMs: number;

  constructor(options: UsersServiceOptions) {
    const { repo, applications, writes, newId, clock, throttle, bearerTtlMs } = options;
    this.repo = repo;
    this.applications = applications;
    this.writes = writes;
    this.newId = newId;
    this.clock = clock;
    this.throttle = throttle;
    this.bearerTtlMs = bearerTtlMs;
  }

  async create(user: NewUser): Promise<{ user_id: string }> {
    if (!this.applications.byId(user.externalApplicationId)) throw invalidParam('app', 'not_found', user.externalApplicationId);
    if (this.repo.userByLogin(user.login)) throw invalidParam('login', 'already_exists', user.login);
    if (user.storeId !== null && !this.repo.holdsStore(user.storeId)) throw invalidParam('store_id', 'not_found', user.storeId);
    const id = this.newId();
    const passwordHash = await hashPassword(user.password);
    this.writes.write(null, (tx) =>
      this.repo.insertUser(tx, {
        id,
        login: user.login,
        password_hash: passwordHash,
        external_application_id: user.externalApplicationId,
        // Stored only for users switched to the deprecated scheme, which needs it.
        legacy_basic_md5: user.legacyBasic ? md5Hex(user.password) : null,
        state: 1,
        store_id: user.storeId,
      }),
    );
    return { user_id: id };
  }

  async login(request: UserLogin, ip: string): Promise<UserLoggedIn> {
    const attempt = this.throttle.attempt([`user:${request.login}`, `ip:${ip}`]);
    const user = this.repo.userByLogin(request.login);
    // An unknown login costs the same scrypt as a known one: timing tells no login apart.
    const matches = await verifyPassword(request.password, user?.password_hash ?? UNKNOWN_LOGIN_HASH, `user:${request.login}`);
    const valid = user !== undefined && user.state === 1 && user.external_application_id === request.user_external_application_id && matches;
    if (!user && this.repo.awaitsBootstrap()) throw noDataYet();
    if (!valid || !user) throw unauthorized('The login, password or external application is wrong');
    this.throttle.succeed(attempt);
    const token = newSecret();
    const now = this.clock();
    this.writes.write(null, (tx) => {
      this.repo.deleteExpiredSessions(tx, new Date(now).toISOString());
      this.repo.insertSession(tx, {
        id: this.newId(),
        token_hash: sha256Hex(token),
        user_id: user.id,
        expires_at: new Date(now + this.bearerTtlMs).toISOString(),
      });
    });
    return { bearer_token: token };
  }

  /** The user id behind a Bearer token, or a 401. */
  authenticateBearer(token: string): string {
    const session = this.session(token);
    if (!session || session.state !== 1) throw unauthorized('The bearer token is not valid');
    if (Date.parse(session.expires_at) <= this.clock()) throw unauthorized('The bearer token has expired');
    return session.user_id;
  }

  /**
   * Every cash-desk call presents its till's token: sessions found are kept by token until
   * users or user_sessions may have changed (the write path's table version: a login, a
   * user's state replicated, another process's commit). Expiry is checked on each call.
   */
  private session(token: string): Session | undefined {
    const version = this.writes.versions.turnTableVersion('user_sessions', 'users');
    if (version !== this.sessionsVersion) {
      this.sessions.clear();
      this.sessionsVersion = version;
    }
    const known = this.sessions.get(token);
    if (known) return known;
    const found = this.repo.sessionByTokenHash(sha256Hex(token));
    if (found) {
      if (this.sessions.size >= KEPT_SESSIONS) this.sessions.clear();
      this.sessions.set(token, found);
    }
    return found;
  }

  /**
   * Deprecated Basic: the password part is sha256hex(md5hex(password) + UTC YYYYMMDDHH).
   * The current and the previous hour are accepted, so a POS whose request straddles the
   * hour boundary is not refused.
   */
  authenticateLegacyBasic(login: string, presented: string, ip: string): string {
    const user = this.repo.userByLogin(login);
    // A user not switched to this scheme can never pass it, so there is nothing to guess:
    // refusing without counting keeps a misconfigured till from locking out its own user.
    if (!user?.legacy_basic_md5 || user.state !== 1) throw unauthorized(LEGACY_BASIC_REFUSED);
    const attempt = this.throttle.attempt([`user:${login}`, `ip:${ip}`]);
    const now = this.clock();
    const md5 = user.legacy_basic_md5;
    const valid = [now, now - 3_600_000].some((at) => equalSecrets(sha256Hex(md5 + utcHour(at)), presented.toLowerCase()));
    if (!valid) throw unauthorized(LEGACY_BASIC_REFUSED);
    this.throttle.succeed(attempt);
    return user.id;
  }
}

/** One answer whether the user has the scheme or not, so that it tells no login apart. */
const LEGACY_BASIC_REFUSED = 'The Basic credentials are not valid for this hour';

export function utcHour(ms: number): string {
  return new Date(ms).toISOString().slice(0, 13).replace(/[-T]/g, '');
}
