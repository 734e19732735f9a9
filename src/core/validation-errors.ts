import type { z } from 'zod';
import { badRequest, type InvalidParam, type Reason } from './errors.js';

/**
 * Turns zod issues into `invalid_params` entries with the generic reasons. `root` names an
 * issue about the input as a whole (a body that is an array, not an object).
 */
export function fromZodIssues(issues: z.core.$ZodIssue[], input: unknown, prefix: string, root = prefix) {
  return badRequest(issues.map((issue) => toInvalidParam(issue, input, prefix, root)));
}

function toInvalidParam(issue: z.core.$ZodIssue, input: unknown, prefix: string, root: string): InvalidParam {
  const path = issue.path.map(String);
  const value = valueAt(input, path);
  const name = [prefix, ...path].filter(Boolean).join('.') || root;
  return { name, reason: reasonOf(issue, value), value: describe(value), message: issue.message };
}

function reasonOf(issue: z.core.$ZodIssue, value: unknown): Reason {
  // A missing field fails whichever check comes first (a type, a union of types, or the
  // values of an enum); an empty one is `empty`, whatever check refused it.
  if (value === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_union' || issue.code === 'invalid_value')) return 'required';
  if (value === '') return 'empty';
  switch (issue.code) {
    case 'invalid_type':
      return value === undefined ? 'required' : 'invalid_value_format';
    case 'too_small':
      return (issue.origin === 'string' || issue.origin === 'array') && issue.minimum === 1 ? 'empty' : 'not_allowed_value';
    case 'too_big':
    case 'invalid_value':
    case 'unrecognized_keys':
      return 'not_allowed_value';
    case 'custom': {
      const reason = (issue.params as { reason?: Reason } | undefined)?.reason;
      return reason ?? 'invalid_value_format';
    }
    default:
      return 'invalid_value_format';
  }
}

function valueAt(input: unknown, path: string[]): unknown {
  let node = input;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function describe(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value.length > 200 ? `${value.slice(0, 200)}…` : value;
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch {
    // JSON.parse accepts nesting deeper than JSON.stringify's recursion can walk back.
    return Array.isArray(value) ? '[…]' : '{…}';
  }
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
