/**
 * `/openapi.json`, the API document built from the route table, and `/docs`, which renders
 * it with Swagger UI served from node_modules (swagger-ui-dist): no credentials, like
 * `/health`, and nothing loaded from anywhere but this daemon. `/docs` opens one interface
 * at a time (`/openapi.json?interface=…`): Swagger UI renders a list of 150 entries or more
 * only as far as it is scrolled, so the whole document would not show an operation further
 * down until one scrolls to it.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { fromZodIssues } from '../../core/validation-errors.js';
import { INTERFACES, type Interface } from '../../http/interfaces.js';
import { interfaceDocument, type OpenApiDocument } from '../../http/openapi.js';
import type { PlainEndpoint } from '../../http/plain-endpoint.js';

const START_FILE = 'start.js';
/** Every file `/docs` loads, under `/docs/`: the viewer's from swagger-ui-dist by their names there, and what starts it. */
const DocsAsset = z.enum(['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-32x32.png', START_FILE]);

const OpenApiQuery = z.object({ interface: z.enum(INTERFACES).optional().meta({ description: 'Only the paths of this interface' }) });

const VIEWER = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

// Swagger UI checks a document against an online validator unless told not to.
const START = `window.addEventListener('load', () => {
  window.ui = SwaggerUIBundle({
    urls: [
      { url: '/openapi.json?interface=enterprise', name: 'Enterprise interface' },
      { url: '/openapi.json?interface=customer', name: 'Customer interface' },
      { url: '/openapi.json', name: 'Everything this node serves' },
    ],
    'urls.primaryName': 'Enterprise interface',
    dom_id: '#swagger-ui',
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
    validatorUrl: null,
    deepLinking: true,
    docExpansion: 'list',
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>loyaltyd API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/swagger-ui-standalone-preset.js"></script>
<script src="/docs/${START_FILE}"></script>
</body>
</html>
`;

// Swagger UI styles its elements inline; scripts, styles and images come from here only.
const CONTENT_SECURITY_POLICY = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:";

const TAG = 'Operations';
const JsonObject = z.record(z.string(), z.unknown());

/** The document's routes; `document` is read once, at the first call, since it lists these routes too. */
export function apiDocsEndpoints(document: () => OpenApiDocument): PlainEndpoint[] {
  let texts: { whole: string; byInterface: Map<Interface, string> } | undefined;
  const text = (iface: Interface | undefined) => {
    if (!texts) {
      const built = document();
      texts = { whole: JSON.stringify(built), byInterface: new Map(INTERFACES.map((one) => [one, JSON.stringify(interfaceDocument(built, one))])) };
    }
    return iface ? texts.byInterface.get(iface)! : texts.whole;
  };
  return [
    {
      method: 'get',
      path: '/openapi.json',
      summary: 'This document',
      tag: TAG,
      query: OpenApiQuery,
      answers: { 200: { description: 'The OpenAPI 3.1 document of this node', mediaType: 'application/json', schema: JsonObject } },
      errors: [400],
      handlers: [
        (request, response) => {
          const query = OpenApiQuery.safeParse(request.query);
          if (!query.success) throw fromZodIssues(query.error.issues, request.query, '');
          response.type('application/json').send(text(query.data.interface));
        },
      ],
    },
    {
      method: 'get',
      path: '/docs',
      summary: 'This document in the browser (Swagger UI)',
      tag: TAG,
      answers: { 200: { description: 'The page', mediaType: 'text/html' } },
      handlers: [(_request, response) => void response.set('Content-Security-Policy', CONTENT_SECURITY_POLICY).type('html').send(PAGE)],
    },
    {
      method: 'get',
      path: '/docs/:asset',
      summary: "The browser page's script, styles and icon",
      tag: TAG,
      params: z.object({ asset: DocsAsset }),
      answers: { 200: { description: 'The file', mediaType: '*/*' } },
      errors: [404],
      handlers: [
        (request, response, next) => {
          const asset = DocsAsset.safeParse(request.params.asset);
          if (!asset.success) next();
          else if (asset.data === START_FILE) response.type('js').send(START);
          else response.sendFile(join(VIEWER, asset.data), { maxAge: '1d' });
        },
      ],
    },
  ];
}
