/**
 * `/health` (liveness, degradation, sync and storage state) and `/metrics` (Prometheus text),
 * in full for the callers src/ops/ops-access.ts lets through; anyone else gets `/health`'s
 * status alone, what a load balancer reads, and 401 from `/metrics`.
 */
import type { Registry } from 'prom-client';
import { z } from 'zod';
import { unauthorized } from '../core/errors.js';
import type { PlainEndpoint } from '../http/plain-endpoint.js';
import type { PublicSyncStatus } from '../sync/status.js';
import type { StorageStatus } from '../sync/storage-status.js';
import type { OpsAccess } from './ops-access.js';

export interface HealthReport {
  /** `degraded` answers 503, with its reasons (src/ops/node-health.ts). */
  status: 'ok' | 'degraded';
  reasons: string[];
  mode: string;
  node_id: string;
  schema_version: number;
  uptime_seconds: number;
  sync: PublicSyncStatus;
  storage: StorageStatus;
}

const TAG = 'Operations';
const JsonObject = z.record(z.string(), z.unknown());

export function healthEndpoints(report: () => HealthReport, registry: Registry, access: OpsAccess): PlainEndpoint[] {
  return [
    {
      method: 'get',
      path: '/health',
      summary:
        'The node: status and the reasons it is degraded, mode, node id, schema version, uptime, sync and storage state; the status alone without the operations token from outside ops.open_addresses',
      tag: TAG,
      answers: {
        200: { description: 'The node can do its work (status ok)', mediaType: 'application/json', schema: JsonObject },
        503: { description: 'The node is degraded (status degraded, with reasons)', mediaType: 'application/json', schema: JsonObject },
      },
      handlers: [
        (request, response) => {
          const body = report();
          response
            .set('Cache-Control', 'no-store')
            .status(body.status === 'ok' ? 200 : 503)
            .json(access(request) ? body : { status: body.status });
        },
      ],
    },
    {
      method: 'get',
      path: '/metrics',
      summary: 'Prometheus metrics; from outside ops.open_addresses with the operations token as a Bearer token',
      tag: TAG,
      answers: { 200: { description: 'Prometheus text exposition', mediaType: 'text/plain' } },
      errors: [401],
      handlers: [
        async (request, response) => {
          if (!access(request)) throw unauthorized('/metrics from this address needs the operations token (ops.token) as a Bearer token');
          response.type(registry.contentType).send(await registry.metrics());
        },
      ],
    },
  ];
}
