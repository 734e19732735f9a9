/**
 * `/openapi.json`, the API document built from the route table, and `/docs`, which renders
 * it with Swagger UI served from node_modules (swagger-ui-dist): no credentials, like
 * `/health`, and nothing loaded from anywhere but this daemon.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Router } from 'express';
import { z } from 'zod';

const START_FILE = 'start.js';
/** Every file `/docs` loads, under `/docs/`: the viewer's from swagger-ui-dist by their names there, and what starts it. */
export const DocsAsset = z.enum(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', START_FILE]);

const VIEWER = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

// Swagger UI checks a document against an online validator unless told not to.
const START = `window.addEventListener('load', () => {
  window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', validatorUrl: null, deepLinking: true, docExpansion: 'list' });
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
<script src="/docs/${START_FILE}"></script>
</body>
</html>
`;

// Swagger UI styles its elements inline; scripts, styles and images come from here only.
const CONTENT_SECURITY_POLICY = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:";

export function apiDocsRouter(document: object): Router {
  const json = JSON.stringify(document);
  const router = Router();
  router.get('/openapi.json', (_request, response) => {
    response.type('application/json').send(json);
  });
  router.get('/docs', (_request, response) => {
    response.set('Content-Security-Policy', CONTENT_SECURITY_POLICY).type('html').send(PAGE);
  });
  router.get('/docs/:asset', (request, response, next) => {
    const asset = DocsAsset.safeParse(request.params.asset);
    if (!asset.success) next();
    else if (asset.data === START_FILE) response.type('js').send(START);
    else response.sendFile(join(VIEWER, asset.data), { maxAge: '1d' });
  });
  return router;
}
