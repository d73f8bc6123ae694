/**
 * The generic webhook's request: the notice as JSON, signed with the sink's
 * secret (see {@link signatureOf}).
 *
 * @module
 */

import type { AlertNotice } from "../contract/alerts.ts";
import { SIGNATURE_HEADER, signatureOf } from "./signature.ts";
import type { SinkRequest } from "./slack.ts";

/**
 * The body and headers of a webhook post of `notice` made at `now` (ms since
 * the epoch), signed with `secret`.
 */
export async function webhookRequest(
  notice: AlertNotice,
  secret: string,
  now: number,
): Promise<SinkRequest> {
  const body = JSON.stringify(notice);
  return {
    body,
    headers: {
      "content-type": "application/json",
      [SIGNATURE_HEADER]: await signatureOf(secret, body, Math.floor(now / 1000)),
    },
  };
}
