/**
 * Generated hostile input for the API fuzz (test/http/fuzz.test.ts): path values, query
 * strings and JSON bodies built from the OpenAPI schemas of ./spec-operations.ts and then
 * broken, all drawn from a seeded generator so that a seed replays the same requests.
 */
import type { Schema, SpecParameter } from './spec-operations.js';

/** mulberry32: small, fast, and the same sequence for the same seed on every platform. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  int(below: number): number {
    return Math.floor(this.next() * below);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(values: readonly T[]): T {
    return values[this.int(values.length)]!;
  }

  hex(length: number): string {
    return Array.from({ length }, () => this.int(16).toString(16)).join('');
  }
}

/** A seed from a text, so that each operation draws its own sequence from the run's seed. */
export function seedOf(seed: number, text: string): number {
  let hash = seed >>> 0;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193) >>> 0;
  return hash;
}

/** Names of Object.prototype's members and friends: values that must stay mere values. */
const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', 'isPrototypeOf', '__defineGetter__'];

const ODD_TEXTS = [
  '',
  ' ',
  'null',
  'undefined',
  'true',
  'false',
  '0',
  '-1',
  '1.5',
  '-0',
  '1e309',
  '99999999999999999999999999',
  'NaN',
  'Infinity',
  '0x1f',
  '\u0000',
  '%',
  '\u{1F642}',
  "' OR 1=1 --",
  '<b>',
  '../..',
  '[]',
  '{}',
  'a,b,,',
  '2030-02-30 25:61:61',
  'ffffffffffffffffffffffffff',
  '00000000000000000000000000',
];
const QUERY_LENGTH_LIMIT = 6_000;
const HUGE_NUMBERS = [1e308, -1e308, 2 ** 53 + 2, -(2 ** 53) - 2, 1e21, 5e-324, 0.005, -0.01, 12.345, -1, 0, 999_999_999_999];

const ID = /^[0-9a-f]{26}$/;
const IDS_PER_NAME = 20;
const IDS_IN_ALL = 400;

/**
 * What the fuzz knows of the node's data: the ids it saw, by the field that held them (so a
 * `customer_id` is usually a customer's), the demo card numbers, a few texts the node knows.
 */
export class Known {
  private readonly idsByName = new Map<string, string[]>();
  private readonly ids: string[] = [];

  constructor(
    ids: Record<string, string[]>,
    readonly cards: string[],
    readonly texts: string[],
  ) {
    for (const [name, values] of Object.entries(ids)) for (const value of values) this.add(name, value);
  }

  /** An id for a field or parameter of this name: usually one seen under that name. */
  idFor(random: Random, name: string): string {
    const named = this.idsByName.get(name);
    if (named && random.chance(0.8)) return random.pick(named);
    return this.ids.length > 0 ? random.pick(this.ids) : random.hex(26);
  }

  /** Learns the ids of an answer's body, each under the key that held it. */
  learn(value: unknown, name = ''): void {
    if (typeof value === 'string' && ID.test(value)) this.add(name, value);
    else if (Array.isArray(value)) for (const item of value) this.learn(item, name);
    else if (value !== null && typeof value === 'object') for (const [key, child] of Object.entries(value)) this.learn(child, key);
  }

  private add(name: string, id: string): void {
    const named = this.idsByName.get(name) ?? [];
    if (!named.includes(id) && named.length < IDS_PER_NAME) this.idsByName.set(name, [...named, id]);
    if (!this.ids.includes(id) && this.ids.length < IDS_IN_ALL) this.ids.push(id);
  }
}

function oddText(random: Random): string {
  return random.chance(0.4) ? random.pick(PROTOTYPE_NAMES) : random.chance(0.1) ? 'x'.repeat(3_000) : random.pick(ODD_TEXTS);
}

/** A path parameter: usually an id the node knows, else something that is no id at all. */
export function pathValue(random: Random, name: string, known: Known): string {
  if (random.chance(0.6)) return encodeURIComponent(known.idFor(random, name));
  // Not percent-encoding: the router must refuse to decode it, not fail.
  if (random.chance(0.05)) return random.pick(['%E0%A4%A', '%', '%zz', '%C0%AF']);
  return encodeURIComponent(random.chance(0.2) ? random.hex(26) : oddText(random));
}

