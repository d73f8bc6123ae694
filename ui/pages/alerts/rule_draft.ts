/**
 * The rule editor's form as data: a draft of text fields made from a rule,
 * turned into the rule's JSON (the file format, `AlertRuleFile`) with the
 * mistakes the browser can see named by field, and the API's 400 placed on
 * the field its `param` names.
 *
 * @module
 */
import { type AlertRuleFile, KIND_THRESHOLDS, STORE_KINDS } from "../../../src/contract/alerts.ts";
import { ApiError } from "../../lib/api.ts";
import { durationText } from "./threshold.ts";
import type { AlertKind, AlertRuleView } from "./types.ts";

/** The form's fields, as typed. */
export interface RuleDraft {
  name: string;
  kind: AlertKind;
  /** Comma-separated task names; empty: every task. */
  tasks: string;
  threshold: string;
  window: string;
  minFinished: string;
  for: string;
  repeat: string;
  sinks: string[];
}

/** A message per field (`form` for the whole form). */
export type DraftErrors = Partial<Record<keyof RuleDraft | "form", string>>;

/** The draft of a new rule, or of `rule` to edit. */
export function draftOf(rule?: AlertRuleView): RuleDraft {
  if (!rule) {
    return {
      name: "",
      kind: "failed",
      tasks: "",
      threshold: "",
      window: "15m",
      minFinished: "20",
      for: "0s",
      repeat: "1h",
      sinks: [],
    };
  }
  return {
    name: rule.name,
    kind: rule.kind,
    tasks: rule.tasks?.join(", ") ?? "",
    threshold: rule.unit === "none"
      ? ""
      : rule.unit === "duration"
      ? durationText(rule.threshold)
      : String(rule.threshold),
    window: rule.windowMs === null ? "15m" : durationText(rule.windowMs),
    minFinished: String(rule.minFinished ?? 20),
    for: durationText(rule.forMs),
    repeat: durationText(rule.repeatMs),
    sinks: [...rule.sinks],
  };
}

const DURATION = /^\d+(ms|s|m|h|d)?$/;

/** A duration as the file takes it: `"15m"`, or digits alone as ms. */
const durationValue = (text: string): string | number => /^\d+$/.test(text) ? Number(text) : text;

/** The rule's JSON, or what is wrong with the draft. */
export function ruleFileOf(draft: RuleDraft): { rule: AlertRuleFile } | { errors: DraftErrors } {
  const errors: DraftErrors = {};
  const name = draft.name.trim();
  if (!name) errors.name = "Give the rule a name.";
  const { unit, fallback } = KIND_THRESHOLDS[draft.kind];
  const threshold = draft.threshold.trim();
  if (unit !== "none") {
    if (!threshold && fallback === null) errors.threshold = "This kind needs a threshold.";
    else if (threshold && unit === "duration" && !DURATION.test(threshold)) {
      errors.threshold = "A duration: 30s, 5m, 2h, 1d, or milliseconds.";
    } else if (threshold && unit !== "duration" && !Number.isFinite(Number(threshold))) {
      errors.threshold = unit === "percent" ? "A percentage from 0 to 100." : "A number.";
    }
  }
  for (const field of ["for", "repeat"] as const) {
    if (!DURATION.test(draft[field].trim())) {
      errors[field] = "A duration: 30s, 5m, 2h, 1d, or milliseconds.";
    }
  }
  if (draft.kind === "failureRate") {
    if (!DURATION.test(draft.window.trim())) errors.window = "A duration, e.g. 15m.";
    if (!/^\d+$/.test(draft.minFinished.trim())) errors.minFinished = "A whole number.";
  }
  if (draft.sinks.length === 0) errors.sinks = "Pick at least one sink to tell.";
  if (Object.keys(errors).length > 0) return { errors };

  const tasks = draft.tasks.split(",").map((t) => t.trim()).filter(Boolean);
  const rule: AlertRuleFile = {
    name,
    kind: draft.kind,
    sinks: draft.sinks,
    for: durationValue(draft.for.trim()),
    repeat: durationValue(draft.repeat.trim()),
  };
  if (tasks.length > 0 && !STORE_KINDS.includes(draft.kind)) rule.tasks = tasks;
  if (threshold && unit !== "none") {
    rule.threshold = unit === "duration" ? durationValue(threshold) : Number(threshold);
  }
  if (draft.kind === "failureRate") {
    rule.window = durationValue(draft.window.trim());
    rule.minFinished = Number(draft.minFinished.trim());
  }
  return { rule };
}

/** The API's refusal on the field its `param` names (`threshold`, `sinks[0]`), else the form. */
export function errorsFromApi(error: unknown): DraftErrors {
  const message = error instanceof Error ? error.message : String(error);
  const param = error instanceof ApiError ? error.param : undefined;
  // `rules[0].threshold` (the file's path) and `threshold` name the same field.
  const field = param?.replace(/^rules\[\d+\]\./, "").replace(/\[\d+\]$/, "");
  const fields: readonly string[] = Object.keys(draftOf());
  return field && fields.includes(field) ? { [field]: message } as DraftErrors : { form: message };
}
