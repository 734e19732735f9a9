import { z } from 'zod';
import { endpoint, ENTERPRISE, type Endpoint } from '../../http/endpoint.js';
import { ExternalApplicationAnswer, ExternalApplicationQuery, ExternalApplicationsAnswer } from './external-applications.schemas.js';
import type { ExternalApplicationsService } from './external-applications.service.js';

const ApplicationPath = z.object({ customer_external_application_id: z.string() });

export function externalApplicationsRoutes(applications: ExternalApplicationsService): Endpoint[] {
  return [
    endpoint({
      method: 'get',
      path: '/customer-external-applications',
      interfaces: ENTERPRISE,
      query: ExternalApplicationQuery,
      answer: ExternalApplicationsAnswer,
      handle: ({ query }) => applications.list(query),
    }),
    endpoint({
      method: 'get',
      path: '/customer-external-applications/:customer_external_application_id',
      interfaces: ENTERPRISE,
      params: ApplicationPath,
      answer: ExternalApplicationAnswer,
      handle: ({ params }) => applications.get(params.customer_external_application_id),
    }),
  ];
}
