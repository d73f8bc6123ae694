/**
 * `GET {basePath}/metrics`: the board's numbers in Prometheus text format,
 * through prom-client with one registry per board (never prom-client's
 * global default one: two boards in a process share nothing).
 *
 * Per scrape the tasks' figures come from the live state the leader keeps
 * while it is at most one stats interval old (two store reads whatever the
 * number of tasks), else from a direct read in O(tasks) (see
 * `task_figures.ts`); `queue_board_task_figures_timestamp_seconds` says
 * when they were true; a scrape notes the feed's need, as a browser does,
 * so that the leader keeps it up to date for the next ones, and on the
 * leader whose feed it starts is answered from the feed's first pass. At most
 * `maxTasks` tasks get series of their own (see `tasks.ts`), the
 * rest are summed under one label, so the exposition is bounded whatever
 * the number of tasks; the wait and run percentiles of those tasks come from
 * the board's latency sampler (kept for `LATENCY_MAX_AGE_MS`, then one read
 * of `LATENCY_SAMPLE_SIZE` jobs per task). With alerts, each rule's firing
 * alerts are read from the store (the states, the stored rules: one read
 * each), the notices this board sent are counted as they end, and those
 * waiting for each sink are read from its queue (in the process). Scrapes
 * that arrive while one is being read share its answer.
 *
 * @module
 */

import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { AlertDelivery, AlertsConfig } from "../contract/alerts.ts";
import type { LatencySample } from "../contract/latency.ts";
import type { JobState, QueueStats } from "../contract/states.ts";
import { errorBody } from "../errors.ts";
import type { ThroughputBucket } from "../contract/throughput.ts";
import type { TaskSource } from "../source/types.ts";
import type { ChangeFeed } from "../feed/change_feed.ts";
import type { RecorderStatus } from "../feed/history_recording.ts";
import { methodLabel } from "./method_label.ts";
import type { HistoryStore } from "../history/store.ts";
import type { AlertStore } from "../store/alerts.ts";
import type { BoardStore } from "../store/types.ts";
import type { LatencySampler } from "../samplers/latency.ts";
import { createHistorySeries } from "./history.ts";
import { createScalingSeries } from "./scaling.ts";
import { OTHER_TASKS, seriesTasks } from "./tasks.ts";
import { readScrapedTasks } from "./task_figures.ts";
import { sharedRead } from "../shared_read.ts";

/** What the metrics read. */
export interface BoardMetricsDeps {
  source: TaskSource;
  /** Where the alert states and stored rules, and the backlog samples, are read. */
  store: BoardStore;
  latency: LatencySampler;
  /** How many clients the board's event stream has now. */
  sseClients: () => number;
  /** How many tasks get series of their own (`metrics.maxTasks`); see `tasks.ts`. */
  maxTasks: number;
  /** The board's alerts configuration: with one, each rule's firing alerts are read per scrape. */
  alerts?: AlertsConfig | null;
  /** The notices waiting for each alert sink now, by its name (none without alerts). */
  alertQueues?: () => ReadonlyMap<string, number>;
  /** Wall-clock time, ms since the epoch: what the live state's age is judged by. */
  clock: () => number;
  /** The live state's oldest age a scrape shows, ms (the board's stats interval). */
  liveMaxAgeMs: number;
  /**
   * The board's change feed: each scrape notes its need, so the leader
   * keeps the live state the next scrapes show, and the first scrape on the
   * leader is answered from its first pass.
   */
  feed?: ChangeFeed | null;
  /** The history recorder's lag and write errors; null when the board records no history. */
  recorder?: RecorderStatus | null;
  /** The history's store, whose holding and caps each scrape shows; null when the board records none. */
  history?: HistoryStore | null;
}

/** One board's metrics: its registry, the middleware that times its API, the scrape. */
export interface BoardMetrics {
  /** Times every API request into the request-duration histogram. */
  timing: MiddlewareHandler;
  /** Counts an error the board answered with, when the store caused it. */
  countError(error: unknown): void;
  /** Counts a failed sign-in: wrong credentials (`invalid`) or refused by the throttle. */
  countLoginFailure(reason: "invalid" | "throttled"): void;
  /** Counts what became of a notice this board sent, at one sink. */
  countNotice(delivery: AlertDelivery): void;
  /** Counts a notice the sink's full queue dropped. */
  countDroppedNotice(sink: string): void;
  /** The exposition text of a scrape and its content type. */
  scrape(): Promise<{ text: string; contentType: string }>;
}

/** What a scrape shows of one task, or of the tasks summed under {@link OTHER_TASKS}. */
interface TaskNumbers {
  stats: QueueStats;
  closed: ThroughputBucket;
  waitingSeconds: number;
  overdueSeconds: number;
}

