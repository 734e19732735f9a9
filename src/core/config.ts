/**
 * All configuration: `config/default.json`, then an optional file, then `LOYALTYD_*`
 * environment variables, then command-line flags; one zod schema validates the result.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { isAddressOrRange, isLoopbackHost } from './addresses.js';

const Port = z.coerce.number().int().min(0).max(65535);
const PositiveSeconds = z.coerce.number().int().positive();

const SocialNetwork = z.strictObject({
  /** A JSON Web Key Set file (`{"keys": [...]}`) or a single PEM public key file. */
  keys_file: z.string().min(1),
  /** Required: a token is accepted only from this issuer, and only for this audience (the app's client id). */
  issuer: z.string().min(1),
  audience: z.string().min(1),
  /** The claim naming the customer's e-mail address in the provider's token. */
  email_claim: z.string().default('email'),
});

/** The daemon's own certificate, and which clients must show one (README, "TLS"). */
const ServerTls = z
  .strictObject({
    cert_file: z.string().min(1),
    key_file: z.string().min(1),
    /** The CA whose certificates clients show; needed when client_certificates is not 'off'. */
    client_ca_file: z.string().min(1).optional(),
    /** 'off': none asked; 'sync': the hub's /sync/v1 takes only a client the CA signed; 'all': the handshake refuses any other. */
    client_certificates: z.enum(['off', 'sync', 'all']).default('off'),
  })
  .refine((tls) => tls.client_certificates === 'off' || tls.client_ca_file !== undefined, {
    message: 'client_ca_file is required when client_certificates is sync or all',
    path: ['client_ca_file'],
  });

/**
 * The hub a store syncs with: over https unless it is on this machine, since the node secret
 * travels in every request and the store applies what the hub answers.
 */
const HubUrl = z
  .string()
  .url()
  .refine((url) => {
    // A text that is no URL is named by url() above.
    if (!URL.canParse(url)) return true;
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname));
  }, 'must be https:// unless the hub is on loopback (127.0.0.0/8, ::1, localhost)');

/**
 * How a store reaches its hub: its URL, the CA that signed the hub's certificate when not one
 * the system trusts, and this store's client certificate.
 */
const HubTls = z
  .strictObject({
    url: HubUrl.optional(),
    ca_file: z.string().min(1).optional(),
    cert_file: z.string().min(1).optional(),
    key_file: z.string().min(1).optional(),
  })
  .refine((hub) => (hub.cert_file === undefined) === (hub.key_file === undefined), {
    message: 'cert_file and key_file go together',
    path: ['cert_file'],
  });

/**
 * Where a hub keeps its data when a chain outgrew one SQLite file (src/decisions/0106): a
 * `postgres://` URL as libpq reads it. Its password comes from libpq's usual places (a password
 * file, PGPASSWORD), not from the URL's config file; `sslmode` and
 * `target_session_attrs=read-write` are libpq's, so a hub finds the new primary after a failover.
 */
