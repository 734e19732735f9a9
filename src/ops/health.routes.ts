/** `/health` (liveness, degradation, sync and storage state) and `/metrics` (Prometheus text); no credentials. */
import type { Registry } from 'prom-client';
import { z } from 'zod';
import type { PlainEndpoint } from '../http/plain-endpoint.js';
import type { PublicSyncStatus } from '../sync/status.js';
import type { StorageStatus } from '../sync/storage-status.js';

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

export function healthEndpoints(report: () => HealthReport, registry: Registry): PlainEndpoint[] {
  return [
    {
      method: 'get',
      path: '/health',
      summary: 'The node: status and the reasons it is degraded, mode, node id, schema version, uptime, sync and storage state',
      tag: TAG,
      answers: {
        200: { description: 'The node can do its work (status ok)', mediaType: 'application/json', schema: JsonObject },
        503: { description: 'The node is degraded (status degraded, with reasons)', mediaType: 'application/json', schema: JsonObject },
      },
      handlers: [
        (_request, response) => {
          const body = report();
          response
            .set('Cache-Control', 'no-store')
            .status(body.status === 'ok' ? 200 : 503)
            .json(body);
        },
      ],
    },
    {
      method: 'get',
      path: '/metrics',
      summary: 'Prometheus metrics',
      tag: TAG,
      answers: { 200: { description: 'Prometheus text exposition', mediaType: 'text/plain' } },
      handlers: [
        async (_request, response) => {
          response.type(registry.contentType).send(await registry.metrics());
        },
      ],
    },
  ];
}
