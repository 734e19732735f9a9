/** Record ids the tests and benches make up: a two-hex-digit prefix naming the kind, then a number. */

/** `n` in hex, zero-padded to `width` digits. */
export const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/** A 26-digit id of the kind `prefix` names (0xc2 a product, 0xb0 a generated customer...). */
export const id = (prefix: number, n: number) => `${hex(prefix, 2)}${hex(n, 24)}`;

/** An id of the demo chain (src/demo/demo.ts): `de` then the number. */
export const demoId = (n: number) => `de${hex(n, 24)}`;

/** The GLOBAL product code the demo chain gives the product with this id. */
export const demoProductCode = (productId: string) => `859000${parseInt(productId.slice(2), 16)}`;

/** The customers and products of the chain the checkout and recommendation benches generate. */
export const generatedCustomerId = (i: number) => id(0xb0, i);
export const generatedProductId = (i: number) => id(0xb1, i);
