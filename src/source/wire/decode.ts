/**
 * Decoding of taskora's stored values (wire format 6) into the port's types.
 * Pure functions: the Redis source feeds them what it read, the memory source
 * uses them to import a keyspace dump.
 *
 * @module
 */

import {
  JOB_STATES,
  type JobRecord,
  type JobRow,
  type JobState,
  type LogEntry,
  type ScheduleConfig,
  type ScheduleRecord,
  WORKFLOW_STATES,
  type WorkflowDetail,
  type WorkflowGraph,
  type WorkflowGraphNode,
  type WorkflowState,
} from "../types.ts";

/** One node of a workflow graph as taskora serializes it into the hash's `graph` field. */
export interface StoredGraphNode {
  /** The node's task. */
  taskName: string;
  /** Indexes of the nodes it waits for. */
  deps: number[];
  /** The job id the node runs as. */
  jobId: string;
  /** The task version the node was dispatched with. */
  _v: number;
  /** The node's own input, serialized, when it has one. */
  data?: string;
}

/** A workflow graph as taskora serializes it into the hash's `graph` field. */
export interface StoredWorkflowGraph {
  /** Every node, by index. */
  nodes: StoredGraphNode[];
  /** Indexes of the terminal nodes. */
  terminal: number[];
  /** The workflow's name, when it has one. */
  name?: string;
}

/**
 * Decodes a value written by taskora's JSON serializer. A value that is not
 * JSON (a custom serializer) is shown as the string it is, never dropped.
 */
