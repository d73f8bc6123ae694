/**
 * Dispatching a job through the App (`task.dispatch(data, options)`), as
 * the host's own code would: taskora writes it with the task's version, and
 * the board checks the data against the task's input schema first (its
 * Standard Schema, `~standard.validate`), answering the issues as a 400.
 * A collect task's dispatch adds the data to its buffer: the id answered is
 * the buffer's flush job, and a delay, priority or concurrency key (which
 * taskora ignores there) is refused.
 * With an `Idempotency-Key` the dispatch is claimed in the trigger ledger
 * under the task and the key, so a retried request makes no second job, and
 * the key sent again with other data or options is refused (422).
 *
 * @module
 */

import { BoardError } from "../errors.ts";
import type { DispatchRequest, DispatchResult } from "../contract/dispatch.ts";
import { taskNotFound } from "../source/refusals.ts";
import { triggerJobId } from "../source/trigger_id.ts";
import { findTask, type TaskoraAppLike, type TaskoraTaskLike } from "./app.ts";
import { claimedJob, type TriggerLedger } from "./trigger.ts";

/** A Standard Schema, as far as the board calls it. */
type StandardSchemaLike = NonNullable<TaskoraTaskLike["inputSchema"]>;

/** One issue of a failed validation. */
interface Issue {
  message: string;
  path?: ReadonlyArray<PropertyKey | { key: PropertyKey }>;
}

/** `a.b[0]`: where an issue is, for the message. */
function where(path: Issue["path"]): string {
  if (!path || path.length === 0) return "data";
  return path.reduce<string>((at, segment) => {
    const key = typeof segment === "object" ? segment.key : segment;
    return typeof key === "number" ? `${at}[${key}]` : `${at}.${String(key)}`;
  }, "data");
}

/** Refuses `data` the task's input schema does not accept (400, `param: "data"`). */
async function checkInput(schema: StandardSchemaLike | undefined, data: unknown): Promise<void> {
  if (!schema) return;
  const result = await schema["~standard"].validate(data) as { issues?: readonly Issue[] };
  if (!result.issues || result.issues.length === 0) return;
  const issues = result.issues.slice(0, 10).map((i) => `${where(i.path)}: ${i.message}`);
  throw new BoardError(
    "INVALID_PARAM",
    `data does not match the task's input schema: ${issues.join("; ")}`,
    { param: "data" },
  );
}

/**
 * The SHA-256 (hex) of a dispatch's data and options, as its JSON text: the
 * same request sent again (keys in the same order) has the same one.
 */
async function requestFingerprint(request: DispatchRequest): Promise<string> {
  const { data, delay, priority, concurrencyKey } = request;
  const text = JSON.stringify([data, delay ?? null, priority ?? null, concurrencyKey ?? null]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Refuses what taskora ignores for a collect task (400, naming the first option given). */
function checkCollectOptions(request: DispatchRequest): void {
  const option = (["delay", "priority", "concurrencyKey"] as const)
    .find((name) => request[name] !== undefined);
  if (option === undefined) return;
  throw new BoardError(
    "INVALID_PARAM",
    `${option} does not apply to a collect task: taskora adds the data to the buffer of its ` +
      "collect key, and the buffer's flush job runs when the buffer flushes",
    { param: option },
  );
}

/** Dispatches `request` as a job of `task` through the App; see the module doc. */
export async function dispatchThroughApp(
  app: TaskoraAppLike,
  ledger: TriggerLedger,
  task: string,
  request: DispatchRequest,
  idempotencyKey?: string,
): Promise<DispatchResult> {
  const definition = findTask(app, task);
  if (!definition) throw taskNotFound(task);
  const collect = Boolean(definition.config.collect);
  if (collect) checkCollectOptions(request);
  await checkInput(definition.inputSchema, request.data);
  const token = idempotencyKey === undefined
    ? null
    : await triggerJobId(`dispatch\0${task}`, idempotencyKey);
  const fingerprint = token === null ? "" : await requestFingerprint(request);
  if (token !== null) {
    const existing = await ledger.claim(token, fingerprint);
    if (existing !== null) {
      return {
        jobId: claimedJob(existing, fingerprint, `a dispatch of "${task}"`),
        created: false,
        collect,
      };
    }
  }
  const { data, delay, priority, concurrencyKey } = request;
  let jobId: string;
  try {
    const handle = definition.dispatch(data, {
      ...(delay !== undefined && { delay }),
      ...(priority !== undefined && { priority }),
      ...(concurrencyKey !== undefined && { concurrencyKey }),
    });
    jobId = String(await handle);
  } catch (error) {
    if (token !== null) await ledger.release(token).catch(() => {});
    throw new BoardError(
      "INVALID_STATE",
      `taskora refused the dispatch: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  if (token !== null) await ledger.record(token, { jobId, fingerprint });
  return { jobId, created: true, collect };
}

/** A source's `dispatchJob`: a dispatch through `app`, idempotency keys claimed in `ledger`. */
export type AppDispatch = (
  task: string,
  request: DispatchRequest,
  idempotencyKey?: string,
) => Promise<DispatchResult>;

/** The `dispatchJob` of a source over `app`. */
export function appDispatch(app: TaskoraAppLike, ledger: TriggerLedger): AppDispatch {
  return (task, request, idempotencyKey) =>
    dispatchThroughApp(app, ledger, task, request, idempotencyKey);
}
