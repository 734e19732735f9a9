/**
 * `send-password-setup-email`: records a password-setup request and mails the customer a
 * link carrying a one-time secret. An e-mail of no active customer gets the same answer and nothing
 * else, so the call tells no one who is a customer; requests are rate-limited per e-mail
 * address and per client address, known or not alike. A hub, or a store with no hub configured, sends the
 * mail itself; a store with a hub asks its hub (DESIGN §4: the node that holds the secret sends
 * the mail), so a store never holds a setup secret nor needs a route to the mail server. The hub
 * also mails the link to a customer a store registered without a password
 * (src/features/tokens/password-setup.effect.ts).
 */
import { newSecret, sha256Hex } from '../../auth/secrets.js';
import type { RateLimit } from '../../auth/throttle.js';
import type { Clock } from '../../core/clock.js';
import type { WritePath } from '../../db/write-path.js';
import { mailNotSent } from '../../core/errors.js';
import type { RequestContext } from '../../http/endpoint.js';
import type { MailMessage, Mailer } from '../../mail/mailer.js';
import type { IdGenerator } from '../../core/ids.js';
import type { CustomersRepo } from '../customers/customers.repo.js';
import type { TokensRepo } from './tokens.repo.js';
import type { PasswordSetupEmail } from './tokens.schemas.js';
import type { TokensService } from './tokens.service.js';

const LINK_VALIDITY_MS = 24 * 3_600_000;

export function passwordSetupMessage(email: string, link: string): MailMessage {
  return { to: email, subject: 'Set your password', text: `Use this link within 24 hours to set the password of your account:\n\n${link}\n` };
}

/** What PasswordSetupService is built from. */
export interface PasswordSetupServiceOptions {
  repo: TokensRepo;
  tokens: TokensService;
  customers: CustomersRepo;
  writes: WritePath;
  mailer: Mailer;
  limit: RateLimit;
  newId: IdGenerator;
  clock: Clock;
  /** The page a setup link opens, with the link's token appended. */
  setupUrl: string;
}

export class PasswordSetupService {
  private readonly repo: TokensRepo;
  private readonly tokens: TokensService;
  private readonly customers: CustomersRepo;
  private readonly writes: WritePath;
  private readonly mailer: Mailer;
  private readonly limit: RateLimit;
  private readonly newId: IdGenerator;
  private readonly clock: Clock;
  private readonly setupUrl: string;

  constructor(options: PasswordSetupServiceOptions) {
    const { repo, tokens, customers, writes, mailer, limit, newId, clock, setupUrl } = options;
    this.repo = repo;
    this.tokens = tokens;
    this.customers = customers;
    this.writes = writes;
    this.mailer = mailer;
    this.limit = limit;
    this.newId = newId;
    this.clock = clock;
    this.setupUrl = setupUrl;
  }

  async send(tokenId: string, request: PasswordSetupEmail, context: RequestContext): Promise<void> {
    this.tokens.ownToken(tokenId, context);
    this.limit.take(`email:${request.email.toLowerCase()}`, `ip:${context.ip}`);
    const customer = this.customers.credentialsByEmail(request.email);
    if (customer?.state !== 1) return;
    await this.mailLink(customer.id, request.email);
  }

  /** Records a setup request with a secret of this node's and mails its link; a failed send leaves the request unsent. */
  async mailLink(customerId: string, email: string): Promise<void> {
    const secret = newSecret();
    const link = `${this.setupUrl}?token=${secret}`;
    const row = {
      id: this.newId(),
      customer_id: customerId,
      email,
      secret_hash: sha256Hex(secret),
      expires_at: new Date(this.clock() + LINK_VALIDITY_MS).toISOString(),
      sent_at: null,
    };
    this.writes.write(null, (tx) => this.repo.insertPasswordSetupRequest(tx, row));
    try {
      await this.mailer.send(passwordSetupMessage(email, link));
    } catch {
      throw mailNotSent();
    }
    this.writes.write(null, (tx) => this.repo.markPasswordSetupSent(tx, row.id, new Date(this.clock()).toISOString()));
  }
}
