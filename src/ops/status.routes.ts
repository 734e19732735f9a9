/**
 * `/status`: the node's status page (the fleet on a hub, its own sync on a store), on a hub
 * `/status/stores/:name` per store, each with `…/json` that the page polls; `/status/login`
 * and `/status/logout` (src/ops/status-access.ts says who may read them).
 */
import { randomBytes } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { AppError, notFound, unauthorized } from '../core/errors.js';
import { UserLogin } from '../features/users/users.schemas.js';
import type { PlainEndpoint } from '../http/plain-endpoint.js';
import { isLoopbackAddress } from '../core/addresses.js';
import { clearSessionCookie, sessionToken, setSessionCookie } from './status-access.js';
import { loginPageHtml, statusPageHtml } from './status-html.js';
import type { StatusView } from './status-cells.js';
import type { StatusViews } from './status-views.js';

export interface StatusUsers {
  login(request: UserLogin, ip: string): Promise<{ bearer_token: string }>;
  authenticateBearer(token: string): string;
}

const LOGIN_FORM_LIMIT = '16kb';

const TAG = 'Status pages';
const JsonObject = z.record(z.string(), z.unknown());
const StoreName = z.object({ name: z.string() });
const page = (description: string) => ({ 200: { description, mediaType: 'text/html' } });
const view = (description: string) => ({ 200: { description, mediaType: 'application/json', schema: JsonObject } });

export function statusEndpoints(views: StatusViews, users: StatusUsers, sessionTtlSeconds: number): PlainEndpoint[] {
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
  const showPage = (request: Request, response: Response, shown: StatusView) => {
    const nonce = pageHeaders(response);
    response.type('html').send(statusPageHtml(shown, nonce, !isLoopbackAddress(request.ip)));
  };
  /** A page for loopback callers and signed-in users; the sign-in form's redirect for others. */
  const html = (request: Request, response: Response, next: NextFunction) => {
    if (isLoopbackAddress(request.ip) || signedIn(request)) return next();
    response.redirect(303, '/status/login');
  };
  const json = (request: Request, _response: Response, next: NextFunction) => {
    if (isLoopbackAddress(request.ip) || signedIn(request)) return next();
    throw unauthorized('Sign in at /status/login to read the status pages');
  };
  const logIn = async (request: Request, response: Response) => {
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
  };
  return [
    {
      method: 'get',
      path: '/status',
      summary: "The node's sync status; on a hub every store",
      tag: TAG,
      answers: page('The page, refreshing itself; 303 to /status/login when not signed in'),
      handlers: [html, (request, response) => showPage(request, response, views.overview())],
    },
    {
      method: 'get',
      path: '/status/json',
      summary: 'What /status shows, as JSON',
      tag: TAG,
      answers: view('The status view'),
      errors: [401],
      handlers: [json, (_request, response) => void response.set('Cache-Control', 'no-store').json(views.overview())],
    },
    {
      method: 'get',
      path: '/status/stores/:name',
      summary: "On a hub: one store's recent rounds and conflicts",
      tag: TAG,
      params: StoreName,
      answers: page('The page'),
      errors: [404],
      handlers: [html, (request, response) => showPage(request, response, storeView(views, String(request.params.name)))],
    },
    {
      method: 'get',
      path: '/status/stores/:name/json',
      summary: 'What a store page shows, as JSON',
      tag: TAG,
      params: StoreName,
      answers: view('The store view'),
      errors: [401, 404],
      handlers: [json, (request, response) => void response.set('Cache-Control', 'no-store').json(storeView(views, String(request.params.name)))],
    },
    {
      method: 'get',
      path: '/status/login',
      summary: 'The sign-in form',
      tag: TAG,
      answers: page('The form'),
      handlers: [(_request, response) => void response.type('html').send(loginPageHtml(pageHeaders(response), { application: '', login: '' }))],
    },
    {
      method: 'post',
      path: '/status/login',
      summary:
        'Signs an enterprise user in (a form: user_external_application_id, login, password); sets an HttpOnly, SameSite=Strict session cookie',
      tag: TAG,
      answers: { 303: { description: 'Signed in: to /status', mediaType: 'text/html' } },
      errors: [400, 401, 429],
      handlers: [express.urlencoded({ extended: false, limit: LOGIN_FORM_LIMIT }), logIn],
    },
    {
      method: 'post',
      path: '/status/logout',
      summary: 'Signs out',
      tag: TAG,
      answers: { 303: { description: 'To /status/login', mediaType: 'text/html' } },
      handlers: [
        (_request, response) => {
          clearSessionCookie(response);
          response.redirect(303, '/status/login');
        },
      ],
    },
  ];
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
