/**
 * The job history on Redis, under the board's root (see `keys.ts`): one
 * script call writes a whole batch, so recording costs one command per
 * batch beside the recorder's read (one per task of the batch); bounded by
 * default to 7 days or 1M summaries, whichever comes first: the caps at
 * each write, the age at each {@link HistoryStore.trim}, which the leader's
 * paced pass is to call.
 *
 * @module
 */

import type { RedisConnection } from "../../../source/redis/client.ts";
import {
  bucketOf,
  entryIncrements,
  MAX_FIELDS,
  pointOf,
  type Resolution,
  RESOLUTION_MS,
  RESOLUTIONS,
  ROLLUP_RETENTION_MS,
  type RollupIncrement,
  type RollupPoint,
  sampleFields,
  scopeId,
  scopesOf,
} from "../../../history/rollup.ts";
import {
  checkedRollupQuery,
  checkedSearch,
  decodeCursor,
  encodeCursor,
  type HistoryBatch,
  type HistoryCut,
  type HistoryHolding,
  type HistoryLimits,
  historyLimits,
  type HistoryPage,
  type HistorySearch,
  type HistoryStore,
  MAX_TASKS_OF_JOB,
  type RollupQuery,
  SEARCH_BUDGET,
} from "../../../history/store.ts";
import {
  type AttemptRecord,
  boundedError,
  type HistoryEntry,
  type JobSummary,
  summaryOf,
  TERMINAL_OUTCOMES,
} from "../../../history/summary.ts";
import { BUCKETS_PER_SPAN, historyKeys, idMemberStart, paddedTime, spanOf } from "./keys.ts";
import { INDEX_JOB_IDS, SEARCH_HISTORY, TRIM_HISTORY, WRITE_HISTORY } from "./scripts.ts";

/** Options of {@link createRedisHistoryStore}. */
export interface RedisHistoryOptions {
  /** The board's connection. */
  connection: RedisConnection;
  /** taskora's key prefix, if any. */
  prefix?: string;
  /** How much it keeps (defaults: 7 days or 1M summaries). */
  limits?: Partial<HistoryLimits>;
}

/** How many summaries one trim call drops, at most (the trim calls again while it drops this many). */
const TRIM_BUDGET = 1000;

/** The most trim calls one {@link HistoryStore.trim} makes. */
const TRIM_CALLS = 100;

/**
 * How many summaries one {@link HistoryStore.indexJobIds} call adds to the
 * index by job id, at most: one script of a few ms, once a feed pass.
 */
export const INDEX_BUDGET = 1000;

/** A batch as the write script reads it: keys by their index in KEYS (1-based). */
class ScriptKeys {
  readonly keys: string[];
  readonly #index = new Map<string, number>();
  constructor(first: string[]) {
    this.keys = [];
    for (const key of first) this.of(key);
  }
  of(key: string): number {
    let index = this.#index.get(key);
    if (index === undefined) {
      this.keys.push(key);
      this.#index.set(key, index = this.keys.length);
    }
    return index;
  }
}

/**
 * An attempt as a job hash keeps it: `<run>|<attempt>|<outcome>|<start>|<end>`
 * under `e:<event>`, its error apart under `x:<event>`. Short values keep a
 * job hash in Redis's compact encoding (values up to 64 bytes by default):
 * a third of the memory of the same hash with JSON values.
 */
function attemptRecord(entry: HistoryEntry): string {
  return `${entry.attempt}|${entry.outcome}|${entry.startedAt ?? ""}|${entry.endedAt}`;
}

/** A stored attempt read back, with its error (or null). */
function attemptOf(stored: string, error: string | undefined): AttemptRecord {
  const [run, attempt, outcome, startedAt, endedAt] = stored.split("|");
  return {
    run: Number(run),
    attempt: Number(attempt),
    outcome: outcome as AttemptRecord["outcome"],
    startedAt: startedAt === "" ? null : Number(startedAt),
    endedAt: Number(endedAt),
    error: error ?? null,
  };
}

