/**
 * `/status`: the node's status page (the fleet on a hub, its own sync on a store), on a hub
 * `/status/stores/:name` per store, each with `…/json` that the page polls; `/status/login`
 * and `/status/logout` (src/ops/status-access.ts says who may read them).
 */
import { randomBytes } from 'node:crypto';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { AppError, notFound, unauthorized } from '../core/errors.js';
import { UserLogin } from '../features/users/users.schemas.js';
import { clearSessionCookie, isLoopback, sessionToken, setSessionCookie } from './status-access.js';
import { loginPageHtml, statusPageHtml } from './status-html.js';
import type { StatusView } from './status-cells.js';
import type { StatusViews } from './status-views.js';

export interface StatusUsers {
  login(request: UserLogin, ip: string): Promise<{ bearer_token: string }>;
  authenticateBearer(token: string): string;
}

const LOGIN_FORM_LIMIT = '16kb';

export function statusRouter(views: StatusViews, users: StatusUsers, sessionTtlSeconds: number): Router {
  const router = Router();
  const signedIn = (request: Request): boolean => {
    const token = sessionToken(request);
    if (!token) return false;
    try {
      users.authenticateBearer(token);
      return true;
    } catch (error) {
      if (error instanceof AppError) return false;
      throw error;
    }
  };
  const page = (request: Request, response: Response, view: StatusView) => {
    const nonce = pageHeaders(response);
    response.type('html').send(statusPageHtml(view, nonce, !isLoopback(request.ip)));
  };
  /** A page for loopback callers and signed-in users; the sign-in form's redirect for others. */
  const html = (request: Request, response: Response, next: NextFunction) => {
    if (isLoopback(request.ip) || signedIn(request)) return next();
    response.redirect(303, '/status/login');
  };
  const json = (request: Request, _response: Response, next: NextFunction) => {
    if (isLoopback(request.ip) || signedIn(request)) return next();
    throw unauthorized('Sign in at /status/login to read the status pages');
  };

  router.get('/status', html, (request, response) => page(request, response, views.overview()));
  router.get('/status/json', json, (_request, response) => {
    response.set('Cache-Control', 'no-store').json(views.overview());
  });
  router.get('/status/stores/:name', html, (request, response) => page(request, response, storeView(views, String(request.params.name))));
  router.get('/status/stores/:name/json', json, (request, response) => {
    response.set('Cache-Control', 'no-store').json(storeView(views, String(request.params.name)));
  });
  router.get('/status/login', (_request, response) => {
    response.type('html').send(loginPageHtml(pageHeaders(response), { application: '', login: '' }));
  });
  router.post('/status/login', express.urlencoded({ extended: false, limit: LOGIN_FORM_LIMIT }), async (request, response) => {
    const form = UserLogin.safeParse(request.body);
    const values = { application: String(request.body?.user_external_application_id ?? ''), login: String(request.body?.login ?? '') };
    if (!form.success) {
      response
        .status(400)
        .type('html')
        .send(loginPageHtml(pageHeaders(response), values, 'Fill in the external application id, the login and the password.'));
      return;
    }
    try {
      const { bearer_token: token } = await users.login(form.data, request.ip ?? '');
      setSessionCookie(request, response, token, sessionTtlSeconds);
      response.redirect(303, '/status');
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      response
        .status(error.status)
        .set(error.headers)
        .type('html')
        .send(loginPageHtml(pageHeaders(response), values, error.body.detail));
    }
  });
  router.post('/status/logout', (_request, response) => {
    clearSessionCookie(response);
    response.redirect(303, '/status/login');
  });
  return router;
}

function storeView(views: StatusViews, name: string): StatusView {
  const view = views.hubStore(name);
  if (!view) throw notFound('stores', name);
  return view;
}

/** Headers of every status HTML page; the nonce its inline script and style carry. */
function pageHeaders(response: Response): string {
  const nonce = randomBytes(16).toString('base64');
  response.set({
    'Content-Security-Policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  });
  return nonce;
}
