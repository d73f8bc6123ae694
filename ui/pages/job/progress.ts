/**
 * A job's progress, in the two shapes taskora allows: a number (a
 * percentage, drawn as a bar) or an object the job reported (shown as a
 * JSON tree on the job page, as one line of `key value` pairs in tables).
 *
 * @module
 */
import { html } from "../../lib/html.ts";
import type { Progress } from "./types.ts";

/** Clamps a reported percentage into 0–100 (workers may overshoot). */
function percent(value: number): number {
  return Math.min(100, Math.max(0, value));
}

/** A native progress bar with its percentage beside it. */
export function ProgressBar({ value }: { value: number }) {
  const pct = percent(value);
  const label = `${Math.round(pct)}%`;
  return html`
    <span class="progress">
      <progress class="progress-bar" max="100" value=${pct} aria-label="Progress"></progress>
      <span class="progress-value">${label}</span>
    </span>
  `;
}

/** A value as one short line of text: objects as `key value · key value`, strings unquoted. */
function summarize(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || typeof value !== "object") return String(value);
  return Object.entries(value).map(([key, inner]) =>
    `${key} ${inner !== null && typeof inner === "object" ? "…" : summarize(inner)}`
  ).join(" · ");
}

/** Progress in a table cell: a bar for a number, one line for an object (full JSON on hover). */
export function ProgressCell({ progress }: { progress: Progress }) {
  if (typeof progress === "number") return html`<${ProgressBar} value=${progress} />`;
  if (progress === null) return html`<span class="muted">—</span>`;
  return html`<span class="progress-text" title=${JSON.stringify(progress, null, 2)}>${
    summarize(progress)
  }</span>`;
}
