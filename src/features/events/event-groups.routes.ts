import { BOTH, endpoint, type Endpoint } from '../../http/endpoint.js';
import { EventGroupAnswer, EventGroupPath, EventGroupQuery, EventGroupsAnswer } from './event-groups.schemas.js';
import type { EventGroupsService } from './event-groups.service.js';

export function eventGroupsRoutes(groups: EventGroupsService): Endpoint[] {
  return [
    endpoint({
      method: 'get',
      path: '/event-groups',
      interfaces: BOTH,
      query: EventGroupQuery,
      answer: EventGroupsAnswer,
      handle: ({ query }) => groups.list(query),
    }),
    endpoint({
      method: 'get',
      path: '/event-groups/:event_group_id',
      interfaces: BOTH,
      params: EventGroupPath,
      answer: EventGroupAnswer,
      handle: ({ params }) => groups.get(params.event_group_id),
    }),
  ];
}
