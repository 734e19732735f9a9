/**
 * What a feature folder is given to build its repos, services and endpoints. Each feature's
 * entry point (its index.ts) names the ports it uses (`Pick<FeaturePorts, …>`), and the
 * composition root (src/root/features.ts) hands them over: no feature sees the whole node.
 */
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { IdGenerator } from '../core/ids.js';
import type { Db } from '../db/open.js';
import type { WritePath } from '../db/write-path.js';
import type { Endpoint } from '../http/endpoint.js';
import type { BalanceReader } from '../loyalty/balance-reader.js';
import type { Ledger } from '../loyalty/ledger.js';
import type { HubHistory } from '../sync/store/hub-history.js';
import type { CustomersRepo } from './customers/customers.repo.js';
import type { ExternalApplicationsService } from './external-applications/external-applications.service.js';
import type { TokenServices } from './tokens/tokens.routes.js';
import type { UsersService } from './users/users.service.js';

/** Work a node does while it serves, started once it listens; returns its stop, which may finish after it returns (a worker thread's exit). */
export type BackgroundTask = (log: Logger) => () => void | Promise<void>;

export interface FeaturePorts {
  db: Db;
  writes: WritePath;
  newId: IdGenerator;
  /** The clock feature code reads: a replayed operation's as-of time while the hub replays it (src/core/operations.ts). */
  clock: Clock;
  /** The as-of time of the operation being served, for reading the program as it stood then. */
  asOf: () => number | undefined;
  /** The chain's time zone (`time_zone`), in which days and dates are read. */
  timeZone: string;
  nodeId: string;
  /** A store with a hub: the hub owns what is chain-wide (registrations' checks, the model, mail). */
  syncsWithHub: boolean;
  /** The hub: its change feed is served to stores. A store with no hub keeps a feed for its recommendation model alone. */
  servesFeed: boolean;
  customers: CustomersRepo;
  ledger: Ledger;
  /** Every customer's balances. */
  balances: BalanceReader;
  /** At a store with a hub: where facts this store does not hold are asked for (src/sync/store/hub-history.ts). */
  hub: HubHistory | undefined;
  /** Built once for the node (src/root/services.ts): the authenticator and the CLI use them too. */
  users: UsersService;
  applications: ExternalApplicationsService;
  tokens: TokenServices['tokens'];
  socialLogin: TokenServices['socialLogin'];
  passwordSetup: TokenServices['passwordSetup'];
  authTokens: TokenServices['authTokens'];
  /** Runs a task while the node serves. */
  runInBackground(task: BackgroundTask): void;
  /**
   * Whether a call waits for this thread: on a store's writer thread, one the event loop handed
   * it (src/core/waiting-calls.ts); on a thread that flushes its own commits, one that wrote and
   * waits for the flush of its commit (src/db/durability.ts), whose answer goes out when the
   * thread next looks at its events. Background work gives way between batches.
   */
  callsWaiting(): boolean;
}

/** A feature folder's entry point (its index.ts): the endpoints it serves, from the ports it names. */
export type Feature<P extends Partial<FeaturePorts> = Partial<FeaturePorts>> = (ports: P) => Endpoint[];
