/**
 * The API document (OpenAPI 3.1), built from the route table the daemon mounts: every
 * endpoint of both interfaces with the zod schemas it validates its input with and, where
 * it declares one, the structure of its answer; then the routes outside the interfaces as
 * their routers describe them. A new endpoint is in the document by itself.
 */
import type { z } from 'zod';
import { takesIdempotencyKey, type Endpoint } from './endpoint.js';
import { API_VERSION, basePath, INTERFACE_LABEL, INTERFACES, type Interface } from './interfaces.js';
import { SOURCE_HEADER } from './history-reads.js';
import { errorComponents, errorResponse } from './openapi-errors.js';
import { jsonSchemaOf, type Definitions, type JsonSchema } from './openapi-schemas.js';

/** A route outside the two interfaces (health, metrics, this document, the hub's sync protocol), as its router describes it. */
export interface PlainRoute {
  method: 'get' | 'post';
  path: string;
  summary: string;
  tag: string;
  /** Called with a store's node name and secret (the sync protocol); with no credentials otherwise. */
  nodeCredentials?: true;
  params?: z.ZodType;
  query?: z.ZodType;
  /** The request headers it reads, by their names. */
  headers?: z.ZodType;
  body?: z.ZodType;
  /** Its answers by status, each with its media type and, for JSON, its structure. */
  answers: Record<number, { description: string; mediaType: string; schema?: z.ZodType }>;
  /** The statuses of the error answers it gives beyond 500. */
  errors?: number[];
}

type Operation = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, unknown>;
}

export function openApiDocument(endpoints: Endpoint[], plainRoutes: PlainRoute[]): OpenApiDocument {
  const definitions: Definitions = {};
  const paths: Record<string, Record<string, Operation>> = {};
  const add = (path: string, method: string, operation: Operation) => {
    paths[path] = { ...paths[path], [method]: operation };
  };
  for (const iface of INTERFACES) {
    for (const endpoint of endpoints.filter((each) => each.interfaces.includes(iface))) {
      add(`${basePath(iface)}${openApiPath(endpoint.path)}`, endpoint.method, operationOf(endpoint, iface, definitions));
    }
  }
  for (const route of plainRoutes) add(openApiPath(route.path), route.method, plainOperation(route, definitions));
  const errors = errorComponents(definitions);
  return {
    openapi: '3.1.0',
    info: {
      title: 'loyaltyd',
      version: API_VERSION,
      description:
        'The loyalty API of a loyaltyd store or hub: the enterprise interface (cash desks, back office) and the customer interface (apps, kiosks), ' +
        'then the routes outside them. Success answers `{"data": …}`; errors answer `{"error": …}` with the exceptions and reasons of the error catalogue.',
    },
    tags: [
      ...INTERFACES.flatMap((iface) =>
        [...new Set(endpoints.filter((endpoint) => endpoint.interfaces.includes(iface)).map((endpoint) => tagOf(endpoint, iface)))].map((name) => ({
          name,
          description: `Below ${basePath(iface)}`,
        })),
      ),
      ...[...new Set(plainRoutes.map((route) => route.tag))].map((name) => ({ name })),
    ],
    paths,
    components: {
      securitySchemes: SECURITY_SCHEMES,
      schemas: { ...errors.schemas, ...definitions },
      responses: errors.responses,
    },
  };
}

/** The part of the document one interface serves: its paths and their tags. */
export function interfaceDocument(document: OpenApiDocument, iface: Interface): OpenApiDocument {
  const paths = Object.fromEntries(Object.entries(document.paths).filter(([path]) => path.startsWith(`${basePath(iface)}/`)));
  const tags = new Set(Object.values(paths).flatMap((operations) => Object.values(operations).flatMap((operation) => operation.tags as string[])));
  return {
    ...document,
    info: { ...document.info, title: `loyaltyd, ${INTERFACE_LABEL[iface].toLowerCase()} interface` },
    tags: document.tags.filter((tag) => tags.has(tag.name)),
    paths,
  };
}

/** An express path (`/customers/:customer_id`) as OpenAPI writes it (`/customers/{customer_id}`). */
function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

/** `enterprise post /purchases/actions/accept-payment` → `enterprise_post_purchases_actions_accept_payment`, as client generators name methods. */
const operationIdOf = (words: string) => words.replace(/[^a-zA-Z0-9]+/g, '_').replace(/^_|_$/g, '');

/** Operations are grouped by interface and resource: the first segment of their path. */
const tagOf = (endpoint: Endpoint, iface: Interface) => `${INTERFACE_LABEL[iface]}: ${endpoint.path.split('/')[1]}`;

