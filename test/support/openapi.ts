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

export class OpenApiContract {
  private readonly ajv: Ajv;
  private readonly document: { paths: Record<string, Record<string, unknown>> };
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(file = SPEC_2021) {
    this.document = load(readFileSync(file, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    // OpenAPI 3.0 schemas carry `example`, `nullable` and friends; only structure is checked.
    this.ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    this.ajv.addSchema(this.document, 'openapi');
  }

  hasOperation(method: string, path: string, status: number): boolean {
    const operation = this.document.paths[path]?.[method.toLowerCase()] as { responses?: Record<string, unknown> } | undefined;
    return operation?.responses?.[String(status)] !== undefined;
  }

  /** Validation errors of a response body, or [] when it conforms. */
  check(method: string, path: string, status: number, body: unknown): string[] {
    const key = `${method.toLowerCase()} ${path} ${status}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      if (!this.hasOperation(method, path, status)) throw new Error(`the 2021 spec has no response ${key}`);
      const escape = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');
      const operation = this.document.paths[path]![method.toLowerCase()] as { responses: Record<string, { $ref?: string }> };
      const response = operation.responses[String(status)]!;
      const responsePointer = response.$ref ?? `#/paths/${escape(path)}/${method.toLowerCase()}/responses/${status}`;
      const schemaPointer = `openapi${responsePointer}/content/application~1json/schema`;
      validate = this.ajv.compile({ $ref: schemaPointer });
      this.compiled.set(key, validate);
    }
    return validate(body) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
  }
}
