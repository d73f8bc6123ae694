/**
 * A facade assembled from its concerns: each part (tasks and counts, jobs,
 * job actions, schedules, ...) is a small class of its own file holding the
 * methods of its resource, and the adapter's facade is one object with the
 * methods of all of them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { assemble } from "./assemble.ts";
 *
 * class Greeting {
 *   #word = "hello";
 *   greet(name: string) {
 *     return `${this.#word} ${name}`;
 *   }
 * }
 * class Farewell {
 *   leave() {
 *     return "bye";
 *   }
 * }
 * const both = assemble(new Greeting(), new Farewell());
 * assert.equal(both.greet("you"), "hello you");
 * assert.equal(both.leave(), "bye");
 * ```
 *
 * @module
 */

/** `A | B` as `A & B`. */
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I
  : never;

/** The public methods of a part. */
type MethodsOf<P> = {
  [K in keyof P as P[K] extends (...args: never[]) => unknown ? K : never]: P[K];
};

/** The facade {@link assemble} makes of `P`'s parts: every public method of each. */
export type Assembled<P extends object[]> = Intersection<MethodsOf<P[number]>>;

/**
 * One object with every public method of every part, each bound to its part
 * (so its private state stays its own); a method two parts both have is
 * refused, so that no part hides another's.
 */
export function assemble<P extends object[]>(...parts: P): Assembled<P> {
  const facade: Record<string, unknown> = {};
  for (const part of parts) {
    const prototype = Object.getPrototypeOf(part);
    for (const name of Object.getOwnPropertyNames(prototype)) {
      if (name === "constructor") continue;
      const method = prototype[name];
      if (typeof method !== "function") continue;
      if (Object.hasOwn(facade, name)) {
        throw new TypeError(`queue-board: two parts of a facade have ${name}()`);
      }
      facade[name] = method.bind(part);
    }
  }
  return facade as Assembled<P>;
}
