/**
 * Who may reach the board: the `cors` origins its API answers, and the
 * `allowedHosts` names it answers to.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { isHostEntry } from "../auth/allowed_hosts.ts";
import { closedObject, mustShowing, orNull } from "../config_fields.ts";

const corsWords = mustShowing(
  '{ origin: "https://host" } or { origin: ["https://a", "https://b"] }',
);
const ORIGIN = /^https?:\/\/[^/\s]+$/;

const Origin = z.string({ error: corsWords }).refine(
  (origin) => origin !== "*" && ORIGIN.test(origin),
  { error: corsWords },
);

/** The `cors` option: one origin or a non-empty list, never `*`; null when absent. */
export const CorsSchema = orNull(closedObject(
  { origin: z.union([Origin, z.array(Origin).min(1, { error: corsWords })], { error: corsWords }) },
  corsWords,
  mustShowing("absent"),
));

const hostsAllowed = 'a non-empty array of host names or addresses (["board.example.com", ' +
  '".example.com", "10.0.0.5", "[::1]"], each with an optional ":port")';

/**
 * The `allowedHosts` option, lowercased; null when absent. A bad entry is
 * refused by the option's name, shown alone.
 */
export const AllowedHostsSchema = orNull(
  z.array(z.unknown(), { error: mustShowing(hostsAllowed) })
    .min(1, { error: mustShowing(hostsAllowed) })
    .superRefine((hosts, ctx) => {
      const bad = hosts.findIndex((host) => typeof host !== "string" || !isHostEntry(host));
      if (bad < 0) return;
      const why = "no scheme, path or wildcard; IPv6 in brackets";
      ctx.addIssue({
        code: "custom",
        input: hosts[bad],
        message: mustShowing(hostsAllowed, { why })({ input: hosts[bad] }),
      });
    })
    .transform((hosts) => (hosts as string[]).map((host) => host.toLowerCase())),
);
