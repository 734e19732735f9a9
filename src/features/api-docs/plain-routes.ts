/** The routes a node serves outside the two interfaces, for the API document (src/http/openapi.ts). */
import type { PlainRoute } from '../../http/openapi.js';
import { DOCS_ASSETS } from './api-docs.routes.js';

export const PLAIN_ROUTES: PlainRoute[] = [
  {
    method: 'get',
    path: '/health',
    summary: 'The node: mode, node id, schema version, uptime, sync and storage state',
    answers: { 200: { description: 'The node answers', mediaType: 'application/json', schema: { type: 'object' } } },
  },
  {
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics',
    answers: { 200: { description: 'Prometheus text exposition', mediaType: 'text/plain' } },
  },
  {
    method: 'get',
    path: '/openapi.json',
    summary: 'This document',
    answers: { 200: { description: 'The OpenAPI 3.1 document of this node', mediaType: 'application/json', schema: { type: 'object' } } },
  },
  {
    method: 'get',
    path: '/docs',
    summary: 'This document in the browser (Swagger UI)',
    answers: { 200: { description: 'The page', mediaType: 'text/html' } },
  },
  {
    method: 'get',
    path: '/docs/:asset',
    summary: "The browser page's scripts, styles and icon",
    parameters: [{ name: 'asset', in: 'path', required: true, schema: { type: 'string', enum: DOCS_ASSETS } }],
    answers: { 200: { description: 'The file', mediaType: '*/*' }, 404: { description: 'No such file', mediaType: 'application/json' } },
  },
];
