/**
 * Customer-interface tokens (DESIGN §4). A token id is a credential, so it is a random
 * secret handed out once; the stored record's id is its SHA-256, which is also what
 * is kept. A token becomes a customer session at login and stops being one at logout. A token
 * stays at the node that made it: at a store with a hub, logins and logouts are made at the hub
 * (src/http/chain-sessions.ts), which keeps the token as that store's, and the store keeps the
 * session the hub answered (`store_sessions`); a hub, or a store without one, makes them here.
 */
import { UNKNOWN_LOGIN_HASH, verifyPassword } from '../../auth/passwords.js';
import { newSecret, sha256Hex } from '../../auth/secrets.js';
import type { LoginThrottle, RateLimit } from '../../auth/throttle.js';
import type { Clock } from '../../core/clock.js';
import type { WritePath, WriteTransaction } from '../../db/write-path.js';
import { customerBlocked, forbidden, invalidParam, unauthorized } from '../../core/errors.js';
import type { RequestContext } from '../../http/endpoint.js';
import type { ExternalApplicationsRepo } from '../external-applications/external-applications.repo.js';
import type { CustomerCredentials, CustomersRepo } from '../customers/customers.repo.js';
import type { TokenRow, TokensRepo } from './tokens.repo.js';
import type { ForwardedToken } from '../../sync/protocol/protocol.js';
import type { CreateToken, CustomerLogin, CustomerSession, TokenCreated, UpdateToken } from './tokens.schemas.js';

/** What TokensService is built from. */
export interface TokensServiceOptions {
  repo: TokensRepo;
  customers: CustomersRepo;
  applications: ExternalApplicationsRepo;
  writes: WritePath;
  throttle: LoginThrottle;
  creations: RateLimit;
  clock: Clock;
  /** How long a token no customer is logged in on stays valid after its last change. */
  anonymousTokenTtlMs: number;
}

export class TokensService {
  private readonly repo: TokensRepo;
  private readonly customers: CustomersRepo;
  private readonly applications: ExternalApplicationsRepo;
  private readonly writes: WritePath;
  private readonly throttle: LoginThrottle;
  private readonly creations: RateLimit;
  private readonly clock: Clock;
  private readonly anonymousTokenTtlMs: number;

  constructor(options: TokensServiceOptions) {
    const { repo, customers, applications, writes, throttle, creations, clock, anonymousTokenTtlMs } = options;
    this.repo = repo;
    this.customers = customers;
    this.applications = applications;
    this.writes = writes;
    this.throttle = throttle;
    this.creations = creations;
    this.clock = clock;
    this.anonymousTokenTtlMs = anonymousTokenTtlMs;
  }

  create(request: CreateToken, apiUserId: string, ip: string): TokenCreated {
    // Every token is a row of this node's: creating them is rate-limited per api user and per address.
    this.creations.take(`api-user:${apiUserId}`, `ip:${ip}`);
    // interface.md: the application id may come at the top level or inside setup. The seed
    // lets a client leave it out, as today's generated clients do; then the chain's one
    // customer application is meant, and where there are several the caller must choose.
    const applicationId = request.external_application_id ?? request.setup.external_application_id ?? this.applications.soleActiveId();
    if (!applicationId) {
      throw invalidParam(
        'external_application_id',
        'required',
        undefined,
        'The chain has several customer external applications (or none); name one',
      );
    }
    if (!this.applications.byId(applicationId)) throw invalidParam('external_application_id', 'not_found', applicationId);
    const tokenId = newSecret(20);
    const id = sha256Hex(tokenId);
    const row = {
      id,
      api_user_id: apiUserId,
      external_application_id: applicationId,
      device: JSON.stringify(request.device),
      setup: JSON.stringify({ ...request.setup, external_application_id: applicationId }),
      push_token: request.push_token ?? null,
      customer_id: null,
      state: 1,
    };
    this.writes.write(null, (tx) => this.repo.insertToken(tx, row));
    return { token_id: tokenId };
  }

