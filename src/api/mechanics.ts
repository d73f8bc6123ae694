/**
 * `GET /tasks/{task}/mechanics?cursor=`: one bounded step of a scan for the
 * task's mechanism keys (see `contract/mechanics.ts`). Each step holds a
 * scan slot while it runs, as a job search does; the UI starts the first
 * one when the user asks and stops asking when the user stops. The keys
 * come from the jobs' data: without `payload.read` on the task they read
 * as hidden, as the diagnosis shows them.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { HIDDEN_KEY } from "../contract/diagnosis_reasons.ts";
import {
  type FoundMechanism,
  MECHANICS_CURSOR,
  type MechanicsResponse,
  type MechanismEntry,
} from "../contract/mechanics.ts";
import type { SessionEnv } from "../auth/session.ts";
import type { UserEnv } from "../auth/user.ts";
import type { ApiDeps } from "./deps.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { TaskPath, textParam } from "./schema/params.ts";
import { mayReadPayloads } from "../auth/payload_access.ts";
import { scanHolder } from "../scans/holder.ts";
import { MechanicsSchema } from "./schema/mechanics.ts";

const cursorQuery = textParam(32, "Where the scan goes on (a step's `cursor`); absent: the start")
  .refine((raw) => raw === undefined || MECHANICS_CURSOR.test(raw), {
    error: "must be a cursor a step answered (`<master>-<SCAN cursor>`)",
  });

const getMechanics = apiRoute({
  method: "get",
  path: "/tasks/{task}/mechanics",
  tags: ["tasks"],
  summary: "One bounded step of a scan for the task's concurrency, throttle, debounce, dedup " +
    "and collect keys",
  request: { params: TaskPath, query: z.object({ cursor: cursorQuery }) },
  ok: MechanicsSchema,
  errors: ["INVALID_PARAM", "INVALID_STATE", "TASK_NOT_FOUND"],
});

/** Hex characters of an entry's id: 96 bits of its HMAC. */
const ID_LENGTH = 24;

/**
 * Each entry with its `id`: an HMAC of its kind and key under `idKey`, so
 * the same key has the same id on every step (the UI counts a key SCAN
 * returned twice once) and a hidden key cannot be guessed from it.
 */
async function withIds(
  idKey: CryptoKey,
  entries: readonly MechanismEntry[],
): Promise<FoundMechanism[]> {
  const encoder = new TextEncoder();
  return await Promise.all(entries.map(async (entry) => {
    const mac = await crypto.subtle.sign(
      "HMAC",
      idKey,
      encoder.encode(`${entry.kind}:${entry.key}`),
    );
    const hex = Array.from(new Uint8Array(mac), (byte) => byte.toString(16).padStart(2, "0"));
    return { ...entry, id: hex.join("").slice(0, ID_LENGTH) };
  }));
}

/**
 * The key of the entries' ids: derived from the session secret, so that the
 * boards sharing it (replicas behind a balancer, each answering some steps
 * of one scan) give a key the same id; drawn for this board without one.
 */
async function entryIdKey(secret: string | null): Promise<CryptoKey> {
  const usage: KeyUsage[] = ["sign"];
  const hmac: HmacImportParams = { name: "HMAC", hash: "SHA-256" };
  if (secret === null) return await crypto.subtle.generateKey(hmac, false, usage) as CryptoKey;
  // A key of its own, not the cookies': an id is no signature of anything else.
  const secretKey = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    hmac,
    false,
    usage,
  );
  const derived = await crypto.subtle.sign(
    "HMAC",
    secretKey,
    new TextEncoder().encode("queue-board mechanics entry ids"),
  );
  return await crypto.subtle.importKey("raw", derived, hmac, false, usage);
}

/** Route `/tasks/{task}/mechanics`. */
export function mechanicsRoutes({ source, scans, options, clock }: ApiDeps) {
  const idKey = entryIdKey(
    options.auth && "cookiePassword" in options.auth ? options.auth.cookiePassword : null,
  );
  return apiRouter<SessionEnv & UserEnv>().openapi(getMechanics, async (c) => {
    const { task } = c.req.valid("param");
    const { cursor } = c.req.valid("query");
    const readAt = clock();
    if (!source.scanMechanics) {
      await source.getTaskStorage(task); // TASK_NOT_FOUND when unknown
      const reason = "this TaskSource keeps no mechanism keys to scan; the board reads them " +
        "from Redis, with the App's Redis adapter or a redis:// URL";
      return c.json({ task, readAt, known: false as const, reason }, 200);
    }
    const release = await scans.take(await scanHolder(c, options));
    try {
      const [step, showKeys] = await Promise.all([
        source.scanMechanics(task, cursor ?? null, c.req.raw.signal),
        mayReadPayloads(c, options, task),
      ]);
      const found = await withIds(await idKey, step.entries);
      // The keys come from the jobs' data, as the diagnosis hides them.
      const entries = showKeys ? found : found.map((entry) => ({ ...entry, key: HIDDEN_KEY }));
      const answer: MechanicsResponse = { task, readAt, known: true, ...step, entries };
      return c.json(answer, 200);
    } finally {
      release();
    }
  });
}
