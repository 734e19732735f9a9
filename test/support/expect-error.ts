import { expect } from 'vitest';
import type { JsonResponse } from './server.js';

/** Asserts the API's error envelope with this status and exception; returns the error. */
export function expectError(response: JsonResponse, status: number, exception: string): any {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(Object.keys(response.body)).toEqual(['error']);
  expect(response.body.error).toMatchObject({
    type: expect.any(String),
    exception,
    title: expect.any(String),
    detail: expect.any(String),
    error_data: expect.any(Object),
  });
  return response.body.error;
}

/** The invalid_params of a 400 invalid_params_exception answer. */
export function invalidParams(response: JsonResponse): any[] {
  return expectError(response, 400, 'invalid_params_exception').error_data.invalid_params;
}
