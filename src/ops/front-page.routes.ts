/**
 * `GET /`, the address `npm start` prints: a small page naming where things are — the two
 * interfaces' base paths, the API document and its viewer, the status pages, `/health` — so
 * that the first address a newcomer opens leads somewhere. A caller asking for JSON
 * (`Accept: application/json`) gets the same as JSON. No credentials: it names nothing the
 * API document does not.
 */
import { basePath, INTERFACES, type Interface } from '../http/interfaces.js';
import type { PlainEndpoint } from '../http/plain-endpoint.js';
import { escapeHtml } from './status-html.js';

interface FrontPage {
  name: 'loyaltyd';
  mode: 'store' | 'hub';
  interfaces: { name: Interface; base_path: string }[];
  docs: string;
  openapi: string;
  status: string;
  health: string;
}

export function frontPageEndpoint(mode: FrontPage['mode']): PlainEndpoint {
  const page: FrontPage = {
    name: 'loyaltyd',
    mode,
    interfaces: INTERFACES.map((iface) => ({ name: iface, base_path: basePath(iface) })),
    docs: '/docs',
    openapi: '/openapi.json',
    status: '/status',
    health: '/health',
  };
  const html = frontPageHtml(page);
  return {
    method: 'get',
    path: '/',
    summary: 'Where things are: the API base paths, /docs, /status, /health (HTML, or JSON for Accept: application/json)',
    tag: 'Operations',
    answers: { 200: { description: 'A page naming the API base paths and the operations pages', mediaType: 'text/html' } },
    handlers: [
      (request, response) => {
        if (request.accepts(['html', 'json']) === 'json') response.json(page);
        else response.type('html').send(html);
      },
    ],
  };
}

function frontPageHtml(page: FrontPage): string {
  const link = (path: string, what: string) => `<li><a href="${escapeHtml(path)}"><code>${escapeHtml(path)}</code></a> — ${escapeHtml(what)}</li>`;
  const bases = page.interfaces
    .map((iface) => `<li><code>${escapeHtml(iface.base_path)}</code> — the ${escapeHtml(iface.name)} interface</li>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>loyaltyd (${escapeHtml(page.mode)})</title>
</head>
<body>
<h1>loyaltyd, ${escapeHtml(page.mode)} mode</h1>
<h2>The API</h2>
<ul>
${bases}
</ul>
<h2>Here also</h2>
<ul>
${link(page.docs, 'the API document to read and try')}
${link(page.openapi, 'the API document as OpenAPI JSON')}
${link(page.status, 'the status pages')}
${link(page.health, 'health as JSON')}
</ul>
</body>
</html>
`;
}
