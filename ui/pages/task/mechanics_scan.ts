/**
 * The mechanics scan the user starts from the task page: it asks
 * `GET /tasks/{task}/mechanics` step by step, following the cursor, until
 * the keyspace is done or the user stops it (the step in flight is
 * aborted). What the steps found is summed up as it comes, each key once
 * by its id (SCAN may return a key twice), each kind kept to
 * {@link KEPT_PER_KIND} keys (the biggest concurrency counts first), so a
 * keyspace full of dedup keys cannot fill the page; the ids counted are
 * kept up to {@link COUNTED_KEYS}, where the scan ends.
 *
 * @module
 */
import { useEffect, useRef, useState } from "preact/hooks";
import type { FoundMechanism, MechanismEntry } from "../../../src/contract/mechanics.ts";
import type { Api } from "../../lib/api.ts";

/** Most keys of one kind kept on the page. */
export const KEPT_PER_KIND = 200;

/** Most keys one scan counts (their ids are what it keeps to count each once). */
export const COUNTED_KEYS = 100_000;

/** The entries of one kind. */
type Of<K extends MechanismEntry["kind"]> = Extract<MechanismEntry, { kind: K }>;

/** What the scan found so far. */
export interface MechanicsFound {
  /** Concurrency keys kept, the most used first, and over all keys found: how many and their sum. */
  concurrency: { top: Of<"concurrency">[]; keys: number; running: number };
  throttle: { kept: Of<"throttle">[]; total: number };
  debounce: { kept: Of<"debounce">[]; total: number };
  dedup: { kept: Of<"dedup">[]; total: number };
  collect: { kept: Of<"collect">[]; total: number };
  /** True once {@link COUNTED_KEYS} keys were counted: the keys found after are not. */
  capped: boolean;
}

/** Where the scan is. */
export interface MechanicsScan {
  /**
   * "idle" before the first start, "running", "stopped" by the user, "done",
   * "capped" (ended at {@link COUNTED_KEYS} keys), "failed", or "unknown":
   * the source keeps no mechanism keys to scan (`reason` says why).
   */
  status: "idle" | "running" | "stopped" | "done" | "capped" | "failed" | "unknown";
  /** SCAN calls made (each over about 1,000 keys). */
  scanCalls: number;
  found: MechanicsFound;
  /** The refusal or error that ended it. */
  error: unknown;
  /** Why the source cannot scan, once it said so. */
  reason?: string;
}

/** Nothing found yet: where a scan starts. */
export const EMPTY: MechanicsFound = {
  concurrency: { top: [], keys: 0, running: 0 },
  throttle: { kept: [], total: 0 },
  debounce: { kept: [], total: 0 },
  dedup: { kept: [], total: 0 },
  collect: { kept: [], total: 0 },
  capped: false,
};

/**
 * `found` with one step's entries added (a new object: signals and state see
 * the change), but those whose id is in `seen` (the ids this scan counted,
 * to which the new ones are added) and any past `max` keys counted.
 */
export function addFound(
  found: MechanicsFound,
  entries: readonly FoundMechanism[],
  seen: Set<string>,
  max = COUNTED_KEYS,
): MechanicsFound {
  const next: MechanicsFound = {
    concurrency: { ...found.concurrency, top: [...found.concurrency.top] },
    throttle: { ...found.throttle, kept: [...found.throttle.kept] },
    debounce: { ...found.debounce, kept: [...found.debounce.kept] },
    dedup: { ...found.dedup, kept: [...found.dedup.kept] },
    collect: { ...found.collect, kept: [...found.collect.kept] },
    capped: found.capped,
  };
  for (const entry of entries) {
    const id = `${entry.kind}:${entry.id}`;
    if (seen.has(id)) continue;
    if (seen.size >= max) {
      next.capped = true;
      break;
    }
    seen.add(id);
    if (entry.kind === "concurrency") {
      next.concurrency.keys++;
      next.concurrency.running += entry.count;
      next.concurrency.top.push(entry);
      continue;
    }
    const kind = next[entry.kind] as { kept: MechanismEntry[]; total: number };
    kind.total++;
    if (kind.kept.length < KEPT_PER_KIND) kind.kept.push(entry);
  }
  next.concurrency.top.sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
  next.concurrency.top.length = Math.min(next.concurrency.top.length, KEPT_PER_KIND);
  return next;
}

/** The scan of one task's mechanics, with `start` and `stop` for the card's buttons. */
export function useMechanicsScan(api: Api, task: string) {
  const [scan, setScan] = useState<MechanicsScan>({
    status: "idle",
    scanCalls: 0,
    found: EMPTY,
    error: null,
  });
  const controller = useRef<AbortController | null>(null);
  const stop = () => {
    controller.current?.abort();
    controller.current = null;
  };
  useEffect(() => stop, [task]);

  const start = async () => {
    stop();
    const own = new AbortController();
    controller.current = own;
    let state: MechanicsScan = { status: "running", scanCalls: 0, found: EMPTY, error: null };
    setScan(state);
    let cursor: string | undefined;
    const seen = new Set<string>();
    try {
      do {
        const step = await api.get("/tasks/{task}/mechanics", {
          params: { task },
          query: cursor === undefined ? {} : { cursor },
          signal: own.signal,
        });
        if (!step.known) {
          setScan({ ...state, status: "unknown", reason: step.reason });
          return;
        }
        const found = addFound(state.found, step.entries, seen);
        cursor = found.capped ? undefined : step.cursor ?? undefined;
        state = {
          ...state,
          scanCalls: state.scanCalls + step.scanCalls,
          found,
          status: found.capped ? "capped" : step.cursor === null ? "done" : "running",
        };
        if (!own.signal.aborted) setScan(state);
      } while (cursor !== undefined && !own.signal.aborted);
      if (own.signal.aborted) setScan({ ...state, status: "stopped" });
    } catch (error) {
      setScan({ ...state, status: own.signal.aborted ? "stopped" : "failed", error });
    }
  };
  return { scan, start, stop };
}
