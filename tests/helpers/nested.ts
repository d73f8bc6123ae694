/**
 * Values nested thousands of levels deep, for tests of code that must not
 * recurse on user data, built and read back without recursion themselves.
 *
 * @module
 */

/** `levels` of arrays and objects in turn (`[{ inner: [ … ] }]`) around `bottom`. */
export function nested(levels: number, bottom: unknown): unknown {
  let value = bottom;
  for (let i = 0; i < levels; i++) value = i % 2 === 0 ? [value] : { inner: value };
  return value;
}

/** The innermost value of a {@link nested} value of `levels` levels. */
export function innermost(value: unknown, levels: number): unknown {
  let current = value;
  for (let i = levels - 1; i >= 0; i--) {
    current = i % 2 === 0 ? (current as unknown[])[0] : (current as { inner: unknown }).inner;
  }
  return current;
}