/** A job hash read back as its summary, or null when it is gone. */
function summaryOfHash(hash: Record<string, string>): JobSummary | null {
  if (!hash.task) return null;
  const attempts = Object.entries(hash)
    .filter(([field]) => field.startsWith("e:"))
    .map(([field, value]) => attemptOf(value, hash[`x:${field.slice(2)}`]));
  if (attempts.length === 0) return null;
  return summaryOf({
    task: hash.task,
    id: hash.id,
    version: hash.v === "" || hash.v === undefined ? null : Number(hash.v),
    createdAt: Number(hash.c),
    errorShape: hash.shape || null,
    ...(hash.db === undefined ? {} : { dataBytes: Number(hash.db) }),
    ...(hash.rb === undefined ? {} : { resultBytes: Number(hash.rb) }),
    ...(hash.data === undefined ? {} : { data: hash.data }),
    ...(hash.result === undefined ? {} : { result: hash.result }),
  }, attempts);
}

/** A node-redis HGETALL reply (a flat array under RESP2, an object under RESP3) as an object. */
function hashOf(reply: unknown): Record<string, string> {
  if (!Array.isArray(reply)) return (reply ?? {}) as Record<string, string>;
  const hash: Record<string, string> = {};
  for (let i = 0; i < reply.length; i += 2) hash[String(reply[i])] = String(reply[i + 1]);
  return hash;
}

