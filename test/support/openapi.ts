/**
 * Response validation against the OpenAPI file interface.md was written from
 * (spec/carecloud-openapi-2021.yaml, beside the project in ../shared), or against the
 * current spec for what the 2021 file lacks. Each response is checked against the schema of
 * the same operation and status.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { load } from 'js-yaml';

const SPEC_2021 = fileURLToPath(new URL('../../../shared/spec/carecloud-openapi-2021.yaml', import.meta.url));
/** The current spec (DESIGN §2.3), for what the 2021 file lacks. */
export const CURRENT_SPEC = fileURLToPath(new URL('../../../shared/spec/carecloud-openapi.yaml', import.meta.url));

interface Response {
  $ref?: string;
  content?: unknown;
}
type Document = { paths: Record<string, Record<string, unknown>>; components: { responses: Record<string, Response> } };

export interface CheckOptions {
  /**
   * interface.md's rule that empty fields are returned as null where the 2021 schema types
   * them as plain values: every typed property also accepts null.
   */
  nullable?: boolean;
  /**
   * Every property a schema lists must be present. The 2021 file marks almost nothing as
   * required, so without this an answer missing its id (`{"data": {}}`) would conform.
   */
  complete?: boolean;
}

export class OpenApiContract {
  private readonly document: Document;
  private readonly validators = new Map<string, Ajv>();
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(file = SPEC_2021) {
    this.document = repaired(load(readFileSync(file, 'utf8'))) as Document;
  }

  hasOperation(method: string, path: string, status: number): boolean {
    return this.responseOf(method, path, status) !== undefined;
  }

  /** Whether the operation documents this status as an answer without a body, as its 204s are. */
  documentsNoBody(method: string, path: string, status: number): boolean {
    const response = this.responseOf(method, path, status);
    return response !== undefined && response.content === undefined;
  }

  /** Validation errors of a response body, or [] when it conforms. */
  check(method: string, path: string, status: number, body: unknown, options: CheckOptions = {}): string[] {
    const key = `${Boolean(options.nullable)} ${Boolean(options.complete)} ${method.toLowerCase()} ${path} ${status}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      if (!this.hasOperation(method, path, status)) throw new Error(`the spec has no response ${method} ${path} ${status}`);
      const escape = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');
      const operation = this.document.paths[path]![method.toLowerCase()] as { responses: Record<string, { $ref?: string }> };
      const response = operation.responses[String(status)]!;
      const responsePointer = response.$ref ?? `#/paths/${escape(path)}/${method.toLowerCase()}/responses/${status}`;
      validate = this.validatorFor(options).compile({ $ref: `openapi${responsePointer}/content/application~1json/schema` });
      this.compiled.set(key, validate);
    }
    return validate(body) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
  }

  private responseOf(method: string, path: string, status: number): Response | undefined {
    const operation = this.document.paths[path]?.[method.toLowerCase()] as { responses?: Record<string, Response> } | undefined;
    const response = operation?.responses?.[String(status)];
    // Shared responses are referenced as #/components/responses/<name>.
    return response?.$ref === undefined ? response : this.document.components.responses[response.$ref.split('/').pop()!];
  }

  private validatorFor(options: CheckOptions): Ajv {
    const key = `${Boolean(options.nullable)} ${Boolean(options.complete)}`;
    let validator = this.validators.get(key);
    if (!validator) {
      let document: unknown = this.document;
      // Required first: allowingNull turns `type: object` into a list of types.
      if (options.complete) document = requiringEveryProperty(document);
      if (options.nullable) document = allowingNull(document);
      validator = validatorOf(document as Document);
      this.validators.set(key, validator);
    }
    return validator;
  }
}

function validatorOf(document: Document): Ajv {
  // OpenAPI 3.0 schemas carry `example`, `nullable` and friends; only structure is checked. The
  // 2021 file's e-mail pattern escapes a quote (`\'`), which a unicode-mode RegExp rejects.
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false, unicodeRegExp: false });
  ajv.addSchema(document, 'openapi');
  return ajv;
}

/**
 * The 2021 file with two of its own defects undone, so that a check fails only on our answers:
 * - a pattern written as for a double-quoted YAML string (`\\.`) inside a single-quoted one, so
 *   that it demands a literal backslash (the e-mail pattern: no address could match it);
 * - a schema typed `string` whose enum lists only integers (reservation actual_state: no value
 *   could match both); interface.md types such fields as integers.
 */
function repaired(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(repaired);
  if (node === null || typeof node !== 'object') return node;
  const copy = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, repaired(value)])) as Record<string, unknown>;
  if (typeof copy.pattern === 'string') copy.pattern = copy.pattern.replace(/\\\\/g, '\\');
  if (copy.type === 'string' && Array.isArray(copy.enum) && copy.enum.every((value) => Number.isInteger(value))) copy.type = 'integer';
  return copy;
}

/** The document with every typed schema also accepting null. */
function allowingNull(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(allowingNull);
  if (node === null || typeof node !== 'object') return node;
  const copy = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, allowingNull(value)])) as Record<string, unknown>;
  if (typeof copy.type === 'string' && ['string', 'number', 'integer', 'boolean', 'object', 'array'].includes(copy.type)) {
    copy.type = [copy.type, 'null'];
    if (Array.isArray(copy.enum)) copy.enum = [...(copy.enum as unknown[]), null];
  }
  return copy;
}

/** The document with every property an object schema lists also required. */
function requiringEveryProperty(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(requiringEveryProperty);
  if (node === null || typeof node !== 'object') return node;
  const copy = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, requiringEveryProperty(value)])) as Record<string, unknown>;
  if (copy.type === 'object' && typeof copy.properties === 'object' && copy.properties !== null) copy.required = Object.keys(copy.properties);
  return copy;
}
