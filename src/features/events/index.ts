/**
 * Customer events (`/events`), their groups and their properties (`/event-groups`,
 * `/event-properties`), with the property records an event carries. Events are facts of the store
 * that records them.
 */
import type { Feature, FeaturePorts } from '../feature.js';
import { EventGroupsRepo } from './event-groups.repo.js';
import { eventGroupsRoutes } from './event-groups.routes.js';
import { EventGroupsService } from './event-groups.service.js';
import { EventPropertiesRepo } from './event-properties.repo.js';
import { eventPropertiesRoutes } from './event-properties.routes.js';
import { EventPropertiesService } from './event-properties.service.js';
import { EventsRepo } from './events.repo.js';
import { eventsRoutes } from './events.routes.js';
import { EventsService } from './events.service.js';

export const eventsFeature: Feature<Pick<FeaturePorts, 'db' | 'writes' | 'newId' | 'clock' | 'timeZone'>> = ({
  db,
  writes,
  newId,
  clock,
  timeZone,
}) => [
  ...eventsRoutes(new EventsService({ repo: new EventsRepo(db), writes, newId, clock, timeZone: timeZone })),
  ...eventPropertiesRoutes(new EventPropertiesService(new EventPropertiesRepo(db), timeZone)),
  ...eventGroupsRoutes(new EventGroupsService(new EventGroupsRepo(db))),
];
