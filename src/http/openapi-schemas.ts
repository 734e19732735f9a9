/**
 * zod schemas as JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) for the API
 * document: requests as the API reads them (`input`: a money amount is a number or a
 * numeric string), answers as it writes them (`output`). A schema that refers to itself
 * (a JSON value) or carries an `id` keeps its definitions under the document's
 * components.schemas.
 */
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/** Definitions of self-referring schemas, by their name in `components.schemas`. */
export type Definitions = Record<string, JsonSchema>;

export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output', definitions: Definitions): JsonSchema {
  const converted = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  delete converted.$schema;
  const local = (converted.$defs ?? {}) as Definitions;
  delete converted.$defs;
  const refersToItself = JSON.stringify(converted).includes('"$ref":"#"');
  if (Object.keys(local).length === 0 && !refersToItself) return converted;
  // Each schema names its own definitions __schema0, __schema1, … and itself `#`; the
  // document keeps them apart under a prefix of their own.
  const prefix = `Schema${Object.keys(definitions).length}`;
  // A schema named by its `id` metadata (DiscountItem) keeps its name: the specs call it so.
  const rename = (name: string) =>
    name === '#' || name.startsWith('__schema') ? `${prefix}_${name === '#' ? 'root' : name.replace(/^__schema/, '')}` : name;
  const reference = (target: string) => `#/components/schemas/${rename(target === '#' ? '#' : target.slice('#/$defs/'.length))}`;
  if (refersToItself) local['#'] = converted;
  for (const [name, definition] of Object.entries(local)) definitions[rename(name)] = relocated(definition, reference) as JsonSchema;
  return refersToItself ? { $ref: reference('#') } : (relocated(converted, reference) as JsonSchema);
}

/** A schema with every `$ref` pointed where the document keeps its target. */
function relocated(node: unknown, reference: (target: string) => string): unknown {
  if (Array.isArray(node)) return node.map((item) => relocated(item, reference));
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, key === '$ref' && typeof value === 'string' ? reference(value) : relocated(value, reference)]),
  );
}
