/**
 * The edit form's logic, apart from its markup: a draft from a schedule's
 * config, the `PUT api/schedules/{name}` body from a draft (only what
 * changed), the fields of the data the board showed masked (the server
 * keeps their stored values), and the field an API `INVALID_PARAM` error
 * belongs to.
 *
 * @module
 */
import { REDACTED } from "../../../src/contract/masks.ts";
import { ApiError } from "../../lib/api.ts";
import type { ScheduleConfig } from "./types.ts";
import { everyAsDuration } from "./every.ts";

/** What the form edits, as the text in its fields. */
export interface ScheduleDraft {
  kind: "cron" | "every";
  cron: string;
  /** A duration (`30s`, `5m`, `7d`) or milliseconds. */
  every: string;
  timezone: string;
  /** The data as JSON text; empty for none. */
  data: string;
}

/** A field of the form, or `form` for a problem of the whole change. */
export type DraftField = "cron" | "every" | "timezone" | "data" | "form";

/** Problems to show, by field. */
export type DraftErrors = Partial<Record<DraftField, string>>;

/** The draft of a schedule as it is now. */
export function draftOf(config: ScheduleConfig): ScheduleDraft {
  return {
    kind: config.cron !== undefined ? "cron" : "every",
    cron: config.cron ?? "",
    every: config.every !== undefined ? everyAsDuration(config.every) : "",
    timezone: config.timezone ?? "",
    data: config.data === undefined ? "" : JSON.stringify(config.data, null, 2),
  };
}

/**
 * The API body for what changed between `config` and `draft`, or the
 * problems the form can tell without asking the server. An empty body
 * means nothing changed.
 */
export function patchOf(
  config: ScheduleConfig,
  draft: ScheduleDraft,
): { body: Record<string, unknown> } | { errors: DraftErrors } {
  const before = draftOf(config);
  const errors: DraftErrors = {};
  const body: Record<string, unknown> = {};

  if (draft.kind === "cron") {
    const cron = draft.cron.trim();
    const timezone = draft.timezone.trim();
    if (!cron) errors.cron = "Enter a cron expression, e.g. 0 3 * * *";
    else if (before.kind !== "cron" || cron !== before.cron) body.cron = cron;
    // Switching from an interval drops any old time zone, so send a chosen one.
    if (timezone !== before.timezone || (before.kind !== "cron" && timezone)) {
      body.timezone = timezone || null;
    }
  } else {
    const every = draft.every.trim();
    if (!every) errors.every = "Enter an interval, e.g. 30s, 5m, 2h or 1d";
    else if (before.kind !== "every" || every !== before.every) {
      body.every = /^\d+$/.test(every) ? Number(every) : every;
    }
  }

  const data = draft.data.trim();
  if (data !== before.data.trim()) {
    if (!data) {
      body.data = null;
    } else {
      try {
        body.data = JSON.parse(data);
      } catch (error) {
        errors.data = `Not valid JSON: ${(error as Error).message}`;
      }
    }
  }
  return Object.keys(errors).length ? { errors } : { body };
}

/**
 * The dot paths of the values shown as {@link REDACTED} in a schedule's
 * data (walked with a stack, never recursion): on save the server keeps
 * what is stored under them, whatever the form sends.
 */
export function maskedPaths(data: unknown): string[] {
  const paths: string[] = [];
  const walk: { value: unknown; path: string }[] = [{ value: data, path: "" }];
  while (walk.length > 0) {
    const { value, path } = walk.pop()!;
    if (value === REDACTED) paths.push(path);
    else if (value !== null && typeof value === "object") {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, inner] = entries[i];
        walk.push({ value: inner, path: path ? `${path}.${key}` : key });
      }
    }
  }
  return paths;
}

const FIELDS: readonly DraftField[] = ["cron", "every", "timezone", "data"];

/**
 * Where an API error belongs: an `INVALID_PARAM` goes next to the field its
 * `param` names (`timezone`, `cron`, …); anything else, or a parameter the
 * form has no field for, goes to the form.
 */
export function errorsFromApi(error: unknown): DraftErrors {
  const message = error instanceof Error ? error.message : String(error);
  const field = error instanceof ApiError && error.code === "INVALID_PARAM"
    ? FIELDS.find((name) => name === error.param)
    : undefined;
  return { [field ?? "form"]: message };
}