/** The sum of tasks: their counts added up, their oldest waiting and most overdue jobs. */
function sumOf(tasks: readonly TaskNumbers[]): TaskNumbers {
  const stats = { ...tasks[0].stats };
  const closed = { ...tasks[0].closed };
  let { waitingSeconds, overdueSeconds } = tasks[0];
  for (const task of tasks.slice(1)) {
    for (const state of Object.keys(stats) as JobState[]) stats[state] += task.stats[state];
    closed.completed += task.closed.completed;
    closed.failed += task.closed.failed;
    waitingSeconds = Math.max(waitingSeconds, task.waitingSeconds);
    overdueSeconds = Math.max(overdueSeconds, task.overdueSeconds);
  }
  return { stats, closed, waitingSeconds, overdueSeconds };
}

/** What the alert series show: each rule's firing alerts, and when they were evaluated. */
interface Firing {
  byRule: Map<string, number>;
  /** The leader's last evaluation, ms since the epoch; null before the first. */
  asOf: number | null;
}

/** Each rule's firing alerts (the code's and the stored ones): one read of the states, one of the rules. */
async function readFiring(store: AlertStore, alerts: AlertsConfig): Promise<Firing> {
  const [status, stored] = await Promise.all([
    store.readAlertStatus(),
    store.listAlertRules(),
  ]);
  const counts = new Map([...alerts.rules, ...stored].map((rule) => [rule.name, 0]));
  for (const { rule, phase } of status.states) {
    const count = counts.get(rule);
    if (count !== undefined && phase === "firing") counts.set(rule, count + 1);
  }
  return { byRule: counts, asOf: status.asOf };
}

const QUANTILES = [["0.5", "p50"], ["0.95", "p95"], ["0.99", "p99"]] as const;
const STORE_ERRORS = new Set(["STORE_UNAVAILABLE", "OUTCOME_UNKNOWN"]);

