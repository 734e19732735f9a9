/**
 * Error answers in the API document, from the error catalogue (src/core/errors.ts): one
 * envelope whose `exception` and `reason` list the catalogue's, and one response per
 * status naming the exceptions answered with it.
 */
import { z } from 'zod';
import { EXCEPTIONS, REASONS, type Exception, type Reason } from '../core/errors.js';
import { jsonSchemaOf, type Definitions } from './openapi-schemas.js';

const REASON_NAMES = Object.keys(REASONS) as [Reason, ...Reason[]];
const EXCEPTION_NAMES = Object.keys(EXCEPTIONS) as [Exception, ...Exception[]];

const InvalidParamAnswer = z.object({
  name: z.string(),
  reason: z.enum(REASON_NAMES).meta({ description: REASON_NAMES.map((reason) => `\`${reason}\`: ${REASONS[reason]}`).join('\n\n') }),
  value: z.string(),
  message: z.string(),
});

const ErrorAnswer = z.object({
  error: z.object({
    type: z.string(),
    exception: z.enum(EXCEPTION_NAMES),
    title: z.string(),
    detail: z.string(),
    error_data: z.looseObject({ invalid_params: z.array(InvalidParamAnswer).optional() }).optional(),
  }),
});

const responseName = (status: number) => `Error${status}`;

export function errorResponse(status: number): { $ref: string } {
  return { $ref: `#/components/responses/${responseName(status)}` };
}

export function errorComponents(definitions: Definitions) {
  const statuses = [...new Set(Object.values(EXCEPTIONS))].sort((a, b) => a - b);
  const responses = Object.fromEntries(
    statuses.map((status) => {
      const exceptions = EXCEPTION_NAMES.filter((exception) => EXCEPTIONS[exception] === status);
      const schema = {
        allOf: [
          { $ref: '#/components/schemas/ErrorAnswer' },
          { type: 'object', properties: { error: { type: 'object', properties: { exception: { enum: exceptions } } } } },
        ],
      };
      return [
        responseName(status),
        { description: exceptions.map((exception) => `\`${exception}\``).join(', '), content: { 'application/json': { schema } } },
      ];
    }),
  );
  return { schemas: { ErrorAnswer: jsonSchemaOf(ErrorAnswer, 'output', definitions) }, responses };
}
