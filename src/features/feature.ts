import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { Endpoint } from '../http/endpoint.js';
import type { Node } from '../root/node.js';
import type { Services } from '../root/services.js';
import type { HubHistory } from '../sync/store/hub-history.js';

/**
 * Work a node does while it serves, started by src/root/server.ts once it listens and stopped
 * when it closes; a CLI command that opens the node never starts it. Returns its stop.
 */
/** Starts a node's background work; returns its stop, which may finish after it returns (a worker thread's exit). */
export type BackgroundTask = (log: Logger) => () => void | Promise<void>;

/** What a feature folder needs to build its repos, services and endpoints. */
export interface FeatureContext {
  node: Node;
  config: Config;
  clock: Clock;
  services: Services;
  /** At a store with a hub: where facts this store does not hold are asked for (src/sync/store/hub-history.ts). */
  hub: HubHistory | undefined;
  /** A feature adds the background work it needs here. */
  background: BackgroundTask[];
}

/** A feature folder's entry point (its index.ts): the endpoints it serves. */
export type Feature = (context: FeatureContext) => Endpoint[];
