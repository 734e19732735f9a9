/**
 * Authentication tokens (`auth-token`): a short code a logged-in customer's app hands to
 * another application, which signs the customer in with it once
 * (`authentication-token-login`, from the current OpenAPI file) before it expires. A code
 * takes as many wrong tries as a login takes failures (`auth.login_failures_allowed`); then
 * its request answers 429 for the failure window, longer than a code lives. A code is stored
 * only as its hash under this node's key.
 */
import { equalSecrets, keyedHashHex, newSecret, shortCode } from '../../auth/secrets.js';
import type { LoginThrottle } from '../../auth/throttle.js';
import type { Clock } from '../../core/clock.js';
import type { WritePath } from '../../db/write-path.js';
import { customerBlocked, forbidden, invalidParam } from '../../core/errors.js';
import type { RequestContext } from '../../http/endpoint.js';
import type { IdGenerator } from '../../core/ids.js';
import { formatTimestamp } from '../../core/time.js';
import type { CustomersRepo } from '../customers/customers.repo.js';
import type { ExternalApplicationsRepo } from '../external-applications/external-applications.repo.js';
import type { TokensRepo } from './tokens.repo.js';
import type { AuthTokenIssued, AuthTokenLogin, AuthTokenQuery, CustomerSession } from './tokens.schemas.js';
import type { TokensService } from './tokens.service.js';

/** What AuthTokensService is built from. */
export interface AuthTokensServiceOptions {
  repo: TokensRepo;
  tokens: TokensService;
  applications: ExternalApplicationsRepo;
  customers: Pick<CustomersRepo, 'credentialsById'>;
  throttle: LoginThrottle;
  writes: WritePath;
  newId: IdGenerator;
  clock: Clock;
  ttlMs: number;
  timeZone: string;
  /** This node's key for its codes' hashes (src/auth/node-key.ts). */
  codeKey: Buffer;
}

export class AuthTokensService {
  private readonly repo: TokensRepo;
  private readonly tokens: TokensService;
  private readonly applications: ExternalApplicationsRepo;
  private readonly customers: Pick<CustomersRepo, 'credentialsById'>;
  private readonly throttle: LoginThrottle;
  private readonly writes: WritePath;
  private readonly newId: IdGenerator;
  private readonly clock: Clock;
  private readonly ttlMs: number;
  private readonly timeZone: string;
  private readonly codeKey: Buffer;

  constructor(options: AuthTokensServiceOptions) {
    const { repo, tokens, applications, customers, throttle, writes, newId, clock, ttlMs, timeZone, codeKey } = options;
    this.repo = repo;
    this.tokens = tokens;
    this.applications = applications;
    this.customers = customers;
    this.throttle = throttle;
    this.writes = writes;
    this.newId = newId;
    this.clock = clock;
    this.ttlMs = ttlMs;
    this.timeZone = timeZone;
    this.codeKey = codeKey;
  }

  issue(tokenId: string, query: AuthTokenQuery, context: RequestContext): AuthTokenIssued {
    const token = this.tokens.ownToken(tokenId, context);
    if (!token.customer_id) throw forbidden('No customer is logged in on this token');
    if (!this.applications.byId(query.external_application_id)) {
      throw invalidParam('external_application_id', 'not_found', query.external_application_id);
    }
    const value = shortCode(query.token_type === '2' ? 2 : 1);
    const requestId = newSecret(32);
    const expiresAt = this.clock() + this.ttlMs;
    const row = {
      id: this.newId(),
      token_id: token.id,
      customer_id: token.customer_id,
      external_application_id: query.external_application_id,
      value_hash: keyedHashHex(this.codeKey, value),
      token_request_id: requestId,
      expires_at: new Date(expiresAt).toISOString(),
      used_at: null,
    };
    this.writes.write(null, (tx) => this.repo.insertAuthToken(tx, row));
    // interface.md and the current spec name the code authentication_token; the 2021 file,
    // and the clients generated from it, read it as token. Both carry it.
    return {
      authentication_token: value,
      token: value,
      token_request_id: requestId,
      valid_to: formatTimestamp(expiresAt, this.timeZone),
    };
  }

  login(tokenId: string, request: AuthTokenLogin, context: RequestContext): CustomerSession {
    const token = this.tokens.ownToken(tokenId, context);
    const attempt = this.throttle.attemptCode(`auth-token:${request.token_request_id}`, context);
    const issued = this.repo.authTokenByRequestId(request.token_request_id);
    if (!issued || !equalSecrets(issued.value_hash, keyedHashHex(this.codeKey, request.token.toUpperCase()))) {
      throw invalidParam('token', 'not_found', request.token);
    }
    this.throttle.succeed(attempt);
    if (issued.used_at) throw invalidParam('token', 'already_used', request.token);
    const now = this.clock();
    if (Date.parse(issued.expires_at) <= now) throw invalidParam('token', 'expired', request.token);
    if (this.customers.credentialsById(issued.customer_id)?.state !== 1) throw customerBlocked();
    const usedAt = new Date(now).toISOString();
    this.writes.write(null, (tx) => {
      this.repo.markAuthTokenUsed(tx, issued.id, usedAt);
      this.tokens.logIn(tx, token.id, issued.customer_id);
    });
    return { customer_id: issued.customer_id };
  }
}
