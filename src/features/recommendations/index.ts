/**
 * The recommendation engine (interface.md: eliminate, order, combined) and the model it answers
 * from: the hub, or a store without one, follows its change feed, folds each purchase into counters
 * and publishes a product's neighbours, a customer's profile and the best sellers as replicated
 * rows (`src/decisions/0051-recommendation-model.md`).
 */
import type { Feature, FeatureContext } from '../feature.js';
import { ModelAccumulatorsRepo } from './model-accumulators.repo.js';
import { ModelBuilder } from './model-builder.service.js';
import { ModelPublisher } from './model-publisher.js';
import { ModelRowsRepo } from './model-rows.repo.js';
import { ProductKinds } from './product-kinds.js';
import { RecommendationsRepo } from './recommendations.repo.js';
import { recommendationsRoutes } from './recommendations.routes.js';
import { RecommendationsService } from './recommendations.service.js';
import { UnsyncedPurchases } from './unsynced-purchases.js';

/** How often the node that builds the model looks for new purchases. */
const BUILD_INTERVAL_MS = 1000;

export const recommendationsFeature: Feature = (context) => {
  const { service, builder } = createRecommendations(context);
  if (builder) context.background.push((log) => builder.schedule(BUILD_INTERVAL_MS, log));
  return recommendationsRoutes(service);
};

/**
 * The engine of a node, and its model builder when this node builds the model: the hub, or
 * a store with no hub configured (the demo store). A store with a hub answers from the rows
 * the hub replicates, and never builds.
 */
export function createRecommendations({ node, config }: Pick<FeatureContext, 'node' | 'config'>) {
  const repo = new RecommendationsRepo(node.db);
  const builder =
    config.mode === 'hub' || !config.hub.url
      ? new ModelBuilder(node.db, new ModelAccumulatorsRepo(node.db), new ModelPublisher(new ModelRowsRepo(node.db), node.writes))
      : undefined;
  return { service: new RecommendationsService(repo, new ProductKinds(repo), new UnsyncedPurchases(repo, node.identity.nodeId), builder), builder };
}