const DatabaseUrl = z
  .string()
  .refine((url) => /^postgres(ql)?:\/\//.test(url), 'must be a postgres:// URL')
  .refine(
    (url) => !URL.canParse(url) || new URL(url).password === '',
    'must not hold a password: put it in a libpq password file (~/.pgpass or PGPASSFILE)',
  );

export const Config = z
  .strictObject({
    mode: z.enum(['store', 'hub']),
    data_dir: z.string().min(1),
    /** A hub's database: SQLite in `data_dir` unless `url` names PostgreSQL; a store's is always SQLite. */
    database: z.strictObject({ url: DatabaseUrl.optional() }),
    time_zone: z.string().refine(isTimeZone, 'not an IANA time zone'),
    http: z.strictObject({
      host: z.string().min(1),
      port: Port,
      body_limit_bytes: z.coerce.number().int().positive(),
      tls: ServerTls.optional(),
    }),
    auth: z.strictObject({
      bearer_ttl_seconds: PositiveSeconds,
      auth_token_ttl_seconds: PositiveSeconds,
      /**
       * How long a customer-app token no customer is logged in on stays valid after it was made or
       * last logged out (src/decisions/0104-protocol-3-credentials-at-the-hub.md). An app makes its
       * token when it is first opened and asks for another on a 401; a month covers an app opened
       * now and then before its customer logs in, and bounds what the anonymous tokens of a store's
       * passers-by can do.
       */
      anonymous_token_ttl_days: z.coerce.number().int().positive(),
      /** Failed logins per login within the window (a customer's: per customer and caller address), beyond which it answers 429. */
      login_failures_allowed: z.coerce.number().int().positive(),
      login_failure_window_seconds: PositiveSeconds,
      /** Failed customer-app logins per caller address within the login window, whatever customers they name. */
      login_failures_per_address: z.coerce.number().int().positive(),
      /** At the hub: failed customer-app logins a store forwards within the node's window, whatever addresses it names (src/decisions/0105-login-throttles.md). */
      login_failures_per_node: z.coerce.number().int().positive(),
      node_login_failure_window_seconds: PositiveSeconds,
      /** `POST /tokens` per api user and per client address within the window, beyond which it answers 429. */
      tokens_per_api_user: z.coerce.number().int().positive(),
      tokens_per_address: z.coerce.number().int().positive(),
      token_window_seconds: PositiveSeconds,
      /** `send-password-setup-email` per e-mail address asked for and per client address within the window, beyond which it answers 429. */
      password_setup_mails_per_customer: z.coerce.number().int().positive(),
      password_setup_mails_per_address: z.coerce.number().int().positive(),
      password_setup_window_seconds: PositiveSeconds,
    }),
    social_networks: z.record(z.string(), SocialNetwork),
    mail: z.strictObject({
      smtp_url: z.string().url().optional(),
      from: z.string().min(1),
      password_setup_url: z.string().url(),
      spool_dir: z.string().optional(),
    }),
    hub: HubTls,
    node: z.strictObject({ name: z.string().min(1).optional(), secret: z.string().min(1).optional() }),
    sync: z.strictObject({
      interval_seconds: PositiveSeconds,
      /**
       * How long the hub's feed keeps changes a newer one replaced, and tombstones, and how long
       * the hub keeps the stores' command results (src/sync/hub/feed-compaction.ts).
       */
      feed_retention_days: z.coerce.number().min(0),
      /** How long a store's history read waits for the hub before answering from local data. */
      history_timeout_ms: z.coerce.number().int().positive(),
      /** On the hub: how often it publishes again the customer states the horizon has passed (src/loyalty/state-settling.ts). */
      settle_interval_seconds: PositiveSeconds,
      /**
       * On the hub: how far ahead of its clock a store's stamp may be before the hub brings it
       * back to its own time and lists the skew (src/sync/hub/hub-operations.ts).
       */
      max_clock_skew_seconds: z.coerce.number().int().positive(),
    }),
    /**
     * On the hub: what it takes from its stores at once (src/sync/hub/sync-limits.ts). A push or
     * snapshot past a node's share is answered 429, past the hub's 503, both with Retry-After; a
     * push's body past its bytes 413; a read of a node past its share of the hub's
     * time 429 (src/sync/hub/read-budget.ts). A push's bytes are at least the 1 MB a
     * store's batch holds (src/sync/protocol/protocol.ts).
     */
    sync_limits: z.strictObject({
      push_max_bytes: z.coerce.number().int().min(1_048_576),
      pushes_per_node: z.coerce.number().int().positive(),
      pushes_in_all: z.coerce.number().int().positive(),
      snapshots_per_node: z.coerce.number().int().positive(),
      snapshots_in_all: z.coerce.number().int().positive(),
      snapshots_per_node_minute: z.coerce.number().int().positive(),
      /** The longest stretch of the hub's event loop a push's apply holds before it gives way (src/sync/hub/pushes-in-turns.ts); 0 applies a command a turn. */
      push_turn_ms: z.coerce.number().min(0).max(1000),
      /** The hub's time, in milliseconds a second, one store's pulls and history reads take at most (src/sync/hub/read-budget.ts). */
      reads_ms_per_second: z.coerce.number().positive().max(1000),
      /** The most of that time a node saves up while it reads less. */
      reads_burst_ms: z.coerce.number().positive(),
      retry_after_seconds: PositiveSeconds,
      /**
       * The original bills one store's node may read a day (src/sync/hub/original-bill-reads.ts).
       * A busy store sells 10,000 bills a day and takes back up to 2 % of them, each return asking
       * the hub for its original, a till's retry asking again: 400 a day; five times that leaves
       * room for a node serving several stores.
       */
      original_bills_per_node_day: z.coerce.number().int().positive(),
    }),
    /**
     * On the hub: what one store's node may give or take of one customer per day, and do in all
     * per day, past which its operations are held for an operator (src/sync/hub/node-limits.ts).
     * Points are whole points, credit and voucher value money in the chain's currency.
     */
    authority: z.strictObject({
      earned_points_per_customer_day: z.coerce.number().int().positive(),
      redeemed_points_per_customer_day: z.coerce.number().int().positive(),
      manual_points_per_customer_day: z.coerce.number().int().positive(),
      manual_credit_per_customer_day: z.coerce.number().int().positive(),
      /**
       * What one store's node may do in all per day, past which its operations are held: points
       * created (earned by bills, assigned by hand), credit created (deposited, earned back on
       * bills), points redeemed, vouchers issued and their value, customers registered, cards
       * moved from their customer, customers' e-mails or phones changed, returns naming no
       * original bill. Each is about four times a busy hypermarket store's honest peak day, the
       * arithmetic in src/decisions/0103-per-node-totals.md.
       */
      node_daily: z.strictObject({
        points_created: z.coerce.number().int().positive(),
        credit_created: z.coerce.number().int().positive(),
        points_redeemed: z.coerce.number().int().positive(),
        vouchers_issued: z.coerce.number().int().positive(),
        voucher_value: z.coerce.number().int().positive(),
        customers_registered: z.coerce.number().int().positive(),
        card_changes: z.coerce.number().int().positive(),
        profile_changes: z.coerce.number().int().positive(),
        returns_without_original: z.coerce.number().int().positive(),
      }),
    }),
    idempotency: z.strictObject({ retention_days: z.coerce.number().int().positive() }),
    /** How long a store keeps its own facts once the hub has them (src/sync/store/retention.ts); fractions of a day allowed. */
    retention: z.strictObject({ local_days: z.coerce.number().min(0) }),
    /** Floor limits of a store redeeming points on balances head office may not have seen. */
    offline: z.strictObject({
      redemption_margin_points: z.coerce.number().int().min(0),
      daily_redemption_cap_points: z.coerce.number().int().positive().optional(),
      max_age_hours: z.coerce.number().positive(),
    }),
    log: z.strictObject({ level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) }),
    /** `/health` answers 503 when the data folder's free space is under this floor (src/ops/node-health.ts). */
    health: z.strictObject({ min_free_disk_mb: z.coerce.number().int().min(0) }),
    /**
     * Who reads `/metrics` and `/health` in full (src/ops/ops-access.ts): callers from
     * `open_addresses`, and any caller with `Authorization: Bearer <token>`. Others get
     * `/health`'s status alone, and 401 from `/metrics`.
     */
    ops: z.strictObject({
      /** A secret for monitoring, 32 characters at least (`openssl rand -hex 32`); without it only open addresses read them. */
      token: z.string().min(32).optional(),
      /** A JSON list, or from the environment a comma-separated one. */
      open_addresses: z.preprocess(
        (value) =>
          typeof value === 'string'
            ? value
                .split(',')
                .map((entry) => entry.trim())
                .filter(Boolean)
            : value,
        z.array(z.string().refine(isAddressOrRange, 'not an address or CIDR range')),
      ),
    }),
  })
  .refine((config) => config.mode === 'hub' || config.database.url === undefined, {
    message: 'a store keeps its data in SQLite; only a hub keeps it in PostgreSQL',
    path: ['database', 'url'],
  });
