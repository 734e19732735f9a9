import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseQuery } from '../../src/http/query.js';
import { QueryArray } from '../../src/core/schemas.js';

const Filter = z.object({ a: QueryArray.optional() });

describe('the query string parser', () => {
  it('reads a[]=x&a[]=y as an array', () => {
    expect(parseQuery('a[]=x&a[]=y')).toEqual({ a: ['x', 'y'] });
  });

  it('reads a[0]=x&a[1]=y as an array', () => {
    expect(parseQuery('a[0]=x&a[1]=y')).toEqual({ a: ['x', 'y'] });
  });

  it('reads a=x&a=y as an array', () => {
    expect(parseQuery('a=x&a=y')).toEqual({ a: ['x', 'y'] });
  });

  it('reads percent-encoded brackets as brackets', () => {
    expect(parseQuery('a%5B%5D=x&a%5B%5D=y')).toEqual({ a: ['x', 'y'] });
    expect(parseQuery('a%5B0%5D=x&a%5B1%5D=y')).toEqual({ a: ['x', 'y'] });
  });

  it('reads a single bracketed parameter as a one-element array', () => {
    expect(parseQuery('a[]=x')).toEqual({ a: ['x'] });
    expect(parseQuery('a[0]=x')).toEqual({ a: ['x'] });
  });

  it('keeps a lone a=x,y as one string', () => {
    expect(parseQuery('a=x,y')).toEqual({ a: 'x,y' });
  });

  it('keeps plain parameters as strings and decodes them', () => {
    expect(parseQuery('count=10&offset=0&name=J%C3%A1na+Nov%C3%A1k')).toEqual({ count: '10', offset: '0', name: 'Jána Novák' });
  });

  it('reads an empty query as no parameters', () => {
    expect(parseQuery('')).toEqual({});
  });

  it('reads parameters named like Object.prototype members as plain values', () => {
    const query = parseQuery('constructor=x&toString=y&hasOwnProperty=z');
    expect(query.constructor).toBe('x');
    expect(query.toString).toBe('y');
    expect(query.hasOwnProperty).toBe('z');
  });

  it('keeps a __proto__ parameter as a value and leaves the prototype alone', () => {
    const query = parseQuery('__proto__[]=x&a=y');
    expect(Object.getPrototypeOf(query)).toBe(Object.prototype);
    expect(Object.hasOwn(query, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(query, '__proto__')?.value).toEqual(['x']);
    expect(query.a).toBe('y');
  });
});

describe('array query parameters', () => {
  it('split a=x,y on commas', () => {
    expect(Filter.parse(parseQuery('a=x,y'))).toEqual({ a: ['x', 'y'] });
  });

  it('give the same array for every encoding generated SDKs send', () => {
    for (const text of ['a[]=x&a[]=y', 'a[0]=x&a[1]=y', 'a=x&a=y', 'a=x,y', 'a=x%2Cy']) {
      expect(Filter.parse(parseQuery(text)), text).toEqual({ a: ['x', 'y'] });
    }
  });

  it('split each element of an array on commas too', () => {
    expect(QueryArray.parse(['x,y', 'z'])).toEqual(['x', 'y', 'z']);
  });

  it('read a single value as a one-element array', () => {
    expect(QueryArray.parse('x')).toEqual(['x']);
  });

  it('stay absent when the parameter is absent', () => {
    expect(Filter.parse(parseQuery('b=1'))).toEqual({});
  });

  it('refuse an empty element', () => {
    expect(QueryArray.safeParse('x,,y').success).toBe(false);
    expect(QueryArray.safeParse('').success).toBe(false);
  });
});
