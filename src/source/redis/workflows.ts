/**
 * Reading workflows: an in-memory index of workflow ids by creation time,
 * kept up to date by a background SCAN, so no request scans the keyspace.
 *
 * @module
 */

import type { WorkflowDetail, WorkflowPage, WorkflowState, WorkflowSummary } from "../types.ts";
import { decodeJobState, decodeWorkflow, decodeWorkflowState } from "../wire/decode.ts";
import { keyRoot, parseKey, taskKeys, workflowKey } from "../wire/keys.ts";
import { Cadence } from "./cadence.ts";
import type { RedisConnection } from "./client.ts";
import { DEFAULT_SCANS_PER_SECOND, globEscape, pacedConnection, scanKeys } from "./discovery.ts";
import { Pacer } from "./pacer.ts";
import { explainUnstarted } from "../../contract/workflow_holds.ts";
import { Watch } from "./watch.ts";
import { fieldsOf } from "./jobs.ts";
import type { Timers } from "../../timers.ts";

/** Options of {@link WorkflowIndex}. */
export interface WorkflowIndexOptions {
  prefix?: string;
  /** Shortest pause between two background passes, ms (default 10,000). */
  intervalMs?: number;
  /** Who looks at the board: passes run only while someone does (default: a new one). */
  watch?: Watch;
  /** The SCAN budget, shared with the source's other walks (default 250 SCAN calls/s). */
  pacer?: Pacer;
  /** How old the index may be while watched, ms (default 120,000). */
  freshnessMs?: number;
  /** The clock and timers its passes run on (default the runtime's; tests pass fake ones). */
  timers?: Timers;
}

/** What the index keeps of one workflow. */
interface IndexEntry {
  createdAt: number;
  state: WorkflowState;
}

/**
 * Workflow ids with their `createdAt` and state, newest first. Built on
 * first use by walking `<root>:wf:{*` with {@link scanKeys}; refreshed by
 * background passes while the board is watched, on the same terms as task
 * discovery (`TaskDiscovery` documents the arithmetic): SCAN calls paced by
 * the shared budget, the next pass after 30 times the last one's Redis
 * time, at least `intervalMs`, at most what keeps the index `freshnessMs`
 * (2 min) fresh; no pass while nobody watches. A refresh reads
 * `createdAt` and `state` of ids it has not seen and `state` of the ones
 * still running (one pipeline per SCAN batch); a finished workflow never
 * changes again, so it costs nothing after its first read. Ids whose hash
 * is gone are dropped. States can lag by up to `freshnessMs`: readers
 * correct them with {@link WorkflowIndex.note} when they read a workflow.
 */
export class WorkflowIndex {
  readonly #connection: RedisConnection;
  readonly #prefix?: string;
  readonly #pacer: Pacer;
  readonly #cadence: Cadence<void>;
  #entries = new Map<string, IndexEntry>();
  #sorted: string[] | null = null;
  /** {@link WorkflowIndex.ids} of each state, split from `#sorted` on first use. */
  #byState: Map<WorkflowState, string[]> | null = null;
  #built: Promise<void> | null = null;

