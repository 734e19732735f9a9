import { BOTH, endpoint, type Endpoint } from '../../http/endpoint.js';
import { EventPropertyPath, EventPropertyQuery } from './event-properties.schemas.js';
import type { EventPropertiesService } from './event-properties.service.js';

export function eventPropertiesRoutes(properties: EventPropertiesService): Endpoint[] {
  return [
    endpoint({
      method: 'get',
      path: '/event-properties',
      interfaces: BOTH,
      query: EventPropertyQuery,
      handle: ({ query }) => properties.list(query),
    }),
    endpoint({
      method: 'get',
      path: '/event-properties/:event_property_id',
      interfaces: BOTH,
      params: EventPropertyPath,
      handle: ({ params }) => properties.get(params.event_property_id),
    }),
  ];
}
