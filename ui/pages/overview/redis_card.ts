/**
 * The store panel: Redis version, memory, uptime and connection, plus board uptime.
 *
 * @module
 */
import { Card } from "../../components/card.ts";
import { formatBytes, formatDuration } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import type { Overview } from "../../lib/types.ts";

/** Redis facts from the overview. */
export function RedisCard(
  { redis, uptime }: { redis: Overview["redis"]; /** Board uptime, ms. */ uptime: number },
) {
  const status = redis.connected
    ? html`<span class="status status-ok">Connected</span>`
    : html`<span class="status status-bad">Disconnected</span>`;
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