export type Config = z.infer<typeof Config>;

/** A store with a hub configured: the hub owns what is chain-wide. A hub, or a standalone store, owns it itself. */
export function syncsWithHub(config: Pick<Config, 'mode'> & { hub?: Pick<Config['hub'], 'url'> }): boolean {
  return config.mode === 'store' && Boolean(config.hub?.url);
}

/** Environment variables with a documented short name; any key also has a long form. */
const ENV_ALIASES: Record<string, string> = {
  LOYALTYD_MODE: 'mode',
  LOYALTYD_PORT: 'http.port',
  LOYALTYD_HOST: 'http.host',
  LOYALTYD_DATA_DIR: 'data_dir',
  LOYALTYD_TIME_ZONE: 'time_zone',
  LOYALTYD_HUB_URL: 'hub.url',
  LOYALTYD_DATABASE_URL: 'database.url',
  LOYALTYD_HUB_CA_FILE: 'hub.ca_file',
  LOYALTYD_OPS_TOKEN: 'ops.token',
  LOYALTYD_TLS_CERT_FILE: 'http.tls.cert_file',
  LOYALTYD_TLS_KEY_FILE: 'http.tls.key_file',
  LOYALTYD_NODE_NAME: 'node.name',
  LOYALTYD_NODE_SECRET: 'node.secret',
  LOYALTYD_SYNC_INTERVAL_SECONDS: 'sync.interval_seconds',
  LOYALTYD_SYNC_MAX_CLOCK_SKEW_SECONDS: 'sync.max_clock_skew_seconds',
  LOYALTYD_LOG_LEVEL: 'log.level',
  LOYALTYD_SMTP_URL: 'mail.smtp_url',
};

