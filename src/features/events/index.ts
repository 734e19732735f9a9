import type { Feature } from '../feature.js';
import { EventGroupsRepo } from './event-groups.repo.js';
import { eventGroupsRoutes } from './event-groups.routes.js';
import { EventGroupsService } from './event-groups.service.js';
import { EventPropertiesRepo } from './event-properties.repo.js';
import { eventPropertiesRoutes } from './event-properties.routes.js';
import { EventPropertiesService } from './event-properties.service.js';
import { EventsRepo } from './events.repo.js';
import { eventsRoutes } from './events.routes.js';
import { EventsService } from './events.service.js';

export const eventsFeature: Feature = ({ node, config, clock }) => [
  ...eventsRoutes(new EventsService({ repo: new EventsRepo(node.db), writes: node.writes, newId: node.newId, clock, timeZone: config.time_zone })),
  ...eventPropertiesRoutes(new EventPropertiesService(new EventPropertiesRepo(node.db), config.time_zone)),
  ...eventGroupsRoutes(new EventGroupsService(new EventGroupsRepo(node.db))),
];
