/**
 * The store panel: Redis version, memory, uptime and connection, plus board uptime.
 *
 * @module
 */
import { Card } from "../../components/card.ts";
import { formatBytes, formatDuration } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import type { Overview } from "../../lib/types.ts";

/** Whether the board reaches Redis now; `unknown` while the board itself does not answer. */
export type RedisLink = "connected" | "disconnected" | "unknown";

const LINK = {
  connected: html`<span class="status status-ok">Connected</span>`,
  disconnected: html`<span class="status status-bad">Disconnected</span>`,
  unknown: html`<span class="status status-neutral">Unknown</span>`,
};

/** Redis facts from the overview; `link` is the connection now, the facts are the last read. */
export function RedisCard(
  { redis, link, uptime }: {
    redis: Overview["redis"];
    link: RedisLink;
    /** Board uptime, ms. */
    uptime: number;
  },
) {
  const status = LINK[link];
  return html`
    <${Card} title="Redis" actions=${status}>
      <dl class="facts">
        <div>
          <dt>Version</dt>
          <dd>${redis.version || "—"}</dd>
        </div>
        <div>
          <dt>Memory used</dt>
          <dd>${formatBytes(redis.usedMemory)}</dd>
        </div>
        <div>
          <dt>Redis uptime</dt>
          <dd>${formatDuration(redis.uptime)}</dd>
        </div>
        <div>
          <dt>Board uptime</dt>
          <dd>${formatDuration(uptime / 1000)}</dd>
        </div>
      </dl>
      <//>
  `;
}
