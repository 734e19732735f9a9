/** External applications: the POS systems and apps a chain registers, which users and tokens belong to. */
import type { Feature, FeaturePorts } from '../feature.js';
import { externalApplicationsRoutes } from './external-applications.routes.js';

export const externalApplicationsFeature: Feature<Pick<FeaturePorts, 'applications'>> = ({ applications }) =>
  externalApplicationsRoutes(applications);