const SECURITY_SCHEMES = {
  enterpriseBearer: { type: 'http', scheme: 'bearer', description: 'The bearer_token of POST /users/actions/login.' },
  enterpriseBasic: {
    type: 'http',
    scheme: 'basic',
    description: 'Deprecated, for users it is enabled for: login:sha256hex(md5hex(password) + the UTC hour as YYYYMMDDHH).',
  },
  customerToken: {
    type: 'http',
    scheme: 'basic',
    description: 'api_user:token_id — an api-user issued by the operator and a token of POST /tokens.',
  },
  customerApiUser: { type: 'http', scheme: 'basic', description: 'api_user: with an empty token part, to create a token.' },
  node: { type: 'http', scheme: 'basic', description: 'node_name:node_secret of a store, issued on the hub by `loyaltyd nodes add`.' },
};

function securityOf(endpoint: Endpoint, iface: Interface): Record<string, string[]>[] {
  const access = endpoint.access ?? 'client';
  if (access === 'public') return [];
  if (iface === 'customer') return [access === 'api-user' ? { customerApiUser: [] } : { customerToken: [] }];
  return [{ enterpriseBearer: [] }, { enterpriseBasic: [] }];
}

function operationOf(endpoint: Endpoint, iface: Interface, definitions: Definitions): Operation {
  const operation: Operation = {
    operationId: operationIdOf(`${iface} ${endpoint.method} ${endpoint.path}`),
    ...(endpoint.summary && { summary: endpoint.summary }),
    tags: [tagOf(endpoint, iface)],
    security: securityOf(endpoint, iface),
    parameters: parametersOf(endpoint, definitions),
    responses: responsesOf(endpoint, definitions),
  };
  if (endpoint.body) {
    const schema = jsonSchemaOf(endpoint.body, 'input', definitions);
    operation.requestBody = { required: Array.isArray(schema.required) && schema.required.length > 0, content: { 'application/json': { schema } } };
  }
  return operation;
}

function parametersOf(endpoint: Endpoint, definitions: Definitions): JsonSchema[] {
  const parameters = inputParameters(endpoint, definitions);
  if (takesIdempotencyKey(endpoint)) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'A replay with the same key and body answers the first answer again; the same key with another body is 422.',
      schema: { type: 'string' },
    });
  }
  return parameters;
}

type Inputs = { params?: z.ZodType | undefined; query?: z.ZodType | undefined; headers?: z.ZodType | undefined };

/** One parameter per property of the path, query and header schemas. */
function inputParameters({ params, query, headers }: Inputs, definitions: Definitions): JsonSchema[] {
  const parameters: JsonSchema[] = [];
  for (const [place, schema] of [
    ['path', params],
    ['query', query],
    ['header', headers],
  ] as const) {
    if (!schema) continue;
    const object = jsonSchemaOf(schema, 'input', definitions);
    const required = new Set((object.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries((object.properties ?? {}) as Record<string, JsonSchema>)) {
      parameters.push({ name, in: place, required: place === 'path' || required.has(name), schema: property });
    }
  }
  return parameters;
}

function responsesOf(endpoint: Endpoint, definitions: Definitions): Record<string, unknown> {
  const status = endpoint.status ?? 200;
  const success: JsonSchema = { description: status === 201 ? 'Created' : status === 204 ? 'Done; no body' : 'Success' };
  if (status !== 204) {
    const data = endpoint.answer
      ? jsonSchemaOf(endpoint.answer, 'output', definitions)
      : { description: 'The answer of this call; its structure is not declared by its endpoint.' };
    success.content = { 'application/json': { schema: { type: 'object', properties: { data }, required: ['data'] } } };
  }
  if (endpoint.history) {
    success.headers = {
      [SOURCE_HEADER]: {
        description: 'At a store with a hub: `hub` when head office answered, `local` when the store did.',
        schema: { type: 'string', enum: ['hub', 'local'] },
      },
    };
  }
  const access = endpoint.access ?? 'client';
  const errors = [400, 403, 429, 500];
  if (access !== 'public') errors.push(401);
  if (endpoint.params) errors.push(404);
  if (endpoint.body) errors.push(413, 415);
  if (takesIdempotencyKey(endpoint)) errors.push(422);
  return { [status]: success, ...Object.fromEntries(errors.sort((a, b) => a - b).map((code) => [code, errorResponse(code)])) };
}

function plainOperation(route: PlainRoute, definitions: Definitions): Operation {
  const operation: Operation = {
    operationId: operationIdOf(`${route.method} ${route.path}`),
    summary: route.summary,
    tags: [route.tag],
    security: route.nodeCredentials ? [{ node: [] }] : [],
    parameters: inputParameters(route, definitions),
    responses: {
      ...Object.fromEntries(
        Object.entries(route.answers).map(([status, answer]) => [
          status,
          {
            description: answer.description,
            content: { [answer.mediaType]: answer.schema ? { schema: jsonSchemaOf(answer.schema, 'output', definitions) } : {} },
          },
        ]),
      ),
      ...Object.fromEntries([...(route.errors ?? []), 500].map((code) => [code, errorResponse(code)])),
    },
  };
  if (route.body)
    operation.requestBody = { required: true, content: { 'application/json': { schema: jsonSchemaOf(route.body, 'input', definitions) } } };
  return operation;
}
