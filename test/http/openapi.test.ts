/**
 * The API document (issue 19): `/openapi.json` is a valid OpenAPI 3.1 document checked by a
 * validator package, it names every route the daemon serves — found by walking the express
 * router stack of a store and of a hub, so a route mounted without its description fails
 * here — and the checkout calls' requests and answers conform to it. `/docs` and its files
 * answer without credentials and load nothing from elsewhere.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../src/demo/demo.js';
import { expectError } from '../support/expect-error.js';
import { call, demoPosLogin, startTestServer, type TestServer } from '../support/server.js';

interface Document {
  openapi: string;
  paths: Record<string, Record<string, { operationId: string; security: unknown[]; responses: Record<string, any> }>>;
}

/** A route express serves: a method and path, or (prefix) everything below a path. */
interface Served {
  method: string;
  path: string;
  prefix: boolean;
}

interface Layer {
  rawPath?: string;
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
}

/** Every route of an express router stack, with the paths its routers are mounted at. */
function servedRoutes(stack: Layer[], base = ''): Served[] {
  return stack.flatMap((layer): Served[] => {
    if (layer.route) {
      const route = layer.route;
      // `all` routes answer 405 for a known path's other methods.
      return Object.keys(route.methods)
        .filter((method) => method !== '_all')
        .map((method) => ({ method, path: `${base}${route.path}`, prefix: false }));
    }
    const path = layer.rawPath === undefined || layer.rawPath === '/' ? base : `${base}${layer.rawPath}`;
    if (layer.handle.stack) return servedRoutes(layer.handle.stack, path);
    // A handler mounted at a path of its own serves what is below it, by whichever methods it takes.
    return path === base ? [] : [{ method: 'get', path, prefix: true }];
  });
}

const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

function documents(document: Document, served: Served): boolean {
  const path = openApiPath(served.path);
  if (!served.prefix) return document.paths[path]?.[served.method] !== undefined;
  return Object.entries(document.paths).some(([documented, operations]) => documented.startsWith(`${path}/`) && Object.keys(operations).length > 0);
}

const routesOf = (server: TestServer) => servedRoutes((server.app.http as unknown as { router: { stack: Layer[] } }).router.stack);

/** A JSON schema validator over the document: the schema at a pointer into it. */
function schemaAt(document: Document): (pointer: string) => ValidateFunction {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(document, 'openapi');
  return (pointer) => ajv.compile({ $ref: `openapi#${pointer}` });
}

const escape = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');

