/**
 * Schedules: the list with next run and last-run status, and the actions
 * (pause, resume, trigger now, update, delete). A schedule's data is shown
 * only to a user allowed `payload.read` on the schedule.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { SessionEnv } from "../auth/session.ts";
import type { UserEnv } from "../auth/user.ts";
import { invalidParam } from "../errors.ts";
import { scheduleNotFound } from "../source/refusals.ts";
import { actingUser } from "../auth/user.ts";
import { parseSchedulePatch } from "../source/schedule_patch.ts";
import {
  type BoardRun,
  SCHEDULE_RUNS_KEPT,
  type ScheduleActionResponse,
  type ScheduleRecord,
  type ScheduleView,
} from "../contract/schedules.ts";
import { bodyOf, jsonBody } from "./schema/body.ts";
import type { ApiDeps } from "./deps.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { IdempotencyHeaders, integerParam } from "./schema/params.ts";
import { deepJson, deepJsonText, jsonAnswer } from "../http/deep_json.ts";
import { mayReadPayloads, withoutScheduleData } from "../auth/payload_access.ts";
import { BoardRuns, type BoardRunsOf } from "../schedules/board_runs.ts";
import { ScheduleTexts } from "../schedules/texts.ts";
import { sameItems } from "../same_items.ts";
import { ScheduleTimings } from "../schedules/timings.ts";
import {
  ScheduleActionSchema,
  ScheduleRemoveSchema,
  ScheduleRunsSchema,
  ScheduleSchema,
  TriggerSchema,
} from "./schema/queues.ts";

const tags = ["schedules"];

const NamePath = z.object({ name: z.string().openapi({ description: "A schedule's name" }) });

const listRuns = apiRoute({
  method: "get",
  path: "/schedules/{name}/runs",
  tags,
  summary: "Every kept run of a schedule, the board's and the scheduler's, with its outcome",
  request: {
    params: NamePath,
    query: z.object({
      limit: integerParam({ fallback: 20, min: 1, max: SCHEDULE_RUNS_KEPT }),
      offset: integerParam({ fallback: 0, max: SCHEDULE_RUNS_KEPT }),
    }),
  },
  ok: ScheduleRunsSchema,
  errors: ["SCHEDULE_NOT_FOUND"],
});

const listSchedules = apiRoute({
  method: "get",
  path: "/schedules",
  tags,
  summary: "Every schedule with its next run and last-run status",
  ok: z.array(ScheduleSchema),
});

/** A schedule action without a body: pause, resume. */
function scheduleAction(action: "pause" | "resume", summary: string) {
  return apiRoute({
    method: "post",
    path: `/schedules/{name}/${action}`,
    audit: { action: `schedule.${action}`, target: "{name}" },
    tags,
    summary,
    request: { params: NamePath, body: jsonBody(bodyOf({})) },
    ok: ScheduleActionSchema,
    errors: ["SCHEDULE_NOT_FOUND"],
  });
}

const pause = scheduleAction("pause", "Pause a schedule (no next run)");
const resume = scheduleAction("resume", "Resume a paused schedule");

const trigger = apiRoute({
  method: "post",
  path: "/schedules/{name}/trigger",
  audit: { action: "schedule.trigger", target: "{name}" },
  tags,
  summary: "Dispatch the schedule's job now",
  request: {
    params: NamePath,
    headers: IdempotencyHeaders,
    body: jsonBody(bodyOf({})),
  },
  ok: TriggerSchema,
  errors: ["SCHEDULE_NOT_FOUND", "VERSION_UNKNOWN"],
});

const update = apiRoute({
  method: "put",
  path: "/schedules/{name}",
  audit: { action: "schedule.update", target: "{name}" },
  tags,
  summary: "Change a schedule's timing, data or policies",
  request: {
    params: NamePath,
    body: jsonBody(
      bodyOf({
        cron: z.string().optional(),
        every: z.union([z.number(), z.string()]).optional().openapi({
          description: 'ms, or a duration like "30s", "5m"; at least 1 s',
        }),
        timezone: z.string().nullable().optional().openapi({
          description: "An IANA time zone for cron; null removes it",
        }),
        data: z.unknown().optional(),
        onMissed: z.string().optional().openapi({
          description: "skip, catch-up or catch-up-limit:N",
        }),
        overlap: z.boolean().optional(),
      }, { required: true }),
      { required: true },
    ),
  },
  ok: ScheduleActionSchema,
  errors: ["SCHEDULE_NOT_FOUND"],
});

const remove = apiRoute({
  method: "delete",
  path: "/schedules/{name}",
  audit: { action: "schedule.remove", target: "{name}" },
  tags,
  summary: "Delete a schedule",
  request: { params: NamePath },
  ok: ScheduleRemoveSchema,
  errors: ["SCHEDULE_NOT_FOUND"],
});

/**
 * What data sent back from the editor may overwrite: the board showed it
 * formatted and redacted, so with a data formatter (a reshaped value has no
 * way back) it is refused, as an edited retry is; with redaction the
 * stored value is kept under every masked key (the keys returned).
 */
function writeBackMasks(options: ApiDeps["options"]): readonly string[] {
  if (options.formatters.data !== undefined) {
    throw invalidParam(
      "data",
      "this board reshapes data for display (formatters.data), so data sent back would " +
        "overwrite the stored value with the shown one: leave data out to keep it",
    );
  }
  return options.redact;
}

/** What the board's runs of `schedule` are asked by. */
function runsAsked({ name, config }: ScheduleRecord): BoardRunsOf {
  return { name, task: config.task };
}

