import { describe, expect, it } from 'vitest';
import { builderKey, publishedKey } from '../../../src/features/recommendations/profile-keys.js';

const RECORD = '0193a1b2c3d4e5f60718293a4b';

describe('published profile keys', () => {
  it("publish a record id in 19 characters and read back to the builder's key", () => {
    for (const kind of ['p', 'g', 'b', 's']) {
      const published = publishedKey(`${kind}:${RECORD}`);
      expect(published).toHaveLength(19);
      expect(published[0]).toBe(kind.toUpperCase());
      expect(builderKey(published)).toBe(`${kind}:${RECORD}`);
    }
  });

  it('keep other ids, and read a profile published before the short form, as they are', () => {
    for (const key of ['p:SKU-4711', 'g:0193A1B2C3D4E5F60718293A4B', `b:${RECORD}0`, 's:store-1']) {
      expect(publishedKey(key)).toBe(key);
      expect(builderKey(key)).toBe(key);
    }
    expect(builderKey(`p:${RECORD}`)).toBe(`p:${RECORD}`);
  });
});
