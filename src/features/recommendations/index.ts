/**
 * The recommendation engine (interface.md: eliminate, order, combined) and the model it answers
 * from: the hub, or a store without one, follows its change feed, folds each purchase into counters
 * and publishes a product's neighbours, a customer's profile and the best sellers as replicated
 * rows (`src/decisions/0051-recommendation-model.md`).
 */
import type { Feature, FeaturePorts } from '../feature.js';
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

type RecommendationsPorts = Pick<FeaturePorts, 'db' | 'writes' | 'nodeId' | 'syncsWithHub' | 'servesFeed'> &
  Partial<Pick<FeaturePorts, 'callsWaiting'>>;

export const recommendationsFeature: Feature<RecommendationsPorts & Pick<FeaturePorts, 'runInBackground'>> = (ports) => {
  const { service, builder } = createRecommendations(ports);
  if (builder) ports.runInBackground((log) => builder.schedule(BUILD_INTERVAL_MS, log));
  return recommendationsRoutes(service);
};

/**
 * The engine of a node, and its model builder when this node builds the model: the hub, or
 * a store with no hub configured (the demo store), on the connection that writes. A store with
 * a hub answers from the rows the hub replicates, and never builds; beside a writer thread
 * (src/root/writer.ts) the event loop's engine answers from the model the thread builds, with
 * this node's bills the model does not hold yet (unsynced-purchases.ts).
 */
export function createRecommendations({ db, writes, nodeId, syncsWithHub, servesFeed, callsWaiting }: RecommendationsPorts) {
  const repo = new RecommendationsRepo(db);
  const builder =
    !syncsWithHub && !db.readonly
      ? new ModelBuilder(db, new ModelAccumulatorsRepo(db), new ModelPublisher(new ModelRowsRepo(db), writes), {
          callsWaiting,
          feedServed: servesFeed,
        })
      : undefined;
  return { service: new RecommendationsService(repo, new ProductKinds(repo), new UnsyncedPurchases(repo, nodeId), builder), builder };
}