/** A history store on Redis. */
export function createRedisHistoryStore(options: RedisHistoryOptions): HistoryStore {
  const { connection } = options;
  const limits = historyLimits(options.limits);
  const keys = historyKeys(options.prefix);

  /** The batch as the write script takes it. */
  const scriptInput = (batch: HistoryBatch) => {
    const script = new ScriptKeys([keys.meta, keys.all, keys.tasks, keys.ids, keys.cuts]);
    const expiries = new Map<number, number>();
    /** The bucket fields the batch may add to, `[key, field, 1 when kept as a maximum]`, by slot. */
    const slots: [number, string, number][] = [];
    const slotIds = new Map<string, number>();
    /** One step of the script, `[slot, by]`: add `by` to a bucket field (or keep the larger). */
    const step = (scope: string, resolution: Resolution, at: number, field: string, by: number) => {
      const bucket = bucketOf(at, resolution);
      const span = spanOf(bucket, resolution);
      const key = script.of(keys.rollup(resolution, scope, span));
      const name = `${bucket}:${field}`;
      let slot = slotIds.get(`${key}|${name}`);
      if (slot === undefined) {
        slots.push([key, name, MAX_FIELDS.has(field) ? 1 : 0]);
        slotIds.set(`${key}|${name}`, slot = slots.length);
        const spanEnd = span + RESOLUTION_MS[resolution] * BUCKETS_PER_SPAN[resolution];
        expiries.set(key, spanEnd + ROLLUP_RETENTION_MS[resolution]);
      }
      return [slot, by];
    };
    /** Each increment, for every scope and resolution, as flat `slot, by` pairs. */
    const steps = (task: string, version: number | null, { at, field, by }: RollupIncrement) =>
      scopesOf(task, version).flatMap((scope) =>
        RESOLUTIONS.flatMap((resolution) => step(scopeId(scope), resolution, at, field, by))
      );
    const entries = batch.entries.map((entry: HistoryEntry) => {
      const increments = entryIncrements(entry);
      const error = boundedError(entry.error);
      return {
        job: script.of(keys.job(entry.task, entry.id)),
        index: script.of(keys.task(entry.task)),
        task: entry.task,
        id: entry.id,
        event: entry.event,
        attempt: entry.attempt,
        outcome: entry.outcome,
        terminal: TERMINAL_OUTCOMES.has(entry.outcome),
        version: entry.version === null ? "" : String(entry.version),
        createdAt: String(entry.createdAt),
        shape: entry.errorShape ?? "",
        error: error?.toLowerCase() ?? "",
        record: attemptRecord(entry),
        ...(error === null ? {} : { attemptError: error }),
        ended: paddedTime(entry.endedAt),
        ...(entry.data === undefined ? {} : { data: entry.data }),
        ...(entry.result === undefined ? {} : { result: entry.result }),
        ...(entry.dataBytes === undefined ? {} : { dataBytes: entry.dataBytes }),
        ...(entry.resultBytes === undefined ? {} : { resultBytes: entry.resultBytes }),
        always: increments.always.flatMap((increment) =>
          steps(entry.task, entry.version, increment)
        ),
        firstOfJob: steps(entry.task, entry.version, increments.firstOfJob),
        rerun: steps(entry.task, entry.version, increments.rerun),
      };
    });
    const samples = (batch.samples ?? []).flatMap((sample) =>
      Object.entries(sampleFields(sample)).flatMap(([field, value]) =>
        RESOLUTIONS.flatMap((resolution) =>
          step(scopeId({ task: sample.task }), resolution, sample.at, field, value)
        )
      )
    );
    const input = {
      entries,
      slots,
      samples,
      // cjson reads an empty object as an empty array; both iterate as nothing.
      cursors: batch.cursors ?? {},
      expiries: [...expiries].map(([key, at]) => [key, String(at)]),
      maxPerTask: limits.maxPerTask,
      maxSummaries: limits.maxSummaries,
      budget: 2 * batch.entries.length + 100,
    };
    return { keys: script.keys, args: [JSON.stringify(input), keys.root] };
  };

  return {
    async write(batch) {
      if (batch.entries.length === 0 && !batch.samples?.length && !batch.cursors) {
        return { recorded: 0 };
      }
      const recorded = await connection.call<number>({
        script: WRITE_HISTORY,
        ...scriptInput(batch),
      });
      return { recorded: Number(recorded) };
    },
    async cursors() {
      const meta = hashOf(await connection.call(["HGETALL", keys.meta]));
      return Object.fromEntries(
        Object.entries(meta)
          .filter(([field]) => field.startsWith("c:"))
          .map(([field, id]) => [field.slice(2), id]),
      );
    },
    async summary(task, id) {
      return summaryOfHash(hashOf(await connection.call(["HGETALL", keys.job(task, id)])));
    },
    async tasksOfJob(id) {
      // Every member starting so, and nothing after: the NUL's successor ends the range.
      const start = idMemberStart(id);
      const members = await connection.call<string[]>([
        "ZRANGEBYLEX",
        keys.ids,
        `[${start}`,
        `(${start.slice(0, -1)}\x01`,
        "LIMIT",
        "0",
        String(MAX_TASKS_OF_JOB),
      ]);
      return members.map((member) => member.slice(start.length));
    },
    async search(query: HistorySearch): Promise<HistoryPage> {
      const checked = checkedSearch(query);
      const position = checked.cursor === undefined ? null : decodeCursor(checked.cursor);
      const inIndex = (at: number, task: string, id: string) =>
        checked.task === undefined
          ? `${paddedTime(at)}\0${task}\0${id}`
          : `${paddedTime(at)}\0${id}`;
      const upper = position !== null && (checked.to === undefined || position.at < checked.to)
        ? `(${inIndex(position.at, position.task, position.id)}`
        : checked.to === undefined
        ? "+"
        : `(${paddedTime(checked.to)}`;
      const lower = checked.from === undefined ? "-" : `[${paddedTime(checked.from)}`;
      const [found, last] = await connection.call<[string[], string]>({
        script: SEARCH_HISTORY,
        keys: [checked.task === undefined ? keys.all : keys.task(checked.task)],
        args: [
          keys.root,
          upper,
          lower,
          checked.states ? `,${checked.states.join(",")},` : "",
          checked.version === undefined ? "" : String(checked.version),
          checked.errorText?.toLowerCase() ?? "",
          checked.idPrefix ?? "",
          checked.task ?? "",
          checked.limit,
          SEARCH_BUDGET,
        ],
      });
      const hashes = await connection.pipeline(found.map((member) => {
        const cut = member.indexOf("\0");
        return ["HGETALL", keys.job(member.slice(0, cut), member.slice(cut + 1))];
      }));
      const summaries = hashes.map((reply) => summaryOfHash(hashOf(reply)))
        .filter((summary): summary is JobSummary => summary !== null);
      let next: string | null = null;
      if (last !== "") {
        const parts = last.split("\0");
        next = encodeCursor({
          at: Number(parts[0]),
          task: checked.task ?? parts[1],
          id: parts.slice(checked.task === undefined ? 2 : 1).join("\0"),
        });
      }
      return { summaries, next };
    },
    async rollups(query: RollupQuery): Promise<RollupPoint[]> {
      const { resolution, from, to, ...scope } = checkedRollupQuery(query);
      const first = bucketOf(from, resolution);
      const spans: number[] = [];
      const spanLength = RESOLUTION_MS[resolution] * BUCKETS_PER_SPAN[resolution];
      for (let span = spanOf(first, resolution); span < to; span += spanLength) spans.push(span);
      const replies = await connection.pipeline(
        spans.map((span) => ["HGETALL", keys.rollup(resolution, scopeId(scope), span)]),
      );
      const buckets = new Map<number, Record<string, number>>();
      for (const reply of replies) {
        for (const [name, value] of Object.entries(hashOf(reply))) {
          const cut = name.indexOf(":");
          const at = Number(name.slice(0, cut));
          if (at < first || at >= to) continue;
          let fields = buckets.get(at);
          if (!fields) buckets.set(at, fields = {});
          fields[name.slice(cut + 1)] = Number(value);
        }
      }
      return [...buckets].sort(([a], [b]) => a - b).map(([at, fields]) => pointOf(at, fields));
    },
    async indexJobIds() {
      const [, done] = await connection.call<[number, number]>({
        script: INDEX_JOB_IDS,
        keys: [keys.meta, keys.all, keys.tasks, keys.ids, keys.cuts],
        args: ["", keys.root, INDEX_BUDGET],
      });
      return Number(done) === 0;
    },
    async trim(now) {
      let removed = 0;
      for (let call = 0; call < TRIM_CALLS; call++) {
        const dropped = Number(
          await connection.call({
            script: TRIM_HISTORY,
            keys: [keys.meta, keys.all, keys.tasks, keys.ids, keys.cuts],
            args: [
              "",
              keys.root,
              paddedTime(now - limits.retentionMs),
              limits.maxPerTask,
              limits.maxSummaries,
              TRIM_BUDGET,
            ],
          }),
        );
        removed += dropped;
        if (dropped < TRIM_BUDGET) break;
      }
      return { removed };
    },
    async holding(): Promise<HistoryHolding> {
      const [count, oldest, capped] = await connection.pipeline([
        ["ZCARD", keys.all],
        ["ZRANGE", keys.all, "0", "0"],
        ["HMGET", keys.meta, "capDropped", "capNewest"],
      ]) as [number, string[], (string | null)[]];
      const [dropped, newest] = capped;
      return {
        summaries: Number(count),
        oldestAt: oldest.length === 0 ? null : Number(oldest[0].slice(0, oldest[0].indexOf("\0"))),
        capped: dropped ? { dropped: Number(dropped), newestDroppedAt: Number(newest) } : null,
      };
    },
    async cuts(task) {
      const kept = task === undefined
        ? hashOf(await connection.call(["HGETALL", keys.cuts]))
        : { [task]: await connection.call<string | null>(["HGET", keys.cuts, task]) };
      const cuts = new Map<string, HistoryCut>();
      for (const [name, cut] of Object.entries(kept)) {
        if (cut === null) continue;
        const [dropped, newest] = cut.split("|");
        cuts.set(name, { dropped: Number(dropped), newestDroppedAt: Number(newest) });
      }
      return cuts;
    },
    // The connection is the board's: closing the history leaves it open.
    close: () => Promise.resolve(),
  };
}