export function decodeValue(raw: string | null | undefined): unknown {
  if (raw === null || raw === undefined || raw === "") return null;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** Progress is a number or a JSON object; anything else is shown as a string. */
export function decodeProgress(
  raw: string | null | undefined,
): number | Record<string, unknown> | null {
  if (raw === null || raw === undefined || raw === "") return null;
  const value = decodeValue(raw);
  if (typeof value === "number") return value;
  if (value !== null && typeof value === "object") return value as Record<string, unknown>;
  return { value: String(value) };
}

function toNumber(raw: unknown): number | null {
  if (typeof raw === "number") return Number.isFinite(raw) ? raw : null;
  if (typeof raw !== "string" || raw.trim() === "") return null;
  const n = Number(raw);
  return Number.isFinite(n) ? n : null;
}

/** A task version (`_v`) as written on a job or a workflow node; 1 when it has none. */
export function decodeVersion(raw: unknown): number {
  return toNumber(raw) ?? 1;
}

/** A job hash's `state` field as a {@link JobState} (taskora's enqueue writes `waiting` or none). */
export function decodeJobState(raw: string | undefined): JobState {
  return (JOB_STATES as readonly string[]).includes(raw ?? "") ? raw as JobState : "waiting";
}

/**
 * Builds a job record from its hash fields.
 *
 * @param runAt the job's score in the delayed set, when it is delayed or retrying
 */
export function decodeJob(
  task: string,
  id: string,
  fields: Record<string, string>,
  runAt: number | null = null,
): JobRecord {
  const workflowId = fields._wf;
  return {
    id,
    task,
    state: decodeJobState(fields.state),
    data: decodeValue(fields.data),
    result: decodeValue(fields.result),
    error: fields.error || null,
    progress: decodeProgress(fields.progress),
    attempt: toNumber(fields.attempt) ?? 1,
    maxAttempts: toNumber(fields.maxAttempts) ?? 1,
    version: decodeVersion(fields._v),
    priority: toNumber(fields.priority) ?? 0,
    createdAt: toNumber(fields.ts) ?? 0,
    processedAt: toNumber(fields.processedOn),
    finishedAt: toNumber(fields.finishedOn),
    runAt,
    cancelledAt: toNumber(fields.cancelledAt),
    cancelReason: fields.cancelReason || null,
    expireAt: toNumber(fields.expireAt),
    stalledCount: toNumber(fields.stalledCount) ?? 0,
    workflow: workflowId ? { id: workflowId, nodeIndex: toNumber(fields._wfNode) ?? 0 } : null,
  };
}

/** A list row from hash fields read without the payloads (see {@link decodeJob}). */
export function decodeRow(
  task: string,
  id: string,
  fields: Record<string, string>,
  runAt: number | null = null,
): JobRow {
  const { data: _data, result: _result, ...row } = decodeJob(task, id, fields, runAt);
  return row;
}

/** Decodes a job's log list; an entry that is not JSON becomes a plain message. */
export function decodeLogs(entries: string[]): LogEntry[] {
  return entries.map((entry) => {
    const value = decodeValue(entry);
    if (value !== null && typeof value === "object" && "message" in value) {
      const log = value as Partial<LogEntry>;
      return {
        level: String(log.level ?? "info"),
        message: String(log.message),
        ...(log.meta !== undefined ? { meta: log.meta } : {}),
        timestamp: Number(log.timestamp ?? 0),
      };
    }
    return { level: "info", message: String(entry), timestamp: 0 };
  });
}

/** Decodes a schedule's stored JSON and its place in the next-run set. */
export function decodeSchedule(
  name: string,
  json: string,
  nextRun: number | null,
  lastRunStatus: JobState | null,
): ScheduleRecord {
  const stored = (decodeValue(json) ?? {}) as Record<string, unknown>;
  const { lastRun, lastJobId, ...rest } = stored;
  const config: ScheduleConfig = { task: String(rest.task ?? "") };
  if ("data" in rest) config.data = rest.data;
  if (typeof rest.every === "number") config.every = rest.every;
  if (typeof rest.cron === "string") config.cron = rest.cron;
  if (typeof rest.timezone === "string") config.timezone = rest.timezone;
  if (typeof rest.onMissed === "string") config.onMissed = rest.onMissed;
  if (typeof rest.overlap === "boolean") config.overlap = rest.overlap;
  return {
    name,
    config,
    nextRun,
    lastRun: typeof lastRun === "number" ? lastRun : null,
    lastJobId: typeof lastJobId === "string" ? lastJobId : null,
    lastRunStatus,
    paused: nextRun === null,
  };
}

/** The id of the last run's job, read from a schedule's stored JSON. */
export function scheduleLastJobId(json: string): string | null {
  const stored = decodeValue(json);
  if (stored === null || typeof stored !== "object") return null;
  const id = (stored as Record<string, unknown>).lastJobId;
  return typeof id === "string" ? id : null;
}

/** A workflow hash's `state` field as a {@link WorkflowState} (anything unknown reads as running). */
export function decodeWorkflowState(raw: string | undefined): WorkflowState {
  return (WORKFLOW_STATES as readonly string[]).includes(raw ?? "")
    ? raw as WorkflowState
    : "running";
}

/** A graph node with its version a number and its own input decoded. */
function decodeGraphNode(node: StoredGraphNode): WorkflowGraphNode {
  const decoded: WorkflowGraphNode = {
    taskName: node.taskName,
    deps: node.deps ?? [],
    jobId: node.jobId,
    _v: decodeVersion(node._v),
  };
  if (node.data !== undefined) decoded.data = decodeValue(node.data);
  return decoded;
}

/**
 * Builds a workflow from its hash, or null when the hash is not a workflow.
 * Node job states are left null: they live in other keys, which the source
 * reads when it needs them.
 */
export function decodeWorkflow(id: string, hash: Record<string, string>): WorkflowDetail | null {
  if (!hash.state || !hash.graph) return null;
  const stored = decodeValue(hash.graph) as StoredWorkflowGraph | string | null;
  if (stored === null || typeof stored !== "object" || !Array.isArray(stored.nodes)) return null;
  const graph: WorkflowGraph = {
    nodes: stored.nodes.map(decodeGraphNode),
    terminal: stored.terminal ?? [],
    name: stored.name,
  };
  const nodes = graph.nodes.map((node, index) => ({
    index,
    taskName: node.taskName,
    jobId: node.jobId,
    deps: node.deps,
    state: hash[`n:${index}:state`] ?? "pending",
    jobState: null,
    result: decodeValue(hash[`n:${index}:result`]),
    error: hash[`n:${index}:error`] || null,
    notStarted: null,
  }));
  return {
    id,
    name: graph.name ?? null,
    state: decodeWorkflowState(hash.state),
    createdAt: toNumber(hash.createdAt) ?? 0,
    nodeCount: nodes.length,
    tasks: [...new Set(nodes.map((node) => node.taskName))],
    graph,
    nodes,
    result: decodeValue(hash.result),
    error: hash.error || null,
  };
}