export class ConfigError extends Error {}

export interface ConfigSources {
  file?: string;
  env?: NodeJS.ProcessEnv;
  /** Dotted keys from command-line flags, e.g. `{"http.port": "0"}`. */
  overrides?: Record<string, unknown>;
}

export function loadConfig(sources: ConfigSources = {}): Config {
  const merged = readJson(fileURLToPath(new URL('../../config/default.json', import.meta.url)));
  if (sources.file) deepMerge(merged, readJson(sources.file));
  for (const [key, value] of Object.entries(envOverrides(sources.env ?? {}))) setPath(merged, key, value);
  for (const [key, value] of Object.entries(sources.overrides ?? {})) {
    if (value !== undefined) setPath(merged, key, value);
  }
  const parsed = Config.safeParse(merged);
  if (!parsed.success) {
    const problems = parsed.error.issues.flatMap((issue) => {
      // An unknown key is named by its full dotted path, as the operator would set it.
      if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => `config key ${[...issue.path, key].join('.')}: unknown key`);
      return [`config key ${issue.path.join('.') || '(root)'}: ${issue.message}`];
    });
    throw new ConfigError(problems.join('\n'));
  }
  return parsed.data;
}

/**
 * `LOYALTYD_PORT` style aliases, plus `LOYALTYD_<SECTION>__<KEY>` for any key
 * (double underscore separates levels, since key names contain single ones).
 */
function envOverrides(env: NodeJS.ProcessEnv): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || !name.startsWith('LOYALTYD_')) continue;
    const alias = ENV_ALIASES[name];
    if (alias) result[alias] = value;
    else if (name.includes('__')) result[name.slice('LOYALTYD_'.length).toLowerCase().split('__').join('.')] = value;
  }
  return result;
}

function readJson(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read config file ${path}: ${(error as Error).message}`);
  }
  try {
    const value: unknown = JSON.parse(text);
    if (!isPlainObject(value)) throw new ConfigError(`config file ${path} must hold a JSON object`);
    return value;
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`config file ${path} is not valid JSON: ${(error as Error).message}`);
  }
}

function deepMerge(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(source)) {
    // Own keys only, and defined rather than assigned: a `__proto__` key in a config file
    // must become an unknown key for the schema to name, not a write to Object.prototype.
    const existing = Object.hasOwn(target, key) ? target[key] : undefined;
    if (isPlainObject(existing) && isPlainObject(value)) deepMerge(existing, value);
    else Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  }
}

function setPath(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (!isPlainObject(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]!] = value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