/** Creates the metrics of one board. */
export function createBoardMetrics(deps: BoardMetricsDeps): BoardMetrics {
  const {
    source,
    store,
    latency,
    sseClients,
    maxTasks,
    alerts = null,
    alertQueues,
    recorder = null,
    history = null,
  } = deps;
  const registry = new Registry();
  const registers = [registry];
  const gauge = (name: string, help: string, labelNames: string[]) =>
    new Gauge({ name, help, labelNames, registers });
  const jobs = gauge("taskora_jobs", "Jobs of a task in a state, now.", ["task", "state"]);
  const finished = gauge(
    "taskora_jobs_finished_last_minute",
    "Jobs of a task that completed or failed for good in the last closed minute " +
      "(taskora's per-minute counters).",
    ["task", "outcome"],
  );
  const oldestWaiting = gauge(
    "taskora_oldest_waiting_seconds",
    "How long the task's oldest waiting job has waited (0 when none waits).",
    ["task"],
  );
  const overdue = gauge(
    "taskora_delayed_overdue_seconds",
    "How far past its run-at the task's first delayed or retrying job is (0 when none is due).",
    ["task"],
  );
  const wait = gauge(
    "taskora_job_wait_seconds",
    "Wait (run-at to the last attempt's start) of the task's newest finished jobs, by quantile.",
    ["task", "quantile"],
  );
  const run = gauge(
    "taskora_job_run_seconds",
    "Run time of the last attempt of the task's newest finished jobs, by quantile.",
    ["task", "quantile"],
  );
  const sampled = gauge(
    "taskora_latency_sample_jobs",
    "Finished jobs the wait and run quantiles are computed from.",
    ["task"],
  );
  new Gauge({
    name: "queue_board_sse_clients",
    help: "Clients connected to this board's live event stream.",
    registers,
    collect() {
      this.set(sseClients());
    },
  });
  if (recorder) {
    new Gauge({
      name: "queue_board_recorder_lag_seconds",
      help: "How far behind taskora's events the job history is on this board " +
        "(0 when caught up, or when another board leads and records).",
      registers,
      collect() {
        this.set(recorder.lagSeconds());
      },
    });
    new Counter({
      name: "queue_board_recorder_write_errors_total",
      help: "Batches of events whose history write failed on this board (read again and " +
        "written once the store answers).",
      registers,
      collect() {
        this.reset();
        this.inc(recorder.writeErrors());
      },
    });
  }
  const storeErrors = new Counter({
    name: "queue_board_store_errors_total",
    help:
      "Requests this board answered with a store error (503 STORE_UNAVAILABLE, 504 OUTCOME_UNKNOWN).",
    labelNames: ["code"],
    registers,
  });
  const loginFailures = new Counter({
    name: "queue_board_login_failures_total",
    help: "Failed sign-ins on this board: wrong credentials (invalid), or refused by the " +
      "login throttle (throttled).",
    labelNames: ["reason"],
    registers,
  });
  const firing = gauge(
    "queue_board_alert_firing",
    "The count of its alerts firing, per alert rule (0: none; a rule about several tasks has " +
      "one alert per task), as the leader's last evaluation left them.",
    ["rule"],
  );
  // The firing counts are the leader's, not read now: this says how old they are.
  const evaluatedAt = alerts && gauge(
    "queue_board_alert_evaluated_timestamp_seconds",
    "When the leader last evaluated the alert rules (unix seconds): queue_board_alert_firing is " +
      "as of then. 0 before the first evaluation.",
    [],
  );
  const figuresAt = gauge(
    "queue_board_task_figures_timestamp_seconds",
    "When the per-task series of this scrape were true (unix seconds): the leader's live " +
      "state, at most one stats interval old, or the scrape's own read when it was older.",
    [],
  );
  const notices = new Counter({
    name: "queue_board_alert_notices_total",
    help: "Alert notices this board sent, per sink and outcome (delivered, or failed after its " +
      "retries); muted notices are not sent.",
    labelNames: ["sink", "outcome"],
    registers,
  });
  new Gauge({
    name: "queue_board_alert_notices_queued",
    help: "Alert notices waiting for a sink on this board now: in its queue, or kept for the " +
      "next pass because the queue was full (those being posted not included).",
    labelNames: ["sink"],
    registers,
    collect() {
      this.reset();
      for (const [sink, count] of alertQueues?.() ?? []) this.set({ sink }, count);
    },
  });
  const dropped = new Counter({
    name: "queue_board_alert_notices_dropped_total",
    help: "Alert notices this board dropped because the sink's queue and what it keeps for the " +
      "next pass were full (each also counted failed in queue_board_alert_notices_total).",
    labelNames: ["sink"],
    registers,
  });
  const duration = new Histogram({
    name: "queue_board_http_request_duration_seconds",
    help: "Time this board took to answer API requests, by route pattern.",
    labelNames: ["method", "route", "status"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });

  const scaling = createScalingSeries(registry, source, store);
  const historySeries = history && createHistorySeries(registry, history);

  function countError(error: unknown): void {
    const { body } = errorBody(error);
    if (STORE_ERRORS.has(body.code)) storeErrors.inc({ code: body.code });
  }

  async function read(): Promise<void> {
    const scraped = await readScrapedTasks(
      source,
      store.feed,
      deps.feed ?? null,
      deps.clock,
      deps.liveMaxAgeMs,
    );
    const now = deps.clock();
    const stats = new Map([...scraped.tasks].map(([task, { stats }]) => [task, stats]));
    const { own, other } = seriesTasks(stats, maxTasks);
    // Only the tasks with series of their own are sampled: quantiles cannot be summed.
    const [samples, alertsNow] = await Promise.all([
      Promise.all(own.map((task) => latency.sample(task))),
      alerts ? readFiring(store, alerts) : { byRule: new Map<string, number>(), asOf: null },
      scaling.read(own, stats, now),
      historySeries?.read(),
    ]);
    for (const gauge of [jobs, finished, oldestWaiting, overdue, wait, run, sampled, firing]) {
      gauge.reset();
    }
    for (const [rule, count] of alertsNow.byRule) firing.set({ rule }, count);
    evaluatedAt?.set((alertsNow.asOf ?? 0) / 1000);
    figuresAt.set(scraped.asOf / 1000);
    const taskNumbers = (task: string): TaskNumbers => {
      const { stats, closed, heads: { oldestWaiting: waiting, nextDue } } = scraped.tasks.get(
        task,
      )!;
      return {
        stats,
        closed,
        waitingSeconds: waiting ? Math.max(0, now - waiting.since) / 1000 : 0,
        overdueSeconds: nextDue ? Math.max(0, now - nextDue.at) / 1000 : 0,
      };
    };
    own.forEach((task, i) => {
      setTask(task, taskNumbers(task));
      setQuantiles(task, samples[i]);
    });
    if (other.length > 0) setTask(OTHER_TASKS, sumOf(other.map(taskNumbers)));
  }

  function setTask(task: string, numbers: TaskNumbers): void {
    for (const [state, count] of Object.entries(numbers.stats)) jobs.set({ task, state }, count);
    finished.set({ task, outcome: "completed" }, numbers.closed.completed);
    finished.set({ task, outcome: "failed" }, numbers.closed.failed);
    oldestWaiting.set({ task }, numbers.waitingSeconds);
    overdue.set({ task }, numbers.overdueSeconds);
  }

  function setQuantiles(task: string, sample: LatencySample): void {
    sampled.set({ task }, sample.jobs);
    for (const [gauge, summary] of [[wait, sample.wait], [run, sample.run]] as const) {
      if (!summary.percentiles) continue;
      for (const [quantile, key] of QUANTILES) {
        gauge.set({ task, quantile }, summary.percentiles[key] / 1000);
      }
    }
  }

  // Reading and rendering share one registry: a scrape during another waits for its answer.
  const scrape = sharedRead(async () => {
    await read();
    return { text: await registry.metrics(), contentType: registry.contentType };
  });

  return {
    timing: async function requestTiming(c: Context, next) {
      const end = duration.startTimer({ method: methodLabel(c.req.method) });
      try {
        await next();
      } finally {
        // After next(): the route index is the handler's that answered, so its pattern, not "*".
        end({ route: routePath(c), status: String(c.res.status) });
      }
    },
    countError,
    countLoginFailure: (reason) => loginFailures.inc({ reason }),
    countNotice: ({ sink, outcome }) => notices.inc({ sink, outcome }),
    countDroppedNotice: (sink) => dropped.inc({ sink }),
    scrape,
  };
}
