import { Router } from 'express';
import type { Registry } from 'prom-client';
import type { PublicSyncStatus } from '../../sync/status.js';

export interface HealthReport {
  status: 'ok';
  mode: string;
  node_id: string;
  schema_version: number;
  uptime_seconds: number;
  sync: PublicSyncStatus;
}

/** `/health` (liveness and sync state) and `/metrics` (Prometheus text); no credentials. */
export function healthRouter(report: () => HealthReport, registry: Registry): Router {
  const router = Router();
  router.get('/health', (_request, response) => {
    response.json(report());
  });
  router.get('/metrics', async (_request, response) => {
    response.type(registry.contentType).send(await registry.metrics());
  });
  return router;
}
