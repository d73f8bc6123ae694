/**
 * A retry button (and the head of a column of them): runs one of the retries of `retry.ts` (which asks for
 * confirmation and reports by toast), disabled while it runs, and tells
 * the page when jobs went back to waiting.
 *
 * @module
 */
import { useState } from "preact/hooks";
import { html } from "../../lib/html.ts";

/** The button; `retry` resolves to whether anything was retried. */
export function RetryButton(
  { label, description, primary = false, retry, onRetried }: {
    label: string;
    /** The accessible name, when the label alone does not say which jobs. */
    description?: string;
    primary?: boolean;
    retry(): Promise<boolean>;
    onRetried(): void;
  },
) {
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    const retried = await retry();
    setBusy(false);
    if (retried) onRetried();
  };
  return html`
    <button
      type="button"
      class=${primary ? "btn btn-small btn-primary" : "btn btn-small"}
      disabled=${busy}
      aria-label=${description}
      onClick=${run}
    >${label}</button>
  `;
}

/** The head cell over a column of retry buttons: named for screen readers, blank on screen. */
export function RetryColumnHead() {
  return html`<th scope="col"><span class="visually-hidden">Actions</span></th>`;
}
