/**
 * Where a payload would be and the user may not read payloads
 * (`payload.read`): a line that says it is hidden by permission, in place
 * of an empty panel or field that would read as "there is none".
 *
 * @module
 */
import { useBoard } from "../lib/board_context.ts";
import { html } from "../lib/html.ts";
import { may } from "../lib/permissions.ts";

/** Whether the current user may read payloads. */
export function useMayReadPayloads(): boolean {
  return may(useBoard().config, "payload.read");
}

/** The note: `subject` ("Its data is") hidden, and why. */
export function PayloadsHidden({ subject }: { subject: string }) {
  return html`
    <p class="payloads-hidden" role="note">
      ${subject} hidden: you may not read payloads (<code>payload.read</code>).
    </p>
  `;
}
