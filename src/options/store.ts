/**
 * The `store` option: a `BoardStore` of one's own (or one of the package's,
 * `createRedisBoardStore()`, `createMemoryBoardStore()`), checked when the
 * board is made for every member the port requires, naming those it lacks,
 * rather than failing at its first use.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { mustShowing, orNull } from "../config_fields.ts";
import { missingStoreMembers } from "../store/methods.ts";
import type { BoardStore } from "../store/types.ts";

/** The `store` option resolved: the store given, or null (the source's, or the board's own). */
export const StoreSchema = orNull(
  z.custom<BoardStore>((value) => missingStoreMembers(value).length === 0, {
    error: (issue) =>
      mustShowing("a BoardStore", {
        why: `missing ${missingStoreMembers(issue.input).join(", ")}`,
      })(issue),
  }),
);
