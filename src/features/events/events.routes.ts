import { BOTH, endpoint, type Endpoint } from '../../http/endpoint.js';
import { CreateEvent, EventAnswer, EventCreated, EventPath, EventPropertyRecordsAnswer, EventQuery, EventsAnswer } from './events.schemas.js';
import type { EventsService } from './events.service.js';

export function eventsRoutes(events: EventsService): Endpoint[] {
  return [
    endpoint({
      method: 'post',
      path: '/events',
      interfaces: BOTH,
      status: 201,
      body: CreateEvent,
      answer: EventCreated,
      handle: ({ body }, context) => events.create(body, context),
      offline: { kind: 'events.create', makes: 'events', run: ({ body }, context) => void events.create(body, context) },
    }),
    endpoint({
      method: 'get',
      history: true,
      path: '/events',
      interfaces: BOTH,
      query: EventQuery,
      answer: EventsAnswer,
      handle: ({ query }, context) => events.list(query, context),
    }),
    endpoint({
      method: 'get',
      history: true,
      path: '/events/:event_id',
      interfaces: BOTH,
      params: EventPath,
      answer: EventAnswer,
      handle: ({ params }, context) => events.get(params.event_id, context),
    }),
    endpoint({
      method: 'get',
      history: true,
      path: '/events/:event_id/property-records',
      interfaces: BOTH,
      params: EventPath,
      answer: EventPropertyRecordsAnswer,
      handle: ({ params }, context) => events.propertyRecords(params.event_id, context),
    }),
  ];
}