/** A query string for these parameters: spec-like, wrong-typed and prototype-named values, in each array encoding. */
export function queryString(random: Random, parameters: SpecParameter[], listedFields: string[], known: Known): string {
  const pairs: [string, string][] = [];
  for (const parameter of parameters) {
    if (parameter.in !== 'query' || !random.chance(parameter.required ? 0.85 : 0.35)) continue;
    const value = () => queryValue(random, parameter, listedFields, known);
    const name = parameter.name;
    switch (random.int(8)) {
      case 0:
        pairs.push([`${name}[]`, value()], [`${name}[]`, value()]);
        break;
      case 1:
        pairs.push([`${name}[0]`, value()], [`${name}[1]`, value()]);
        break;
      case 2:
        pairs.push([name, value()], [name, value()]);
        break;
      case 3:
        pairs.push([`${name}[${random.pick(PROTOTYPE_NAMES)}]`, value()]);
        break;
      default:
        pairs.push([name, value()]);
    }
  }
  if (random.chance(0.15)) pairs.push([random.pick([...PROTOTYPE_NAMES, 'unknown_parameter', 'a[b][c]']), random.pick(PROTOTYPE_NAMES)]);
  // Kept within Node's 16 KB for the request line and headers together, which it answers
  // 431 before the app sees the request.
  let query = '';
  for (const [name, value] of pairs) {
    const pair = `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
    if (query.length + pair.length < QUERY_LENGTH_LIMIT) query += query ? `&${pair}` : pair;
  }
  return query;
}

function queryValue(random: Random, parameter: SpecParameter, listedFields: string[], known: Known): string {
  if (parameter.name === 'sort_field')
    return random.chance(0.5) ? random.pick(PROTOTYPE_NAMES) : random.pick(listedFields.length > 0 ? listedFields : ODD_TEXTS);
  if (parameter.name === 'sort_direction') return random.pick(['ASC', 'DESC', 'asc', 'ASC,DESC', ...PROTOTYPE_NAMES]);
  if (random.chance(0.4)) return oddText(random);
  const item = parameter.schema.type === 'array' ? (parameter.schema.items ?? {}) : parameter.schema;
  const sensible = valueOf(random, item, parameter.name, known);
  return typeof sensible === 'string' ? sensible : JSON.stringify(sensible);
}

/**
 * A JSON value that fits the schema as far as the node's data allows (ids it knows, the demo
 * cards); a `clean` one draws from no odd values, so that it passes validation more often.
 */
export function valueOf(random: Random, schema: Schema, name: string, known: Known, clean = false, depth = 0): unknown {
  const composed = schema.allOf ?? schema.oneOf ?? schema.anyOf;
  if (composed && composed.length > 0) {
    if (schema.allOf)
      return schema.allOf.reduce<unknown>((merged, part) => mergeObjects(merged, valueOf(random, part, name, known, clean, depth)), {});
    return valueOf(random, random.pick(composed), name, known, clean, depth);
  }
  if (schema.enum && schema.enum.length > 0 && (clean || random.chance(0.85))) return random.pick(schema.enum);
  const type = schema.type ?? (schema.properties ? 'object' : schema.items ? 'array' : 'string');
  // The file's examples are often of another type than the field (a number for a string) and
  // its ids are not ids of this node; a clean value takes them in the field's type only.
  if (clean && name.endsWith('_id') && type !== 'object' && type !== 'array') return known.idFor(random, name);
  if (schema.example !== undefined && !name.endsWith('_id') && random.chance(clean ? 0.5 : 0.3))
    return clean ? inType(schema.example, type) : schema.example;
  switch (type) {
    case 'object': {
      const object: Record<string, unknown> = {};
      if (depth > 6) return object;
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        if (schema.required?.includes(key) || random.chance(0.6)) object[key] = valueOf(random, property, key, known, clean, depth + 1);
      }
      return object;
    }
    case 'array':
      return depth > 6
        ? []
        : Array.from({ length: (clean ? 1 : 0) + random.int(3) }, () => valueOf(random, schema.items ?? {}, name, known, clean, depth + 1));
    case 'integer':
      return clean || random.chance(0.7) ? 1 + random.int(9) : random.pick(HUGE_NUMBERS.filter(Number.isInteger));
    case 'number':
      return clean || random.chance(0.5) ? 1 + random.int(1_000) : random.pick(HUGE_NUMBERS);
    case 'boolean':
      return random.chance(0.5);
    default:
      return textFor(random, name, schema, known, clean);
  }
}

function textFor(random: Random, name: string, schema: Schema, known: Known, clean: boolean): string {
  if (name.endsWith('_id') && (clean || random.chance(0.8))) return known.idFor(random, name);
  if (name.includes('card') && (clean || random.chance(0.7))) return random.pick(known.cards);
  if (/time|date|valid_(from|to)|birth/.test(name) || schema.format === 'date-time' || schema.format === 'date') {
    const valid = ['2030-01-01 12:00:00', '2030-01-01T12:00:00+02:00', '2030-01-01T12:00:00', '2030-01-01'];
    return random.pick(clean ? valid : [...valid, '1970-01-01 00:00:00', '9999-12-31 23:59:59', '2030-13-45 99:99:99']);
  }
  if (name.includes('email') || name === 'login_value')
    return random.pick(['jana.novak@example.com', 'nobody@example.com', ...(clean ? [] : ['not-an-address', ...known.texts])]);
  if (random.chance(0.3)) return random.pick(known.texts);
  return clean || random.chance(0.5) ? `fuzz-${random.hex(6)}` : random.pick(ODD_TEXTS);
}

function inType(example: unknown, type: string): unknown {
  if (type === 'string' && typeof example === 'number') return String(example);
  if ((type === 'number' || type === 'integer') && typeof example === 'string' && example.trim() !== '' && Number.isFinite(Number(example)))
    return Number(example);
  return example;
}

function mergeObjects(left: unknown, right: unknown): unknown {
  const isObject = (value: unknown) => value !== null && typeof value === 'object' && !Array.isArray(value);
  return isObject(left) && isObject(right) ? { ...(left as object), ...(right as object) } : right;
}

/** A node of a JSON value: its container and the key or index that holds it. */
interface Slot {
  container: Record<string, unknown> | unknown[];
  key: string | number;
}

function slotsOf(value: unknown, slots: Slot[] = []): Slot[] {
  if (value === null || typeof value !== 'object') return slots;
  for (const [key, child] of Object.entries(value)) {
    slots.push({ container: value as Record<string, unknown>, key: Array.isArray(value) ? Number(key) : key });
    slotsOf(child, slots);
  }
  return slots;
}

function containersOf(value: unknown, found: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (value === null || typeof value !== 'object') return found;
  if (!Array.isArray(value)) found.push(value as Record<string, unknown>);
  for (const child of Object.values(value)) containersOf(child, found);
  return found;
}

/** A value that is wrong almost anywhere: other types, nulls, extremes, deep nesting. */
function hostileValue(random: Random): unknown {
  switch (random.int(10)) {
    case 0:
      return null;
    case 1:
      return random.pick(HUGE_NUMBERS);
    case 2:
      return random.pick(PROTOTYPE_NAMES);
    case 3:
      return 'x'.repeat(random.pick([256, 10_000, 200_000]));
    case 4:
      return DEEP;
    case 5:
      return random.pick([{}, [], [null], { '': '' }]);
    case 6:
      return random.chance(0.5);
    case 7:
      return String(random.pick(HUGE_NUMBERS));
    case 8:
      return [random.pick(ODD_TEXTS), random.pick(HUGE_NUMBERS)];
    default:
      return random.pick(ODD_TEXTS);
  }
}

/**
 * Stands for a value nested thousands of levels deep, written into the body's text by
 * bodyText: JSON.stringify here could not write such a value any more than the node can.
 */
const DEEP = '\u0000deep\u0000';

/** A generated body as sent, with each deep-nesting stand-in written out. */
export function bodyText(random: Random, body: unknown): string {
  return (JSON.stringify(body) ?? 'null').replaceAll(JSON.stringify(DEEP), () => {
    const depth = random.pick([40, 2_000, 300_000]);
    return `${'['.repeat(depth)}${']'.repeat(depth)}`;
  });
}

/** An own property, even when named `__proto__`: JSON.stringify writes it like any other key. */
function setOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Breaks a generated body in one to three places, or replaces it whole now and then. */
export function mutated(random: Random, body: unknown): unknown {
  if (random.chance(0.06)) return hostileValue(random);
  const mutations = 1 + random.int(3);
  for (let count = 0; count < mutations; count++) {
    const slots = slotsOf(body);
    const containers = containersOf(body);
    const choice = random.int(5);
    if (choice === 4) {
      // Deep values in many places at once: validation reads every field before it answers.
      for (const { container, key } of slots) if (random.chance(0.3)) (container as Record<string | number, unknown>)[key] = DEEP;
    } else if (choice === 0 && slots.length > 0) {
      const { container, key } = random.pick(slots);
      if (Array.isArray(container)) container.splice(Number(key), 1);
      else delete container[key];
    } else if (choice === 1 && containers.length > 0) {
      setOwn(
        random.pick(containers),
        random.pick(PROTOTYPE_NAMES),
        random.pick<unknown>([{ polluted: 1 }, 'polluted', null, [1], { toString: 'x' }]),
      );
    } else if (slots.length > 0) {
      const { container, key } = random.pick(slots);
      (container as Record<string | number, unknown>)[key] = hostileValue(random);
    }
  }
  return body;
}

/** Changes one or two values of a valid body to extremes, keeping its shape. */
export function tweaked(random: Random, body: unknown): unknown {
  const leaves = slotsOf(body).filter(({ container, key }) => {
    const value = (container as Record<string | number, unknown>)[key];
    return value === null || typeof value !== 'object';
  });
  for (let count = 1 + random.int(2); count > 0 && leaves.length > 0; count--) {
    const { container, key } = random.pick(leaves);
    (container as Record<string | number, unknown>)[key] = random.pick<unknown>([
      ...HUGE_NUMBERS,
      ...HUGE_NUMBERS.map(String),
      '1e21',
      '0.0001',
      '-0',
      '99999999999999999999',
      null,
      true,
      random.pick(PROTOTYPE_NAMES),
      random.pick(ODD_TEXTS),
    ]);
  }
  return body;
}

/** A body that is not the JSON object an operation reads, with the content type it is sent as. */
export interface RawBody {
  contentType: string | undefined;
  text: string | Uint8Array;
  contentEncoding?: string;
}

export function rawBody(random: Random): RawBody {
  const json = 'application/json';
  return random.pick<RawBody>([
    { contentType: json, text: '{"store_id": ' },
    { contentType: json, text: '' },
    { contentType: json, text: 'null' },
    { contentType: json, text: '[{}]' },
    { contentType: json, text: '"text"' },
    { contentType: json, text: '{"__proto__": {"admin": true}, "constructor": {"prototype": {"admin": true}}}' },
    { contentType: json, text: '{"a": 1, "a": {"b": 2}}' },
    { contentType: json, text: '\uFEFF{}' },
    { contentType: json, text: Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) },
    { contentType: `${json}; charset=utf-16`, text: '{}' },
    { contentType: json, text: '{"x": 1}', contentEncoding: 'gzip' },
    { contentType: 'application/vnd.api+json', text: '{"data": [1]}' },
    { contentType: 'text/plain', text: '{"customer_id": "x"}' },
    { contentType: 'application/x-www-form-urlencoded', text: '__proto__[admin]=1&amount=5' },
    { contentType: 'multipart/form-data; boundary=x', text: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n' },
    { contentType: undefined, text: '{}' },
    { contentType: json, text: JSON.stringify({ padding: 'x'.repeat(1_100_000) }) },
  ]);
}
