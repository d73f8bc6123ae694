/**
 * The `mcp` option: whether agents get tools that act, and the agents'
 * bearer tokens (by their SHA-256, so a refusal never repeats a token).
 * Whether tokens may be given at all depends on `auth`: `options.ts` asks.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { closedObject, mustShowing, picked } from "../config_fields.ts";
import type { BoardUser, McpOptions } from "../options.ts";

const DIGEST = /^[0-9a-f]{64}$/;
const tokensWords = mustShowing("an object: token's SHA-256 (hex) -> user");

/** Agents' users by their token's digest; a bad key or user is named without the key in full. */
const TokensSchema = z.record(z.string(), z.unknown(), { error: tokensWords })
  .superRefine((tokens, ctx) => {
    for (const [digest, user] of Object.entries(tokens)) {
      if (!DIGEST.test(digest)) {
        ctx.addIssue({
          code: "custom",
          input: digest,
          message: mustShowing("keys that are SHA-256 digests (64 hex digits)", {
            shown: () => "a key",
          })({}),
        });
        return;
      }
      if (user === null || typeof user !== "object" || Array.isArray(user)) {
        ctx.addIssue({
          code: "custom",
          path: [`${digest.slice(0, 8)}…`],
          input: user,
          message: mustShowing("a user object")({ input: user }),
        });
        return;
      }
    }
  })
  .transform((tokens) => new Map(Object.entries(tokens as Record<string, BoardUser>)));

/**
 * The `mcp` option resolved (default: reading tools only; null for
 * `false`); `tokens` stays absent when not given.
 */
export const McpSchema = picked((mcp: McpOptions | false) =>
  mcp === false ? z.literal(false).transform(() => null) : closedObject(
    {
      actions: z.boolean({ error: mustShowing("a boolean") }).default(false),
      tokens: TokensSchema.optional(),
    } satisfies Record<keyof McpOptions, z.ZodType>,
    mustShowing("false or { actions?, tokens? }"),
    mustShowing("absent"),
  )
).default({ actions: false, tokens: undefined });
