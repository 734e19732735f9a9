import { Router } from 'express';
import type { Registry } from 'prom-client';
import type { PublicSyncStatus } from '../sync/status.js';

export interface HealthReport {
  /** `degraded` answers 503, with its reasons (src/ops/node-health.ts). */
  status: 'ok' | 'degraded';
  reasons: string[];
  mode: string;
  node_id: string;
  schema_version: number;
  uptime_seconds: number;
  sync: PublicSyncStatus;
}

/** `/health` (liveness, degradation and sync state) and `/metrics` (Prometheus text); no credentials. */
export function healthRouter(report: () => HealthReport, registry: Registry): Router {
  const router = Router();
  router.get('/health', (_request, response) => {
    const body = report();
    response
      .set('Cache-Control', 'no-store')
      .status(body.status === 'ok' ? 200 : 503)
      .json(body);
  });
  router.get('/metrics', async (_request, response) => {
    response.type(registry.contentType).send(await registry.metrics());
  });
  return router;
}
