/**
 * `Same<A, B>`, the compile-time tie between a response schema and its
 * contract type: it holds for one shape written two ways, and `deno check`
 * fails (an unused `@ts-expect-error`) the day it stops telling shapes
 * apart.
 */

import type { Same } from "../../src/same.ts";

Deno.test("Same<> holds for one shape and refuses a field more, less, optional or nullable", () => {
  true satisfies Same<{ a: number; b?: string }, { a: number; b?: string | undefined }>;
  // @ts-expect-error a field more
  true satisfies Same<{ a: number }, { a: number; b: string }>;
  // @ts-expect-error optional on one side only
  true satisfies Same<{ a?: number }, { a: number }>;
  // @ts-expect-error null allowed on one side only
  true satisfies Same<{ a: number | null }, { a: number }>;
  // @ts-expect-error another literal
  true satisfies Same<{ ok: true }, { ok: boolean }>;
});