  /** Creates the index; nothing runs until first use. */
  constructor(connection: RedisConnection, options: WorkflowIndexOptions = {}) {
    this.#connection = connection;
    this.#prefix = options.prefix;
    this.#pacer = options.pacer ?? new Pacer(DEFAULT_SCANS_PER_SECOND);
    this.#cadence = new Cadence((signal) => this.#walk(signal), options.watch ?? new Watch(), {
      minMs: options.intervalMs ?? 10_000,
      factor: 30,
      freshnessMs: options.freshnessMs ?? 120_000,
      pacer: this.#pacer,
      timers: options.timers,
    });
  }

  /**
   * Workflow ids, newest first, of every workflow or of those the index
   * last saw in `state` (building the index on first use).
   */
  async ids(state?: WorkflowState): Promise<string[]> {
    if (!this.#built) {
      this.#built = this.refresh().catch((error) => {
        this.#built = null;
        throw error;
      });
    }
    await this.#built;
    this.#sorted ??= [...this.#entries.entries()]
      .sort((a, b) => b[1].createdAt - a[1].createdAt || (a[0] < b[0] ? -1 : 1))
      .map(([id]) => id);
    if (state === undefined) return this.#sorted;
    if (!this.#byState) {
      this.#byState = new Map();
      for (const id of this.#sorted) {
        const of = this.#entries.get(id)!.state;
        const ids = this.#byState.get(of);
        if (ids) ids.push(id);
        else this.#byState.set(of, [id]);
      }
    }
    return this.#byState.get(state) ?? [];
  }

  /** Records a workflow's state as just read. */
  note(id: string, state: WorkflowState): void {
    const entry = this.#entries.get(id);
    if (!entry || entry.state === state) return;
    entry.state = state;
    this.#byState = null;
  }

  /** Forgets an id whose hash turned out to be gone. */
  forget(id: string): void {
    if (this.#entries.delete(id)) this.#invalidate();
  }

  #invalidate(): void {
    this.#sorted = null;
    this.#byState = null;
  }

  /** Rescans now; concurrent callers share one walk. */
  refresh(): Promise<void> {
    return this.#cadence.run();
  }

  /** Stops the background refresh and waits for one in flight. */
  async stop(): Promise<void> {
    await this.#cadence.stop();
  }

  async #walk(signal: AbortSignal): Promise<void> {
    const seen = new Map<string, IndexEntry>();
    const pattern = `${globEscape(keyRoot(this.#prefix))}:wf:{*`;
    const walker = pacedConnection(this.#connection, this.#pacer, signal);
    for await (const keys of scanKeys(walker, pattern)) {
      const toRead: string[] = [];
      for (const key of keys) {
        const parsed = parseKey(key, this.#prefix);
        if (parsed?.kind !== "workflow") continue;
        const known = this.#entries.get(parsed.id);
        if (known && known.state !== "running") seen.set(parsed.id, known);
        else toRead.push(parsed.id);
      }
      this.#pacer.charge(toRead.length);
      const replies = await this.#connection.pipelineSettled(
        toRead.map((id) => ["HMGET", workflowKey(id, this.#prefix), "createdAt", "state"]),
      );
      toRead.forEach((id, i) => {
        const [createdAt, state] = (Array.isArray(replies[i]) ? replies[i] : []) as unknown[];
        const at = Number(createdAt);
        if (typeof createdAt !== "string" || typeof state !== "string" || !Number.isFinite(at)) {
          return;
        }
        seen.set(id, { createdAt: at, state: decodeWorkflowState(state) });
      });
    }
    this.#entries = seen;
    this.#invalidate();
  }
}

function summarize(detail: WorkflowDetail): WorkflowSummary {
  const { id, name, state, createdAt, nodeCount, tasks } = detail;
  return { id, name, state, createdAt, nodeCount, tasks };
}

/**
 * Workflows newest first (only those in `state`, when given): a slice of
 * the index, then one pipeline of HMGET state/createdAt/graph for the page
 * (one round trip once the index is built). Workflows whose hash is gone,
 * or whose state moved out of `state` since the index last looked, are
 * skipped and the page is filled from the ones after them. One that moved
 * into `state` joins the list at the index's next refresh.
 */
export async function listWorkflows(
  connection: RedisConnection,
  index: WorkflowIndex,
  offset: number,
  limit: number,
  prefix?: string,
  state?: WorkflowState,
): Promise<WorkflowPage> {
  const ids = await index.ids(state);
  const workflows: WorkflowSummary[] = [];
  let next = offset;
  while (workflows.length < limit && next < ids.length) {
    const batch = ids.slice(next, next + limit - workflows.length);
    next += batch.length;
    const replies = await connection.pipeline(
      batch.map((id) => ["HMGET", workflowKey(id, prefix), "state", "createdAt", "graph"]),
    );
    batch.forEach((id, i) => {
      const [current, createdAt, graph] = replies[i] as (string | null)[];
      const hash: Record<string, string> = {};
      if (current !== null) hash.state = current;
      if (createdAt !== null) hash.createdAt = createdAt;
      if (graph !== null) hash.graph = graph;
      const detail = decodeWorkflow(id, hash);
      if (!detail) return index.forget(id);
      index.note(id, detail.state);
      if (state === undefined || detail.state === state) workflows.push(summarize(detail));
    });
  }
  // Read again: the states just noted may have moved workflows out of `state`
  // (free when none did: the index keeps its lists until something changes).
  return { workflows, total: (await index.ids(state)).length };
}

/**
 * A workflow in full, or null: one HGETALL, then one pipeline of
 * `HGET <node job> state` for its nodes (settled: a node's job hash may be
 * gone, or its task name may not be a job key's).
 */
export async function getWorkflow(
  connection: RedisConnection,
  id: string,
  prefix?: string,
): Promise<WorkflowDetail | null> {
  const flat = await connection.pipelineSettled([["HGETALL", workflowKey(id, prefix)]]);
  if (!Array.isArray(flat[0])) return null;
  const workflow = decodeWorkflow(id, fieldsOf(flat[0] as string[]));
  if (!workflow) return null;
  const states = await connection.pipelineSettled(
    workflow.nodes.map((
      node,
    ) => ["HGET", `${taskKeys(node.taskName, prefix).jobPrefix}${node.jobId}`, "state"]),
  );
  workflow.nodes.forEach((node, i) => {
    const state = states[i];
    node.jobState = typeof state === "string" ? decodeJobState(state) : null;
  });
  return explainUnstarted(workflow);
}
