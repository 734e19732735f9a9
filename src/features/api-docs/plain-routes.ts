/** The routes every node serves outside the two interfaces, for the API document (src/http/openapi.ts). */
import { z } from 'zod';
import type { PlainRoute } from '../../http/openapi.js';
import { DocsAsset, OpenApiQuery } from './api-docs.routes.js';

const TAG = 'Operations';
const JsonObject = z.record(z.string(), z.unknown());

export const PLAIN_ROUTES: PlainRoute[] = [
  {
    method: 'get',
    path: '/health',
    summary: 'The node: mode, node id, schema version, uptime, sync and storage state',
    tag: TAG,
    answers: { 200: { description: 'The node answers', mediaType: 'application/json', schema: JsonObject } },
  },
  {
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics',
    tag: TAG,
    answers: { 200: { description: 'Prometheus text exposition', mediaType: 'text/plain' } },
  },
  {
    method: 'get',
    path: '/openapi.json',
    summary: 'This document',
    tag: TAG,
    query: OpenApiQuery,
    answers: { 200: { description: 'The OpenAPI 3.1 document of this node', mediaType: 'application/json', schema: JsonObject } },
    errors: [400],
  },
  {
    method: 'get',
    path: '/docs',
    summary: 'This document in the browser (Swagger UI)',
    tag: TAG,
    answers: { 200: { description: 'The page', mediaType: 'text/html' } },
  },
  {
    method: 'get',
    path: '/docs/:asset',
    summary: "The browser page's script, styles and icon",
    tag: TAG,
    params: z.object({ asset: DocsAsset }),
    answers: { 200: { description: 'The file', mediaType: '*/*' } },
    errors: [404],
  },
];
