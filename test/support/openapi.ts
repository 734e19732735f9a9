/**
 * Response validation against the OpenAPI file interface.md was written from
 * (spec/carecloud-openapi-2021.yaml, beside the project in ../shared). Each response is
 * checked against the schema of the same operation and status.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { load } from 'js-yaml';

const SPEC_2021 = fileURLToPath(new URL('../../../shared/spec/carecloud-openapi-2021.yaml', import.meta.url));

type Document = { paths: Record<string, Record<string, unknown>> };

export class OpenApiContract {
  private readonly document: Document;
  private readonly strict: Ajv;
  private readonly lenient: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(file = SPEC_2021) {
    this.document = repaired(load(readFileSync(file, 'utf8'))) as Document;
    this.strict = validatorOf(this.document);
    this.lenient = validatorOf(allowingNull(structuredClone(this.document)) as Document);
  }

  hasOperation(method: string, path: string, status: number): boolean {
    const operation = this.document.paths[path]?.[method.toLowerCase()] as { responses?: Record<string, unknown> } | undefined;
    return operation?.responses?.[String(status)] !== undefined;
  }

  /**
   * Validation errors of a response body, or [] when it conforms. `nullable` applies
   * interface.md's rule that empty fields are returned as null where the 2021 schema types
   * them as plain values: every typed property also accepts null.
   */
  check(method: string, path: string, status: number, body: unknown, options: { nullable?: boolean } = {}): string[] {
    const key = `${options.nullable ? 'nullable' : 'strict'} ${method.toLowerCase()} ${path} ${status}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      if (!this.hasOperation(method, path, status)) throw new Error(`the 2021 spec has no response ${method} ${path} ${status}`);
      const escape = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');
      const operation = this.document.paths[path]![method.toLowerCase()] as { responses: Record<string, { $ref?: string }> };
      const response = operation.responses[String(status)]!;
      const responsePointer = response.$ref ?? `#/paths/${escape(path)}/${method.toLowerCase()}/responses/${status}`;
      validate = (options.nullable ? this.lenient : this.strict).compile({ $ref: `openapi${responsePointer}/content/application~1json/schema` });
      this.compiled.set(key, validate);
    }
    return validate(body) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
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
