/**
 * The compile-time tie between a response schema and the contract type the
 * UI reads: `true satisfies Same<z.output<typeof Schema>, ContractType>`
 * fails `deno check` when either gains, loses or changes a field the other
 * does not.
 *
 * Why not `z.infer` in `src/contract/`: the UI imports the contract, and
 * zod would then be one careless value import away from its bundle; the
 * contract also stays plain, documented TypeScript a reader takes in at
 * once.
 *
 * @module
 */

/** `true` when each of `A` and `B` is assignable to the other, else `false`. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
