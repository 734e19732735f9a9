import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Endpoint } from '../http/endpoint.js';
import type { Node } from '../node.js';
import type { Services } from '../services.js';

/** What a feature folder needs to build its repos, services and endpoints. */
export interface FeatureContext {
  node: Node;
  config: Config;
  clock: Clock;
  services: Services;
}

/** A feature folder's entry point (its index.ts): the endpoints it serves. */
export type Feature = (context: FeatureContext) => Endpoint[];
