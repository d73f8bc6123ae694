/**
 * A Redis source whose writes can be paused (`CLIENT PAUSE ... WRITE`, what
 * a failover does) just after the board has written a mutation's audit
 * entry: the board writes that entry before the mutation, so this is how a
 * test holds back the mutation itself and not its entry.
 *
 * @module
 */

import { createRedisSource, type RedisTaskSource } from "../../src/source/redis/mod.ts";
import { withClient } from "./redis_server.ts";

/** The source, and what arms the pause for the next mutation. */
export interface PausableSource {
  source: RedisTaskSource;
  /** Pauses writes for `ms` once the next mutation's audit entry is written. */
  pauseAfterEntry(ms?: number): void;
}

/** A source of `url` whose writes a client of its own pauses when armed. */
export function pausableSource(url: string, commandTimeoutMs?: number): PausableSource {
  const source = createRedisSource({ url, commandTimeoutMs });
  let pauseMs: number | null = null;
  const appendAudit = source.appendAudit.bind(source);
  source.appendAudit = async (record, maxEntries, log) => {
    const entry = await appendAudit(record, maxEntries, log);
    if (pauseMs !== null && record.outcome === "pending") {
      const ms = pauseMs;
      pauseMs = null;
      await withClient(url, (admin) => admin.sendCommand(["CLIENT", "PAUSE", String(ms), "WRITE"]));
    }
    return entry;
  };
  return { source, pauseAfterEntry: (ms = 20_000) => void (pauseMs = ms) };
}
