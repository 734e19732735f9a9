import { BOTH, endpoint, ENTERPRISE, type Endpoint } from '../../http/endpoint.js';
import { AssignPoints, PointAnswer, PointPath, PointsAnswer, PointsQuery, ReducePoints, TransferPoints } from './points.schemas.js';
import type { PointsService } from './points.service.js';

export function pointsRoutes(points: PointsService): Endpoint[] {
  return [
    endpoint({
      method: 'get',
      history: true,
      path: '/points',
      interfaces: BOTH,
      query: PointsQuery,
      answer: PointsAnswer,
      handle: ({ query }, context) => points.list(query, context),
    }),
    endpoint({
      method: 'get',
      history: true,
      path: '/points/:point_id',
      interfaces: BOTH,
      params: PointPath,
      answer: PointAnswer,
      handle: ({ params }, context) => points.get(params.point_id, context),
    }),
    endpoint({
      method: 'post',
      path: '/points/actions/assign-points',
      interfaces: ENTERPRISE,
      status: 204,
      body: AssignPoints,
      handle: ({ body }) => points.assign(body),
      offline: { kind: 'points.assign', makes: 'point_records', run: ({ body }) => points.assign(body) },
    }),
    endpoint({
      method: 'post',
      path: '/points/actions/reduce-points',
      interfaces: ENTERPRISE,
      status: 204,
      body: ReducePoints,
      handle: ({ body }) => points.reduce(body),
      offline: { kind: 'points.reduce', makes: 'point_records', run: ({ body }) => points.reduce(body) },
    }),
    endpoint({
      method: 'post',
      path: '/points/actions/transfer-points',
      interfaces: ENTERPRISE,
      status: 204,
      body: TransferPoints,
      handle: ({ body }) => points.transfer(body),
      offline: { kind: 'points.transfer', makes: 'point_records', run: ({ body }) => points.transfer(body) },
    }),
  ];
}
