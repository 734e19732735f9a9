import { BOTH, endpoint, type Endpoint } from '../../http/endpoint.js';
import { EventPropertiesAnswer, EventPropertyAnswer, EventPropertyPath, EventPropertyQuery } from './event-properties.schemas.js';
import type { EventPropertiesService } from './event-properties.service.js';

export function eventPropertiesRoutes(properties: EventPropertiesService): Endpoint[] {
  return [
    endpoint({
      method: 'get',
      path: '/event-properties',
      interfaces: BOTH,
      query: EventPropertyQuery,
      answer: EventPropertiesAnswer,
      handle: ({ query }) => properties.list(query),
    }),
    endpoint({
      method: 'get',
      path: '/event-properties/:event_property_id',
      interfaces: BOTH,
      params: EventPropertyPath,
      answer: EventPropertyAnswer,
      handle: ({ params }) => properties.get(params.event_property_id),
    }),
  ];
}