/** Whether two lists name the same schedules of the same tasks, in the same order. */
function sameSchedules(a: readonly BoardRunsOf[], b: readonly BoardRunsOf[]): boolean {
  return sameItems(a, b, (x, y) => x.name === y.name && x.task === y.task);
}

/** Routes under `/schedules`. */
export function scheduleRoutes({ source, store, present, options, clock, history }: ApiDeps) {
  // Worded once per change of a schedule's timing or next run, not per request.
  const timings = new ScheduleTimings();
  /** A schedule as shown: its timing in words, its runs ahead and the board's, its data or not. */
  const viewOf = (
    schedule: ScheduleRecord,
    boardRuns: readonly BoardRun[],
    withData: boolean,
  ): ScheduleView => ({
    // Data a user may not read is left out before it is presented: nothing shown depends on it.
    ...present.schedule(withData ? schedule : withoutScheduleData(schedule)),
    ...timings.of(schedule.config, schedule.nextRun),
    boardRuns: [...boardRuns],
  });
  // Written once per change of a schedule or of its runs, not per request.
  const texts = new ScheduleTexts((schedule, boardRuns, withData) =>
    deepJsonText(viewOf(schedule, boardRuns, withData))
  );
  /** The runs the board dispatched, kept in its store. */
  const board = new BoardRuns(source, store);
  const runsOf = (schedules: readonly BoardRunsOf[]) => board.list(schedules);
  const boardRuns = (schedules: readonly ScheduleRecord[]) => runsOf(schedules.map(runsAsked));
  /** The schedules the last list showed: their runs are read beside the next list's schedules. */
  let listed: BoardRunsOf[] = [];
  /** The source's answer `listed` was made from. */
  let listedFrom: readonly ScheduleRecord[] = [];
  /** Whether `c`'s user may see `schedule`'s data: with `payload.read` on it. */
  const mayReadData = (c: Context<SessionEnv & UserEnv>, schedule: ScheduleRecord) =>
    mayReadPayloads(c, options, schedule.name);
  const changed = async (
    c: Context<SessionEnv & UserEnv>,
    schedule: ScheduleRecord,
  ): Promise<ScheduleActionResponse> => ({
    ok: true,
    schedule: viewOf(
      schedule,
      (await boardRuns([schedule])).get(schedule.name) ?? [],
      await mayReadData(c, schedule),
    ),
  });
  return apiRouter<SessionEnv & UserEnv>()
    .openapi(listSchedules, async (c) => {
      // One round trip, not two: the runs of the schedules listed last, read beside the
      // schedules; read again when the list changed.
      const asked = listed;
      const [schedules, guessed] = await Promise.all([source.listSchedules(), runsOf(asked)]);
      // The source answers an unchanged list as the same array: asked by the same list then.
      if (schedules !== listedFrom) listed = schedules.map(runsAsked);
      listedFrom = schedules;
      const runs = sameSchedules(listed, asked) ? guessed : await runsOf(listed);
      // taskora keeps only the scheduler's last run: a board that sees a new one keeps it.
      await board.noteScheduled(schedules)
        .catch((failure) =>
          console.error("queue-board: cannot note the scheduler's runs", failure)
        );
      const withData = await Promise.all(schedules.map((schedule) => mayReadData(c, schedule)));
      return jsonAnswer(c, texts.list(schedules, runs, withData));
    })
    .openapi(listRuns, async (c) => {
      const { name } = c.req.valid("param");
      const { offset, limit } = c.req.valid("query");
      const schedule = (await source.listSchedules()).find((listed) => listed.name === name);
      if (schedule === undefined) throw scheduleNotFound(name);
      const task = schedule.config.task;
      // An archived outcome is the history's: read only for a user who may read it.
      const archived = history !== null &&
          (options.auth === null || await options.can(actingUser(c), "history.read", task))
        ? async (id: string) => (await history.summary(task, id))?.state ?? null
        : null;
      return c.json(await board.page({ name, task }, offset, limit, archived), 200);
    })
    .openapi(pause, async (c) => {
      const { name } = c.req.valid("param");
      return deepJson(c, await changed(c, await source.updateSchedule(name, { paused: true })));
    })
    .openapi(resume, async (c) => {
      const { name } = c.req.valid("param");
      return deepJson(c, await changed(c, await source.updateSchedule(name, { paused: false })));
    })
    .openapi(trigger, async (c) => {
      const key = c.req.valid("header")["idempotency-key"];
      const { name } = c.req.valid("param");
      const triggered = await source.triggerSchedule(name, key);
      // taskora keeps only a schedule's last run: the board keeps those it dispatched. The job
      // exists either way: an error answer now would have the operator dispatch a second one.
      if (triggered.created) {
        await board.note(name, triggered.jobId, clock())
          .catch((failure) => console.error("queue-board: cannot note the run", name, failure));
      }
      return c.json({ ok: true as const, ...triggered }, 200);
    })
    .openapi(update, async (c) => {
      const patch = parseSchedulePatch(c.req.valid("json"));
      if (patch.data !== undefined) patch.maskedKeys = writeBackMasks(options);
      const updated = await source.updateSchedule(c.req.valid("param").name, patch);
      return deepJson(c, await changed(c, updated));
    })
    .openapi(remove, async (c) => {
      const { name } = c.req.valid("param");
      await source.removeSchedule(name);
      await board.forget(name);
      return c.json({ ok: true as const, name }, 200);
    });
}