describe('/openapi.json of a store', () => {
  let server: TestServer;
  let document: Document;

  beforeAll(async () => {
    server = await startTestServer();
    const response = await call('GET', `${server.url}/openapi.json`);
    expect(response.status).toBe(200);
    document = response.body as Document;
  });
  afterAll(() => server.close());

  it('is a valid OpenAPI 3.1 document, served without credentials', async () => {
    const validator = new Validator();
    const result = await validator.validate(document as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(
      new Set(Object.values(document.paths).flatMap((operations) => Object.values(operations).map((operation) => operation.operationId))).size,
    ).toBe(Object.values(document.paths).flatMap((operations) => Object.values(operations)).length);
  });

  it('names every route the store serves; a route it leaves out answers interface_not_allowed_exception', async () => {
    const served = routesOf(server);
    expect(served.length).toBeGreaterThan(100);
    const undocumented = served.filter((route) => !documents(document, route));
    for (const route of undocumented) {
      const answer = await call(
        route.method.toUpperCase(),
        `${server.url}${route.path.replace(/:(\w+)/g, '$1')}`,
        route.method === 'get' ? {} : { body: {} },
      );
      expect(answer.body?.error?.exception, `${route.method} ${route.path}`).toBe('interface_not_allowed_exception');
    }
    // Each resource an interface leaves out is still routed there, to say so.
    expect(undocumented.length).toBeGreaterThan(0);
  });

  it('names nothing the store does not serve', () => {
    const served = routesOf(server).map((route) => `${route.method} ${openApiPath(route.path)}`);
    const named = Object.entries(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`));
    expect(named.filter((operation) => !served.includes(operation))).toEqual([]);
  });

  it('describes the checkout calls of the enterprise interface, with their inputs and credentials, and not in the customer interface', () => {
    for (const action of ['recommended-best-rewards', 'accept-payment', 'send-purchase', 'assign-customer']) {
      const operation = document.paths[`/rest-api/enterprise-interface/v1.0/purchases/actions/${action}`]?.post as Record<string, any> | undefined;
      expect(operation, action).toBeDefined();
      expect(operation!.requestBody.content['application/json'].schema.required).toContain('store_id');
      expect(operation!.security).toEqual([{ enterpriseBearer: [] }, { enterpriseBasic: [] }]);
      expect(Object.keys(operation!.responses)).toEqual(expect.arrayContaining(['400', '401', '500']));
      expect(document.paths[`/rest-api/customer-interface/v1.0/purchases/actions/${action}`]).toBeUndefined();
    }
    const login = document.paths['/rest-api/enterprise-interface/v1.0/users/actions/login']!.post!;
    expect(login.security).toEqual([]);
  });

  it("documents accept-payment's recommended_discounts as the specs' DiscountItem, its fields typed as the 2021 spec types them", () => {
    const components = (document as unknown as { components: { schemas: Record<string, any> } }).components.schemas;
    const item = components.DiscountItem;
    expect(item.required).toContain('bill_item_id');
    for (const field of ['bill_item_id', 'discount_code', 'discount_value', 'discount_percent', 'description'])
      expect(item.properties[field]?.type, field).toBe('string');
    const answer =
      document.paths['/rest-api/enterprise-interface/v1.0/purchases/actions/accept-payment']!.post!.responses['200'].content['application/json']
        .schema;
    expect(answer.properties.data.properties.accepted_payment.properties.recommended_discounts.items).toEqual({
      $ref: '#/components/schemas/DiscountItem',
    });
  });

  it('declares the answer of every operation of the interfaces that answers with a body', () => {
    const undeclared = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/rest-api/'))
      .flatMap(([path, operations]) =>
        Object.entries(operations).flatMap(([method, operation]) => {
          const [status, success] = Object.entries(operation.responses).find(([code]) => Number(code) < 300)!;
          return status !== '204' && !success.content['application/json'].schema.properties.data.type ? [`${method} ${path}`] : [];
        }),
      );
    expect(undeclared).toEqual([]);
  });

  it('lists the error catalogue: every exception and every reason', async () => {
    const { EXCEPTIONS, REASONS } = await import('../../src/core/errors.js');
    const error = (document as unknown as { components: { schemas: Record<string, any> } }).components.schemas.ErrorAnswer.properties.error;
    expect(error.properties.exception.enum).toEqual(Object.keys(EXCEPTIONS));
    expect(error.properties.error_data.properties.invalid_params.items.properties.reason.enum).toEqual(Object.keys(REASONS));
  });

  describe('a request and its answer of each checkout call conform to it', () => {
    const ENTERPRISE = '/rest-api/enterprise-interface/v1.0';
    const JANA_CARD = '2000000000017';
    const bill = (billId: string) => ({
      bill_id: billId,
      bill_number: `N-${billId}`,
      payment_time: '2026-11-20 08:30:00',
      currency_id: 'CZK',
      total_price: '165',
      bill_items: [
        { plu_ids: [{ list_code: 'GLOBAL', code: '859000771' }], quantity: 2, price: 65, paid_amount: 130, bill_item_id: 1 },
        { plu_ids: [{ list_code: 'GLOBAL', code: '859000772' }], quantity: 1, price: '35.00', paid_amount: 35, bill_item_id: '2' },
      ],
    });
    let auth: Record<string, string>;
    let schema: (pointer: string) => ValidateFunction;
    const requestSchema = (action: string) =>
      schema(`/paths/${escape(`${ENTERPRISE}/purchases/actions/${action}`)}/post/requestBody/content/application~1json/schema`);
    const answerSchema = (action: string, status: number) =>
      schema(`/paths/${escape(`${ENTERPRISE}/purchases/actions/${action}`)}/post/responses/${status}/content/application~1json/schema`);
    const errorSchema = (status: number) => schema(`/components/responses/Error${status}/content/application~1json/schema`);
    const errorsOf = (validate: ValidateFunction, value: unknown) =>
      validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);

    beforeAll(async () => {
      auth = await demoPosLogin(server);
      schema = schemaAt(document);
    });

    const cases = [
      {
        action: 'recommended-best-rewards',
        status: 200,
        body: { store_id: DEMO_IDS.storeCentral, cashdesk_number: '3', card_number: JANA_CARD, reward_list_type: 'A', bill: bill('openapi-1') },
        dropped: 'total_items',
      },
      {
        action: 'accept-payment',
        status: 200,
        body: {
          store_id: DEMO_IDS.storeCentral,
          cashdesk_number: 3,
          card_number: JANA_CARD,
          payment_type: 'S',
          max_points: 100,
          bill: bill('openapi-2'),
        },
        dropped: 'accepted_payment',
      },
      {
        action: 'send-purchase',
        status: 201,
        body: {
          store_id: DEMO_IDS.storeCentral,
          cashdesk_number: 3,
          card_number: JANA_CARD,
          bill: { ...bill('openapi-3'), payment_type: 'S', payment_recap: { credit_points: 0, amount_for_credit: 0 } },
        },
        dropped: 'purchase_id',
      },
    ];

    it.each(cases)('$action', async ({ action, status, body, dropped }) => {
      expect(errorsOf(requestSchema(action), body)).toEqual([]);
      const answer = await call('POST', `${server.url}${ENTERPRISE}/purchases/actions/${action}`, { headers: auth, body });
      expect(answer.status).toBe(status);
      const validate = answerSchema(action, status);
      expect(errorsOf(validate, answer.body)).toEqual([]);
      // The answer's schema holds it to its fields: without one, or with one more, it does not conform.
      const data = answer.body.data as Record<string, unknown>;
      expect(Object.keys(data)).toContain(dropped);
      expect(validate({ data: { ...data, [dropped]: undefined } })).toBe(false);
      expect(validate({ data: { ...data, unexpected: 1 } })).toBe(false);
      if (action === 'recommended-best-rewards') expect((data.recommended_best_rewards as unknown[]).length).toBeGreaterThan(0);
      if (action === 'accept-payment') expect((data.accepted_payment as { credit_points: number }).credit_points).toBe(100);
    });

    it('a request the document refuses is refused by the daemon too, with an error answer the document describes', async () => {
      const body = { ...cases[1]!.body, payment_type: 'X' };
      expect(errorsOf(requestSchema('accept-payment'), body).length).toBeGreaterThan(0);
      const answer = await call('POST', `${server.url}${ENTERPRISE}/purchases/actions/accept-payment`, { headers: auth, body });
      expectError(answer, 400, 'invalid_params_exception');
      expect(errorsOf(errorSchema(400), answer.body)).toEqual([]);
      expect(errorSchema(400)({ error: { ...answer.body.error, exception: 'not_found_exception' } })).toBe(false);
      const unauthorized = await call('POST', `${server.url}${ENTERPRISE}/purchases/actions/accept-payment`, { body: cases[1]!.body });
      expectError(unauthorized, 401, 'unauthorized_exception');
      expect(errorsOf(errorSchema(401), unauthorized.body)).toEqual([]);
    });
  });

  it('the answers other endpoints declare conform too: logins, tokens, customers, cards', async () => {
    const schema = schemaAt(document);
    const conforms = async (
      iface: 'enterprise' | 'customer',
      method: string,
      path: string,
      documented: string,
      options: Parameters<typeof call>[2],
      status = 200,
    ) => {
      const answer = await call(method.toUpperCase(), `${server.api(iface)}${path}`, options);
      expect(answer.status, `${method} ${path}`).toBe(status);
      const pointer = `/paths/${escape(`${server.api(iface).slice(server.url.length)}${documented}`)}/${method}/responses/${status}/content/application~1json/schema`;
      const validate = schema(pointer);
      expect(validate(answer.body) ? [] : validate.errors, `${method} ${path}`).toEqual([]);
      return answer.body.data;
    };
    const auth = await demoPosLogin(server);
    const { demoCredentials } = await import('../../src/demo/demo.js');
    const login = {
      user_external_application_id: demoCredentials.external_application_id,
      login: demoCredentials.pos_login,
      password: demoCredentials.pos_password,
    };
    await conforms('enterprise', 'post', '/users/actions/login', '/users/actions/login', { body: login });
    const customers = await conforms('enterprise', 'get', '/customers?count=3', '/customers', { headers: auth });
    expect(customers.customers.length).toBeGreaterThan(0);
    const customerId = customers.customers[0].customer_id as string;
    await conforms('enterprise', 'get', `/customers/${customerId}`, '/customers/{customer_id}', { headers: auth });
    const cards = await conforms('enterprise', 'get', '/cards', '/cards', { headers: auth });
    expect(cards.cards.length).toBeGreaterThan(0);
    await conforms('enterprise', 'get', `/cards/${cards.cards[0].card_id as string}`, '/cards/{card_id}', { headers: auth });
    await conforms('enterprise', 'get', `/customers/${customerId}/cards`, '/customers/{customer_id}/cards', { headers: auth });
    await conforms(
      'customer',
      'post',
      '/tokens',
      '/tokens',
      {
        headers: { authorization: `Basic ${Buffer.from(`${demoCredentials.api_user}:`).toString('base64')}` },
        body: {
          device: { device_id: 'openapi-test' },
          setup: { language_id: 'en' },
          external_application_id: demoCredentials.external_application_id,
        },
      },
      201,
    );
  });

  it('every enterprise GET answers as its declared answer says: the lists, then each record by the ids they give', async () => {
    const schema = schemaAt(document);
    const auth = await demoPosLogin(server);
    const base = '/rest-api/enterprise-interface/v1.0';
    type Get = { parameters: { name: string; in: string; required: boolean }[]; responses: Record<string, any> };
    const declared = Object.entries(document.paths).flatMap(([path, operations]) => {
      const operation = operations.get as unknown as Get | undefined;
      return path.startsWith(base) && operation?.responses['200'].content['application/json'].schema.properties.data.type
        ? [{ path, operation }]
        : [];
    });
    // The ids the lists answer, by their key (`purchase_id`), for the paths that name one.
    const ids = new Map<string, string>();
    const checked: string[] = [];
    /** Checks a GET's answer; one refused for want of a parameter its schema leaves optional is left for later (false). */
    const check = async (path: string, url: string): Promise<boolean> => {
      const answer = await call('GET', `${server.url}${url}`, { headers: auth });
      if (answer.status === 400 && answer.body.error?.error_data?.invalid_params?.[0]?.reason === 'required') return false;
      expect(answer.status, url).toBe(200);
      const validate = schema(`/paths/${escape(path)}/get/responses/200/content/application~1json/schema`);
      expect(validate(answer.body) ? [] : validate.errors, url).toEqual([]);
      checked.push(path.slice(base.length));
      for (const list of Object.values(answer.body.data as Record<string, unknown>).filter(Array.isArray)) {
        for (const [key, value] of Object.entries((list[0] ?? {}) as Record<string, unknown>)) {
          if (key.endsWith('_id') && typeof value === 'string' && !ids.has(key)) ids.set(key, value);
        }
      }
      return true;
    };
    const wanting: typeof declared = [];
    for (const entry of declared.filter(({ operation }) => !operation.parameters.some((parameter) => parameter.required))) {
      if (!(await check(entry.path, entry.path))) wanting.push(entry);
    }
    // The recommendations need a customer, which their schema cannot require (a cart may stand for one).
    for (const { path, operation } of wanting) {
      const given = operation.parameters.filter((parameter) => parameter.in === 'query' && ids.has(parameter.name));
      await check(path, `${path}?${given.map((parameter) => `${parameter.name}=${ids.get(parameter.name)!}`).join('&')}`);
    }
    for (const { path, operation } of declared.filter(({ operation }) => operation.parameters.some((parameter) => parameter.required))) {
      const required = operation.parameters.filter((parameter) => parameter.required);
      if (required.some((parameter) => parameter.in !== 'path' || !ids.has(parameter.name))) continue;
      await check(
        path,
        required.reduce((url, parameter) => url.replace(`{${parameter.name}}`, ids.get(parameter.name)!), path),
      );
    }
    expect(checked).toEqual(
      expect.arrayContaining([
        '/customers',
        '/cards',
        '/stores',
        '/products',
        '/rewards',
        '/purchases',
        '/customers/{customer_id}',
        '/stores/{store_id}',
        '/rewards/{reward_id}',
        '/purchases/{purchase_id}',
        '/purchases/{purchase_id}/actions/payment-summary',
        '/recommendation-engine/product/actions/eliminate',
        '/recommendation-engine/shopping-cart/actions/combined',
      ]),
    );
  });

  it('?interface= gives the part of one interface, small enough for Swagger UI to render whole', async () => {
    for (const iface of ['enterprise', 'customer'] as const) {
      const part = (await call('GET', `${server.url}/openapi.json?interface=${iface}`)).body as Document & { tags: { name: string }[] };
      expect((await new Validator().validate(part as unknown as Record<string, unknown>)).valid).toBe(true);
      const base = server.api(iface).slice(server.url.length);
      expect(Object.keys(part.paths).every((path) => path.startsWith(`${base}/`))).toBe(true);
      expect(Object.keys(part.paths)).toEqual(Object.keys(document.paths).filter((path) => path.startsWith(`${base}/`)));
      // Swagger UI renders a list of 150 tags and operations or more only as far as it is scrolled.
      const entries = part.tags.length + Object.values(part.paths).flatMap((operations) => Object.keys(operations)).length;
      expect(entries).toBeLessThan(150);
    }
    const enterprise = (await call('GET', `${server.url}/openapi.json?interface=enterprise`)).body as Document;
    expect(enterprise.paths['/rest-api/enterprise-interface/v1.0/purchases/actions/accept-payment']?.post).toBeDefined();
    const refused = expectError(await call('GET', `${server.url}/openapi.json?interface=pos`), 400, 'invalid_params_exception');
    expect(refused.error_data.invalid_params[0]).toMatchObject({ name: 'interface', reason: 'not_allowed_value' });
  });

  it('/docs and the files it loads answer 200 without credentials, from this daemon only', async () => {
    const page = await fetch(`${server.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    const html = await page.text();
    const loaded = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(loaded).toEqual(expect.arrayContaining(['/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css', '/docs/start.js']));
    for (const path of loaded) {
      expect(path).toMatch(/^\/docs\//);
      const asset = await fetch(`${server.url}${path}`);
      expect(asset.status, path).toBe(200);
      expect((await asset.arrayBuffer()).byteLength, path).toBeGreaterThan(0);
    }
    const start = await (await fetch(`${server.url}/docs/start.js`)).text();
    expect(start).toContain("url: '/openapi.json?interface=enterprise'");
    expect(start).toContain('validatorUrl: null');
    expectError(await call('GET', `${server.url}/docs/package.json`), 404, 'not_found_exception');
  });
});

describe('/openapi.json of a hub', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ demo: false, config: { mode: 'hub' } });
  });
  afterAll(() => server.close());

  it('also names the sync protocol, and every route the hub serves', async () => {
    const document = (await call('GET', `${server.url}/openapi.json`)).body as Document;
    expect((await new Validator().validate(document as unknown as Record<string, unknown>)).valid).toBe(true);
    const served = routesOf(server);
    expect(served.filter((route) => route.path.startsWith('/sync/v1')).length).toBeGreaterThanOrEqual(5);
    const undocumented = served.filter((route) => !documents(document, route));
    for (const route of undocumented) {
      const answer = await call(
        route.method.toUpperCase(),
        `${server.url}${route.path.replace(/:(\w+)/g, '$1')}`,
        route.method === 'get' ? {} : { body: {} },
      );
      expect(answer.body?.error?.exception, `${route.method} ${route.path}`).toBe('interface_not_allowed_exception');
    }
    expect(document.paths['/sync/v1/commands']?.post?.security).toEqual([{ node: [] }]);
  });
});
