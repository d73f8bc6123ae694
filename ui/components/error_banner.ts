/**
 * The banner that shows a failed request: the API's own `error` message and
 * code, under a title that says whose failure it was (Redis, the board
 * server, or the request itself).
 *
 * @module
 */
import { ApiError } from "../lib/api.ts";
import { html } from "../lib/html.ts";

const TITLES: Record<string, string> = {
  STORE_UNAVAILABLE: "Redis unreachable",
  AUDIT_UNAVAILABLE: "Audit trail unwritable: nothing was done",
  NETWORK: "Board server unreachable",
};

/** Renders nothing when `error` is null. */
export function ErrorBanner({ error }: { error: Error | null }) {
  if (!error) return null;
  const code = error instanceof ApiError ? error.code : null;
  return html`
    <div class="banner banner-error" role="alert">
      <strong class="banner-title">${TITLES[code ?? ""] ?? "Request failed"}</strong>
      <span class="banner-message">${error.message}</span>
      ${code ? html`<code class="banner-code">${code}</code>` : null}
    </div>
  `;
}
