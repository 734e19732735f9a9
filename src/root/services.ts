/** Builds every service of a node as plain objects (no container, no singletons). */
import { join } from 'node:path';
import { loadNodeKey } from '../auth/node-key.js';
import { LoginThrottle, RateLimit, Throttle } from '../auth/throttle.js';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { ApiUsersRepo } from '../features/api-users/api-users.repo.js';
import { ApiUsersService } from '../features/api-users/api-users.service.js';
import { CustomersRepo } from '../features/customers/customers.repo.js';
import { ExternalApplicationsRepo } from '../features/external-applications/external-applications.repo.js';
import { ExternalApplicationsService } from '../features/external-applications/external-applications.service.js';
import { NodesService } from '../features/nodes/nodes.service.js';
import { AuthTokensService } from '../features/tokens/auth-tokens.service.js';
import { PasswordSetupService } from '../features/tokens/password-setup.service.js';
import { SocialLoginService } from '../features/tokens/social-login.service.js';
import { TokensRepo } from '../features/tokens/tokens.repo.js';
import { TokensService } from '../features/tokens/tokens.service.js';
import { UsersRepo } from '../features/users/users.repo.js';
import { UsersService } from '../features/users/users.service.js';
import { CreditsRepo } from '../loyalty/credits.repo.js';
import type { Ledger } from '../loyalty/ledger.js';
import { LedgerRecords } from '../loyalty/ledger-records.js';
import { RedemptionPolicy } from '../loyalty/offline-risk.js';
import { PointsRepo } from '../loyalty/points.repo.js';
import { ProgramRepo } from '../loyalty/program.repo.js';
import { ProgramService } from '../loyalty/program.service.js';
import { createMailer } from '../mail/mailer.js';
import type { Node } from './node.js';
import { SyncState } from '../sync/sync-state.js';

export type Services = ReturnType<typeof createServices>;

export function createServices(node: Node, config: Config, clock: Clock) {
  const { db, writes, newId } = node;
  const { auth } = config;
  const throttle = new Throttle(clock, auth.login_failures_allowed, auth.login_failure_window_seconds * 1000);
  const customerLogins = new LoginThrottle(
    throttle,
    new Throttle(clock, auth.login_failures_per_address, auth.login_failure_window_seconds * 1000),
    new Throttle(clock, auth.login_failures_per_node, auth.node_login_failure_window_seconds * 1000),
  );
  const tokenCreations = new RateLimit(clock, auth.tokens_per_api_user, auth.tokens_per_address, auth.token_window_seconds * 1000);
  const setupMails = new RateLimit(
    clock,
    auth.password_setup_mails_per_customer,
    auth.password_setup_mails_per_address,
    auth.password_setup_window_seconds * 1000,
  );
  const applicationsRepo = new ExternalApplicationsRepo(db);
  const customersRepo = new CustomersRepo(db);
  const tokensRepo = new TokensRepo(db);
  const mailer = createMailer({
    smtpUrl: config.mail.smtp_url,
    from: config.mail.from,
    spoolDir: config.mail.spool_dir ?? join(config.data_dir, 'mail-spool'),
    newName: newId,
  });
  const applications = new ExternalApplicationsService(applicationsRepo, writes, newId, config.time_zone);
  const users = new UsersService({
    repo: new UsersRepo(db),
    applications: applicationsRepo,
    writes,
    newId,
    clock,
    throttle,
    bearerTtlMs: config.auth.bearer_ttl_seconds * 1000,
  });
  const apiUsers = new ApiUsersService(new ApiUsersRepo(db), writes, newId);
  const tokens = new TokensService({
    repo: tokensRepo,
    customers: customersRepo,
    applications: applicationsRepo,
    writes,
    throttle: customerLogins,
    creations: tokenCreations,
    clock,
    anonymousTokenTtlMs: auth.anonymous_token_ttl_days * 86_400_000,
  });
  const points = new PointsRepo(db);
  const syncState = new SyncState(db);
  const ledger: Ledger = {
    points,
    credits: new CreditsRepo(db),
    records: new LedgerRecords(new ProgramRepo(db, () => node.operations.asOf()), newId, clock, config.time_zone),
    balances: node.balances,
    policy: new RedemptionPolicy({
      config,
      points,
      lastSyncAt: () => syncState.get('last_success_at'),
      nodeId: node.identity.nodeId,
      clock,
      timeZone: config.time_zone,
      replaying: () => node.operations.replaying(),
    }),
  };
  return {
    ledger,
    mailer,
    applications,
    users,
    apiUsers,
    tokens,
    customersRepo,
    tokensRepo,
    nodes: new NodesService(db, writes, newId),
    program: new ProgramService(db, new ProgramRepo(db), writes),
    socialLogin: new SocialLoginService(config.social_networks, customersRepo, tokens),
    authTokens: new AuthTokensService({
      repo: tokensRepo,
      tokens,
      applications: applicationsRepo,
      customers: customersRepo,
      throttle: customerLogins,
      writes,
      newId,
      clock,
      ttlMs: config.auth.auth_token_ttl_seconds * 1000,
      timeZone: config.time_zone,
      codeKey: loadNodeKey(config.data_dir),
    }),
    passwordSetup: new PasswordSetupService({
      repo: tokensRepo,
      tokens,
      customers: customersRepo,
      writes,
      mailer,
      limit: setupMails,
      newId,
      clock,
      setupUrl: config.mail.password_setup_url,
    }),
  };
}