  update(tokenId: string, request: UpdateToken, context: RequestContext): void {
    const token = this.ownToken(tokenId, context);
    const applicationId = request.setup.external_application_id ?? token.external_application_id;
    if (request.setup.external_application_id !== undefined && !this.applications.byId(applicationId)) {
      throw invalidParam('setup.external_application_id', 'not_found', applicationId);
    }
    // The column and the setup name the same application, as at creation.
    const changes = {
      external_application_id: applicationId,
      setup: JSON.stringify({ ...request.setup, external_application_id: applicationId }),
      ...(request.push_token === undefined ? {} : { push_token: request.push_token }),
    };
    this.writes.write(null, (tx) => this.repo.updateToken(tx, token.id, changes));
  }

  async login(tokenId: string, request: CustomerLogin, context: RequestContext): Promise<CustomerSession> {
    const token = this.ownToken(tokenId, context);
    const customer =
      request.login_type === 'card'
        ? this.customers.credentialsByCardNumber(request.login_value)
        : this.customers.credentialsByEmail(request.login_value);
    // Failures count per customer and caller, not per spelling of the login: guessing by card
    // and by e-mail, or in another letter case, draws on the same allowance.
    const loginKey = customer ? `customer:${customer.id}` : `customer:${request.login_type}:${request.login_value.toLowerCase()}`;
    const attempt = this.throttle.attempt(loginKey, context);
    // An unknown login costs the same scrypt as a known one: timing tells no login apart.
    const matches = await verifyPassword(request.password, customer?.password_hash ?? UNKNOWN_LOGIN_HASH, loginKey);
    if (!matches || !customer) throw unauthorized('The login or password is wrong');
    if (customer.state !== 1) throw customerBlocked();
    this.throttle.succeed(attempt);
    return this.startSession(token, customer);
  }

  startSession(token: TokenRow, customer: CustomerCredentials): CustomerSession {
    this.writes.write(null, (tx) => this.repo.updateToken(tx, token.id, { customer_id: customer.id }));
    return { customer_id: customer.id };
  }

  /** Logs the token in, in a write that may do more. */
  logIn(tx: WriteTransaction, tokenId: string, customerId: string): void {
    this.repo.updateToken(tx, tokenId, { customer_id: customerId });
  }

  /** A session the hub made for this store's caller: the store's until the customer logs out. */
  adoptChainSession(tokenId: string, customerId: string): void {
    this.repo.startStoreSession(tokenId, customerId, new Date(this.clock()).toISOString());
  }

  /** The end of a session the hub made for this store's caller, once the hub logged it out. */
  endChainSession(tokenId: string): void {
    this.repo.endStoreSession(tokenId);
  }

  /** A token this node holds without its secret, as a store sends it with a credential call it asks of its hub. */
  forwarded(tokenId: string): ForwardedToken | undefined {
    return this.repo.forwardedToken(tokenId);
  }

  logout(tokenId: string, context: RequestContext): void {
    const token = this.ownToken(tokenId, context);
    this.writes.write(null, (tx) => {
      this.repo.updateToken(tx, token.id, { customer_id: null });
      this.repo.endStoreSession(token.id);
    });
  }

  /** The principal of a customer-interface request carrying `api_user:token_id`. */
  authenticate(tokenId: string, apiUserId: string): TokenRow {
    const token = this.repo.tokenById(sha256Hex(tokenId));
    if (!token || token.state !== 1 || token.api_user_id !== apiUserId) throw unauthorized('The token is not valid');
    if (token.customer_id === null && Date.parse(token.last_change) + this.anonymousTokenTtlMs < this.clock()) {
      throw unauthorized('The token has expired: no customer logged in on it in time; create another');
    }
    return token;
  }

  /**
   * The token named in the path. In the customer interface it must be the caller's own
   * token; the enterprise interface (auth-token) may name any token.
   */
  ownToken(tokenId: string, context: RequestContext): TokenRow {
    // A store asking its hub for its caller names the token by its hash, never its secret (src/sync/store/hub-sessions.ts).
    const own = context.principal.kind === 'token' && tokenId === context.principal.tokenId;
    const id = own ? tokenId : sha256Hex(tokenId);
    if (context.principal.kind === 'token' && context.principal.tokenId !== id) {
      throw forbidden('The token in the path is not the token of the Authorization header');
    }
    const token = this.repo.tokenById(id);
    if (!token || token.state !== 1) throw invalidParam('token_id', 'not_found', tokenId);
    return token;
  }
}
