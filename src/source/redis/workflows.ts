/**
 * Reading workflows: an in-memory index of workflow ids by creation time,
 * kept up to date by a background SCAN, so no request scans the keyspace.
 *
 * @module
 */

import type { WorkflowDetail, WorkflowPage, WorkflowSummary } from "../types.ts";
import { decodeJobState, decodeWorkflow } from "../wire/decode.ts";
import { keyRoot, parseKey, taskKeys, workflowKey } from "../wire/keys.ts";
import type { RedisConnection } from "./client.ts";
import { globEscape, scanKeys } from "./discovery.ts";
import { fieldsOf } from "./jobs.ts";

/** Options of {@link WorkflowIndex}. */
export interface WorkflowIndexOptions {
  prefix?: string;
  /** Background refresh period, ms (default 10,000). */
  intervalMs?: number;
}

/**
 * Workflow ids and their `createdAt`, newest first. Built on first use by
 * walking `<root>:wf:{*` with {@link scanKeys}; refreshed in the background
 * every `intervalMs` (unref'd timer). A refresh only reads `createdAt` of
 * ids it has not seen (one HMGET pipeline per SCAN batch) and drops ids
 * whose hash is gone.
 */
export class WorkflowIndex {
  readonly #connection: RedisConnection;
  readonly #prefix?: string;
  readonly #intervalMs: number;
  #createdAt = new Map<string, number>();
  #sorted: string[] | null = null;
  #built: Promise<void> | null = null;
  #inFlight: Promise<void> | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  /** Creates the index; nothing runs until first use. */
  constructor(connection: RedisConnection, options: WorkflowIndexOptions = {}) {
    this.#connection = connection;
    this.#prefix = options.prefix;
    this.#intervalMs = options.intervalMs ?? 10_000;
  }

  /** Workflow ids, newest first (building the index on first use). */
  async ids(): Promise<string[]> {
    if (!this.#built) {
      this.#built = this.refresh().catch((error) => {
        this.#built = null;
        throw error;
      });
    }
    await this.#built;
    this.#sorted ??= [...this.#createdAt.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([id]) => id);
    return this.#sorted;
  }

  /** Forgets an id whose hash turned out to be gone. */
  forget(id: string): void {
    if (this.#createdAt.delete(id)) this.#sorted = null;
  }

  /** Rescans now; concurrent callers share one walk. */
  refresh(): Promise<void> {
    this.#inFlight ??= this.#walk().finally(() => {
      this.#inFlight = null;
      this.#schedule();
    });
    return this.#inFlight;
  }

  /** Stops the background refresh and waits for one in flight. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#inFlight?.catch(() => {});
  }

  async #walk(): Promise<void> {
    const seen = new Map<string, number>();
    const pattern = `${globEscape(keyRoot(this.#prefix))}:wf:{*`;
    for await (const keys of scanKeys(this.#connection, pattern)) {
      const fresh: string[] = [];
      for (const key of keys) {
        const parsed = parseKey(key, this.#prefix);
        if (parsed?.kind !== "workflow") continue;
        const known = this.#createdAt.get(parsed.id);
        if (known === undefined) fresh.push(parsed.id);
        else seen.set(parsed.id, known);
      }
      const created = await this.#connection.pipelineSettled(
        fresh.map((id) => ["HGET", workflowKey(id, this.#prefix), "createdAt"]),
      );
      fresh.forEach((id, i) => {
        const at = Number(created[i]);
        if (typeof created[i] === "string" && Number.isFinite(at)) seen.set(id, at);
      });
    }
    this.#createdAt = seen;
    this.#sorted = null;
  }

  #schedule(): void {
    if (this.#stopped) return;
    clearTimeout(this.#timer);
    const timer = setTimeout(() => this.refresh().catch(() => {}), this.#intervalMs);
    Deno.unrefTimer(timer);
    this.#timer = timer;
  }
}

function summarize(detail: WorkflowDetail): WorkflowSummary {
  const { id, name, state, createdAt, nodeCount, tasks } = detail;
  return { id, name, state, createdAt, nodeCount, tasks };
}

/**
 * Workflows newest first: a slice of the index, then one pipeline of
 * HMGET state/createdAt/graph for the page (one round trip once the index
 * is built).
 */
export async function listWorkflows(
  connection: RedisConnection,
  index: WorkflowIndex,
  offset: number,
  limit: number,
  prefix?: string,
): Promise<WorkflowPage> {
  const ids = await index.ids();
  const total = ids.length;
  const page = ids.slice(offset, offset + limit);
  const replies = await connection.pipeline(
    page.map((id) => ["HMGET", workflowKey(id, prefix), "state", "createdAt", "graph"]),
  );
  const workflows: WorkflowSummary[] = [];
  page.forEach((id, i) => {
    const [state, createdAt, graph] = replies[i] as (string | null)[];
    const hash: Record<string, string> = {};
    if (state !== null) hash.state = state;
    if (createdAt !== null) hash.createdAt = createdAt;
    if (graph !== null) hash.graph = graph;
    const detail = decodeWorkflow(id, hash);
    if (detail) workflows.push(summarize(detail));
    else index.forget(id);
  });
  return { workflows, total };
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
  return workflow;
}
