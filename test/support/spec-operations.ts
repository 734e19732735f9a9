/**
 * Every operation (path × method) of the 2021 OpenAPI file (../shared/spec), with its
 * parameters and request body schema, `$ref`s resolved, for tests that walk the whole API.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';

const SPEC_2021 = fileURLToPath(new URL('../../../shared/spec/carecloud-openapi-2021.yaml', import.meta.url));
const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;

/** The part of an OpenAPI 3.0 schema the generators read. */
export interface Schema {
  type?: string;
  format?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  example?: unknown;
  default?: unknown;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
}

export interface SpecParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: Schema;
}

export interface Operation {
  method: (typeof METHODS)[number];
  /** As the spec writes it, e.g. `/customers/{customer_id}/purchases`. */
  path: string;
  parameters: SpecParameter[];
  /** The JSON request body's schema, when the operation takes one. */
  body: Schema | undefined;
  /** `security: []`: no credential at all (the user logins). */
  public: boolean;
  /** `security: [basicAuth]` alone: the customer interface's api user without a token (POST /tokens). */
  basicOnly: boolean;
  /** First-level fields of the items of the collection its 200 answer lists, if it lists one. */
  listedFields: string[];
}

type Node = Record<string, unknown>;

export function specOperations(): Operation[] {
  const document = load(readFileSync(SPEC_2021, 'utf8')) as Node;
  const resolve = resolverOf(document);
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Node>)) {
    for (const method of METHODS) {
      const operation = item[method] as Node | undefined;
      if (!operation) continue;
      const parameters = [...((item.parameters as unknown[]) ?? []), ...((operation.parameters as unknown[]) ?? [])].map((parameter) => {
        const resolved = resolve(parameter) as Node;
        return {
          name: String(resolved.name),
          in: resolved.in as SpecParameter['in'],
          required: resolved.required === true,
          schema: (resolved.schema ?? {}) as Schema,
        };
      });
      const requestBody = resolve(operation.requestBody) as Node | undefined;
      const content = requestBody?.content as Record<string, { schema?: Schema }> | undefined;
      const security = operation.security as Node[] | undefined;
      operations.push({
        method,
        path,
        parameters,
        body: content?.['application/json']?.schema,
        public: security !== undefined && security.length === 0,
        basicOnly: security !== undefined && security.length === 1 && Object.keys(security[0]!).join() === 'basicAuth',
        listedFields: listedFields(resolve((operation.responses as Node | undefined)?.['200']) as Node | undefined),
      });
    }
  }
  return operations;
}

function listedFields(response: Node | undefined): string[] {
  const schema = (response?.content as Record<string, { schema?: Schema }> | undefined)?.['application/json']?.schema;
  const data = schema?.properties?.data;
  for (const field of Object.values(data?.properties ?? {})) {
    if (field.type === 'array' && field.items?.properties) return Object.keys(field.items.properties);
  }
  return [];
}

/**
 * Copies a node with every local `$ref` replaced by what it points at. A schema that refers
 * to itself is cut at the second visit (as `{}`), so the copy is finite.
 */
function resolverOf(document: Node): (node: unknown) => unknown {
  const at = (pointer: string): unknown =>
    pointer
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, part) => (node as Node)[part], document);
  const resolve = (node: unknown, visiting: ReadonlySet<string>): unknown => {
    if (Array.isArray(node)) return node.map((entry) => resolve(entry, visiting));
    if (node === null || typeof node !== 'object') return node;
    const reference = (node as Node).$ref;
    if (typeof reference === 'string') return visiting.has(reference) ? {} : resolve(at(reference), new Set([...visiting, reference]));
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolve(value, visiting)]));
  };
  return (node) => resolve(node, new Set());
}
