/**
 * The `history` option: whether the board records the job history, and
 * where (see `docs/history.md`). Off by default (the recorder keeps the
 * change feed running on the leader, watched or not, which an idle board
 * should not pay unasked); `true` records in the board's own Redis under its
 * root; `{ postgres: url }` keeps it in PostgreSQL.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { closedObject, duration, mustShowing, picked, wholeNumber } from "../config_fields.ts";
import { DEFAULT_HISTORY_LIMITS } from "../history/store.ts";
import type { BoardOptions } from "../options.ts";

const DAY_MS = 86_400_000;

/** `history: true`: the board's Redis, no payloads, the default limits. */
const HISTORY_DEFAULTS = {
  postgres: null,
  payloads: false,
  limits: {
    retentionMs: DEFAULT_HISTORY_LIMITS.retentionMs,
    maxSummaries: undefined,
    maxPerTask: undefined,
  },
};

const historyWords = "true, false or { postgres?, payloads?, maxAge?, maxSummaries?, maxPerTask? }";
const countWords = mustShowing("a whole number from 1 to 100,000,000");

/** The `history` option resolved: null when off, else its store, payloads and limits. */
export const HistorySchema = picked((history: BoardOptions["history"]) =>
  history === undefined || history === false
    ? z.union([z.undefined(), z.literal(false)]).transform(() => null)
    : history === true
    ? z.literal(true).transform(() => HISTORY_DEFAULTS)
    : closedObject(
      {
        postgres: z.string({ error: mustShowing("a postgres:// or postgresql:// URL") })
          .regex(/^postgres(ql)?:\/\//, {
            error: mustShowing("a postgres:// or postgresql:// URL"),
          })
          .optional().transform((url) => url ?? null),
        payloads: z.boolean({ error: mustShowing("a boolean") }).default(false),
        maxAge: duration(
          60_000,
          800 * DAY_MS,
          mustShowing('a duration from a minute to 800 days, like "7d", or ms'),
        ).default(DEFAULT_HISTORY_LIMITS.retentionMs),
        maxSummaries: wholeNumber(1, 100_000_000, countWords).optional(),
        maxPerTask: wholeNumber(1, 100_000_000, countWords).optional(),
      } satisfies Record<keyof Exclude<BoardOptions["history"], boolean | undefined>, z.ZodType>,
      mustShowing(historyWords),
      mustShowing("absent"),
    ).transform(({ postgres, payloads, maxAge, maxSummaries, maxPerTask }) => ({
      postgres,
      payloads,
      limits: { retentionMs: maxAge, maxSummaries, maxPerTask },
    }))
);
