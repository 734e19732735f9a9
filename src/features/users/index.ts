/** Enterprise users: who logs in at a till or in the back office, and the bearer tokens they get. */
import type { Feature, FeaturePorts } from '../feature.js';
import { usersRoutes } from './users.routes.js';

export const usersFeature: Feature<Pick<FeaturePorts, 'users'>> = ({ users }) => usersRoutes(users);
