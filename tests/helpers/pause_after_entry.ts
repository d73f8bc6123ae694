/**
 * A Redis source whose writes can be paused (`CLIENT PAUSE ... WRITE`, what
 * a failover does) just after the board has written a mutation's audit
 * entry: the board writes that entry before the mutation, so this is how a
 * test holds back the mutation itself and not its entry. Or just before a
 * bulk operation's next step: its start (entry, record) is answered, and the
 * operation is held while it runs.
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
  /** Pauses writes for `ms` just before the next bulk step runs. */
  pauseBeforeStep(ms?: number): void;
}

/** A source of `url` whose writes a client of its own pauses when armed. */
export function pausableSource(url: string, commandTimeoutMs?: number): PausableSource {
  const source = createRedisSource({ url, commandTimeoutMs });
  const pause = (ms: number) =>
    withClient(url, (admin) => admin.sendCommand(["CLIENT", "PAUSE", String(ms), "WRITE"]));
  let afterEntryMs: number | null = null;
  let beforeStepMs: number | null = null;
  // The board writes its audit trail to the source's board store: the pause hooks in there.
  const store = source.boardStore;
  const appendAudit = store.appendAudit.bind(store);
  store.appendAudit = async (record, maxEntries, log, options) => {
    const entry = await appendAudit(record, maxEntries, log, options);
    if (afterEntryMs !== null && record.outcome === "pending") {
      const ms = afterEntryMs;
      afterEntryMs = null;
      await pause(ms);
    }
    return entry;
  };
  const bulkStep = source.bulkStep.bind(source);
  source.bulkStep = async (...args) => {
    if (beforeStepMs !== null) {
      const ms = beforeStepMs;
      beforeStepMs = null;
      await pause(ms);
    }
    return bulkStep(...args);
  };
  return {
    source,
    pauseAfterEntry: (ms = 20_000) => void (afterEntryMs = ms),
    pauseBeforeStep: (ms = 20_000) => void (beforeStepMs = ms),
  };
}
