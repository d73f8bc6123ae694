/**
 * The `auth` option: a hook function, or session login with its login
 * throttling. A session's secret is never repeated in a refusal.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import type { Same } from "../same.ts";
import {
  closedObject,
  duration,
  functionOf,
  mustShowing,
  orNull,
  picked,
  wholeNumber,
} from "../config_fields.ts";
import type { AuthHook, LoginThrottleOptions, SessionAuthOptions } from "../options.ts";

const DAY_MS = 86_400_000;

const throttleWords = "false or { attempts?, addressAttempts?, delay?, maxDelay?, maxEntries? }";

function count(min: number, max: number, fallback: number) {
  return wholeNumber(min, max, mustShowing(`a whole number from ${min} to ${max}`)).default(
    fallback,
  );
}

function delay(fallback: number) {
  return duration(1, DAY_MS, mustShowing('a duration from 1 ms to a day, like "1s", "15m" or ms'))
    .default(fallback);
}

const LoginThrottleSchema = closedObject(
  {
    attempts: count(1, 1000, 5),
    addressAttempts: count(1, 100_000, 20),
    delay: delay(1000),
    maxDelay: delay(15 * 60_000),
    maxEntries: count(100, 1_000_000, 10_000),
  } satisfies Record<keyof LoginThrottleOptions, z.ZodType>,
  mustShowing(throttleWords),
  mustShowing("absent"),
).transform(({ delay, maxDelay, attempts, addressAttempts, maxEntries }, ctx) => {
  if (maxDelay < delay) {
    ctx.issues.push({
      code: "custom",
      path: ["maxDelay"],
      input: maxDelay,
      message: mustShowing("at least the delay")({ input: maxDelay }),
    });
    return z.NEVER;
  }
  return { attempts, addressAttempts, delayMs: delay, maxDelayMs: maxDelay, maxEntries };
});

/** Login throttling after validation. */
export type ResolvedLoginThrottle = z.output<typeof LoginThrottleSchema>;

/** A duration above 0 ms: how long a session lasts. */
function lifetime(allowed: string) {
  return duration(1, Number.MAX_SAFE_INTEGER, mustShowing(allowed));
}

const SESSION_FIELDS =
  "cookiePassword, authenticate, cookieName, sessionTtl, maxSessionAge, loginThrottle";
const cookieNameWords = mustShowing("1 to 64 letters, digits, _ or -");

const SessionAuthSchema = closedObject(
  {
    cookiePassword: z.string({ error: mustShowing("a string of at least 32 characters") }).min(
      32,
      {
        error: mustShowing("a string of at least 32 characters", {
          shown: () => "a shorter string",
        }),
      },
    ),
    authenticate: functionOf<SessionAuthOptions["authenticate"]>(mustShowing("a function")),
    cookieName: z.string({ error: cookieNameWords }).regex(/^[A-Za-z0-9_\-]{1,64}$/, {
      error: cookieNameWords,
    }).default("queue_board_session"),
    sessionTtl: picked((ttl: string | number | false | undefined) =>
      ttl === false || ttl === undefined
        ? z.any().transform(() => null)
        : lifetime('false or a duration like "30s", "5m", "2h", "1d" or a number of ms')
    ),
    maxSessionAge: orNull(lifetime('a duration like "12h", "7d" or a number of ms')),
    loginThrottle: picked((throttle: LoginThrottleOptions | false | undefined) =>
      throttle === false ? z.literal(false).transform(() => null) : LoginThrottleSchema
    ).default(LoginThrottleSchema.parse({})),
  } satisfies Record<keyof SessionAuthOptions, z.ZodType>,
  mustShowing(
    "a hook function or { cookiePassword, authenticate, cookieName?, sessionTtl?, maxSessionAge?, loginThrottle? }",
  ),
  mustShowing(`absent: session auth takes ${SESSION_FIELDS}`),
).transform(({ sessionTtl, maxSessionAge, ...session }) => ({
  ...session,
  sessionTtlMs: sessionTtl,
  maxSessionAgeMs: maxSessionAge,
}));

/** Session login after validation. */
export type ResolvedSessionAuth = z.output<typeof SessionAuthSchema>;

const hookWithSessionFields = mustShowing(
  "either a hook function or a session object, not both",
  { shown: () => "a function with session fields" },
);

/**
 * The `auth` option: a hook function, or session login resolved (durations
 * in ms, defaults filled in); null when absent.
 */
export const AuthSchema = picked<
  SessionAuthOptions | AuthHook | null | undefined,
  ResolvedSessionAuth | AuthHook | null
>((auth) => {
  if (auth === undefined || auth === null) return z.any().transform(() => null);
  if (typeof auth !== "function") return SessionAuthSchema;
  return functionOf<AuthHook>(hookWithSessionFields).refine(
    (hook) => !("cookiePassword" in hook || "authenticate" in hook),
    { error: hookWithSessionFields },
  );
});
true satisfies Same<z.input<typeof SessionAuthSchema>, SessionAuthOptions>;
