/**
 * The answer to "may I raise this task's `since`?", in words: up to which
 * version it is safe, and how many jobs a step further would strand (a
 * worker refuses jobs older than `since`, so they would never run).
 *
 * @module
 */
import { countOf } from "../../../src/contract/plural.ts";
import { html } from "../../lib/html.ts";
import { type Migrations, pendingAt, pendingTotal } from "./types.ts";

/** Whether raising `since` to the current version is safe now. */
export function isFullySafe(m: Migrations): boolean {
  return m.canBumpSince >= m.version;
}

const jobs = (n: number) => countOf(n, "job");

/** The verdict sentence(s). */
export function Verdict({ migrations: m }: { migrations: Migrations }) {
  const since = html`<code>since</code>`;
  if (pendingTotal(m) === 0) {
    return html`<p class="mig-verdict is-safe">
      No pending jobs: safe to raise ${since} up to v${m.version}.
    </p>`;
  }
  if (isFullySafe(m)) {
    return html`<p class="mig-verdict is-safe">
      Safe to raise ${since} up to v${m.version}: no pending job is older.
    </p>`;
  }
  const floor = m.canBumpSince;
  const stranded = pendingAt(m, floor);
  return html`<p class="mig-verdict is-blocked">
    Safe to raise ${since} up to v${floor}: no pending job is older.
    Raising ${since} above v${floor} would strand ${jobs(stranded)} still on v${floor}.
  </p>`;
}
