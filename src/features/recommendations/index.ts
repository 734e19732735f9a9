import type { Feature } from '../feature.js';
import { RecommendationsRepo } from './recommendations.repo.js';
import { recommendationsRoutes } from './recommendations.routes.js';
import { RecommendationsService } from './recommendations.service.js';

export const recommendationsFeature: Feature = ({ node, clock }) => recommendationsRoutes(new RecommendationsService(new RecommendationsRepo(node.db), clock));
