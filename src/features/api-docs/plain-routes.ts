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
    summary: 'The node: status and the reasons it is degraded, mode, node id, schema version, uptime, sync and storage state',
    tag: TAG,
    answers: {
      200: { description: 'The node can do its work (status ok)', mediaType: 'application/json', schema: JsonObject },
      503: { description: 'The node is degraded (status degraded, with reasons)', mediaType: 'application/json', schema: JsonObject },
    },
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
  ...statusRoutes(),
];

/** The status pages (src/features/status/): open from loopback, elsewhere after signing in at /status/login. */
function statusRoutes(): PlainRoute[] {
  const tag = 'Status pages';
  const page = (description: string) => ({ 200: { description, mediaType: 'text/html' } });
  const view = (description: string) => ({ 200: { description, mediaType: 'application/json', schema: JsonObject } });
  const store = z.object({ name: z.string() });
  return [
    {
      method: 'get',
      path: '/status',
      summary: "The node's sync status; on a hub every store",
      tag,
      answers: page('The page, refreshing itself; 303 to /status/login when not signed in'),
    },
    { method: 'get', path: '/status/json', summary: 'What /status shows, as JSON', tag, answers: view('The status view'), errors: [401] },
    {
      method: 'get',
      path: '/status/stores/:name',
      summary: "On a hub: one store's recent rounds and conflicts",
      tag,
      params: store,
      answers: page('The page'),
      errors: [404],
    },
    {
      method: 'get',
      path: '/status/stores/:name/json',
      summary: 'What a store page shows, as JSON',
      tag,
      params: store,
      answers: view('The store view'),
      errors: [401, 404],
    },
    { method: 'get', path: '/status/login', summary: 'The sign-in form', tag, answers: page('The form') },
    {
      method: 'post',
      path: '/status/login',
      summary:
        'Signs an enterprise user in (a form: user_external_application_id, login, password); sets an HttpOnly, SameSite=Strict session cookie',
      tag,
      answers: { 303: { description: 'Signed in: to /status', mediaType: 'text/html' } },
      errors: [400, 401, 429],
    },
    {
      method: 'post',
      path: '/status/logout',
      summary: 'Signs out',
      tag,
      answers: { 303: { description: 'To /status/login', mediaType: 'text/html' } },
    },
  ];
}
