/**
 * The board's services, each built in one place and started in this order:
 * leadership, the change feed (with the history recorder), the event hub, the audit trail, session login,
 * the latency sampler, bulk operations, scan slots, the backlog sampler, the
 * throughput keeper, alerts, metrics.
 * The routes get them as `ApiDeps`; the stacks read the rest. Nothing here
 * knows HTTP but the session cookie's scope.
 *
 * @module
 */

import type { Context } from "hono";
import type { ApiDeps } from "../api/deps.ts";
import { type AlertEvaluator, startAlertEvaluator } from "../alerts/runner.ts";
import { createAuditTrail } from "../audit/trail.ts";
import { createSessionRevoker, type SessionRevoker } from "../auth/revocations.ts";
import { clearSession, type SessionConfig } from "../auth/session.ts";
import { operationHooks } from "../bulk/hooks.ts";
import { Operations } from "../bulk/operations.ts";
import { createPresenter } from "../contract/present.ts";
import { createEventHub, type EventHub } from "../events/hub.ts";
import { createBoardFeed } from "../feed/board_feed.ts";
import { OwnChanges } from "../feed/own_changes.ts";
import { Leadership, leaseOf } from "../leadership.ts";
import { McpCalls } from "../mcp/mcp_calls.ts";
import { type BoardMetrics, createBoardMetrics } from "../metrics/route.ts";
import type { ResolvedOptions, ResolvedSessionAuth } from "../options.ts";
import { startBacklogSampler } from "../samplers/backlog.ts";
import { startThroughputKeeper } from "../samplers/throughput.ts";
import { startScheduleRunKeeper } from "../schedules/run_keeper.ts";
import { createLatencySampler } from "../samplers/latency.ts";
import { ScanSlots } from "../scans/slots.ts";
import { showingErrors } from "../source/shown_errors.ts";
import type { TaskSource } from "../source/types.ts";
import type { BoardStore } from "../store/types.ts";
import { epochClock, type Timers } from "../timers.ts";

/**
 * The lease of the board's own background work: stats frames, latency
 * samples, the bulk operations' sweep, backlog samples, the kept day of throughput.
 */
const BOARD_LEASE = "board";

/**
 * The alert evaluator's lease, apart from the board's: only boards with an
 * alerts configuration compete for it, since the rules and sinks of a file
 * or the option are known only to the boards that read them. Under the
 * board's lease, a board without them that led left every rule unevaluated.
 */
const ALERTS_LEASE = "alerts";

/**
 * A bulk operation's runner's lease, its renewal and the leader's sweep for
 * runners that died, from the board's lease period: at the default (10 s)
 * a renewal every 3 s and a sweep every 5 s.
 */
function operationPeriods(leaseMs: number) {
  return { leaseMs, renewMs: leaseMs * 0.3, sweepMs: leaseMs / 2 };
}

/** Session login's parts (the `auth` option given as an object). */
export interface SessionLogin {
  /** The option: `authenticate`, the cookie, the login throttle. */
  auth: ResolvedSessionAuth;
  /** How its cookie is signed and scoped. */
  session: SessionConfig;
  /** Its revocations (signing out everywhere), shared by the boards on the store. */
  revoker: SessionRevoker;
}

/** What the board runs: the routes' `ApiDeps` and what only the stacks read. */
export interface BoardServices extends ApiDeps {
  /** Session login's parts; null with an auth hook or no auth. */
  login: SessionLogin | null;
  /** The board's Prometheus metrics; null with `metrics: false`. */
  metrics: BoardMetrics | null;
  /** The MCP endpoint's in-process API requests, which the guards recognise. */
  mcpCalls: McpCalls;
  /** Ends the background work and gives the leases back (the source stays open). */
  close(): Promise<void>;
}

/** Session login's parts, or null without it. */
function sessionLoginOf(store: BoardStore, options: ResolvedOptions): SessionLogin | null {
  const auth = options.auth;
  if (auth === null || typeof auth !== "object") return null;
  const session: SessionConfig = {
    cookieName: auth.cookieName,
    secret: auth.cookiePassword,
    ttlMs: auth.sessionTtlMs,
    maxAgeMs: auth.maxSessionAgeMs,
    path: options.basePath,
    trustProxy: options.trustProxy,
    now: () => Date.now(),
  };
  return { auth, session, revoker: createSessionRevoker(store, session.now) };
}

/**
 * The leadership of the alert evaluator: the one background job that runs
 * unwatched, so only when there are rules, or sinks that rules stored
 * through the API may tell.
 */
function alertLeadershipOf(
  store: BoardStore,
  options: ResolvedOptions,
  timers: Timers,
): Leadership | null {
  const alerts = options.alerts;
  if (alerts === null || (alerts.rules.length === 0 && alerts.sinks.length === 0)) return null;
  return new Leadership(leaseOf(store, ALERTS_LEASE), { timers, ttlMs: options.leaseMs });
}

/** What the alert evaluator runs on, and whom it tells. */
interface AlertParts {
  source: TaskSource;
  store: BoardStore;
  options: ResolvedOptions;
  timers: Timers;
  clock: () => number;
  /** The `alerts` lease's leadership; null when there is nothing to evaluate. */
  leadership: Leadership | null;
  /** Told each pass's states and silences (the event stream's `alerts` frame). */
  events: EventHub;
  /** The metrics, once made: a notice ends a pass or more after the board is. */
  metrics: () => BoardMetrics | null;
  /** Notes the change feed's need: the rules read its live state. */
  need: () => void;
}

/** Evaluates the alert rules on the leader of the `alerts` lease; null without one. */
function startAlerts(parts: AlertParts): AlertEvaluator | null {
  const { options, leadership, events, metrics } = parts;
  if (!options.alerts || !leadership) return null;
  return startAlertEvaluator({
    source: parts.source,
    store: parts.store,
    config: options.alerts,
    leadership,
    timers: parts.timers,
    clock: parts.clock,
    liveMaxAgeMs: options.statsInterval,
    need: parts.need,
    basePath: options.basePath,
    onDelivery: (delivery) => metrics()?.countNotice(delivery),
    onDropped: (sink) => metrics()?.countDroppedNotice(sink),
    onEvaluated: (status, silences) => events.alertsEvaluated(status, silences),
  });
}

/**
 * Builds and starts the board's services on `source`, keeping their state in
 * `store`, their timers on `timers`.
 */
export function startServices(
  given: TaskSource,
  store: BoardStore,
  options: ResolvedOptions,
  timers: Timers,
): BoardServices {
  const present = createPresenter(options);
  // Under redaction every reader of the dead-letter groups (routes, export, alerts) groups the
  // errors as shown, so no redacted value decides a group.
  const source = options.redact.length > 0 ? showingErrors(given, present.error) : given;
  const clock = epochClock(timers);
  const leadership = new Leadership(leaseOf(store, BOARD_LEASE), {
    timers,
    ttlMs: options.leaseMs,
  });
  const leads = () => leadership.leads();
  const alertLeadership = alertLeadershipOf(store, options, timers);
  // The leader's change feed and live state, while a browser on some replica needs them, and
  // always with the history's recorder.
  const boardFeed = createBoardFeed({
    source,
    store,
    leadership,
    timers,
    clock,
    health: options.health,
    history: options.history,
    redact: options.redact,
    statsIntervalMs: options.statsInterval,
  });
  // A change this board made re-reads its task at the leader's next pass, events or not, and
  // that pass leaves no task waiting: its state is after the change.
  const ownChanges = new OwnChanges(clock, (task) => boardFeed?.live.changed(task));
  const feed = boardFeed?.feed ?? null;
  const history = boardFeed?.history ?? null;
  const events = createEventHub(source, present, {
    store,
    statsIntervalMs: options.statsInterval,
    timers,
    watched: () => feed?.need(),
    liveSeen: (asOf) => ownChanges.seenBy(asOf),
    // Called from a stats poll, after the operations below are made (the first client's).
    liveMarks: (marks) => operations.told(marks.operations ?? null),
    leads,
    alerts: options.alerts !== null,
    evaluatesAlerts: () => alertLeadership?.isLeading ?? false,
  });
  const audit = createAuditTrail(store, options.auditMaxEntries, {
    maxAgeMs: options.auditMaxAgeMs,
  });
  const login = sessionLoginOf(store, options);
  const latency = createLatencySampler(source, { leadership, store, now: clock });
  const operations = new Operations(
    operationHooks({
      source,
      store,
      options,
      present,
      events,
      audit,
      changed: (task) => ownChanges.changed(task),
    }),
    { timers, takeOver: !options.readOnly, leads, ...operationPeriods(options.leaseMs) },
  );
  const scans = new ScanSlots(store, { timers });
  // Once a minute on the leader: the drain forecast's backlog 10 and 60 minutes ago.
  const backlog = startBacklogSampler({
    source,
    store,
    leadership,
    timers,
    clock,
  });
  // Once a minute on the leader, while a board was asked: the day of throughput every board reads.
  const throughput = startThroughputKeeper({
    source,
    store: store.keptThroughput,
    leadership,
    timers,
    clock,
  });
  // While the history is recorded, the leader keeps every run a schedule makes, watched or not.
  const scheduleRuns = options.history === null
    ? null
    : startScheduleRunKeeper({ source, store, leadership, timers });
  const alerts = startAlerts({
    source,
    store,
    options,
    timers,
    clock,
    leadership: alertLeadership,
    events,
    metrics: () => metrics,
    need: () => feed?.need(),
  });
  const metrics = options.metrics &&
    createBoardMetrics({
      source,
      store,
      latency,
      sseClients: () => events.state().clients,
      maxTasks: options.metrics.maxTasks,
      clock,
      liveMaxAgeMs: options.statsInterval,
      feed,
      alerts: options.alerts,
      alertQueues: () => alerts?.queued() ?? new Map(),
      recorder: history?.recording ?? null,
      history: history?.store ?? null,
    });
  return {
    source,
    store,
    options,
    present,
    startedAt: Date.now(),
    timers,
    clock,
    events,
    audit,
    latency,
    leadership,
    throughput,
    feed,
    history: history?.store ?? null,
    ownChanges,
    operations,
    scans,
    sessions: login
      ? { revoker: login.revoker, clear: (c: Context) => clearSession(c, login.session) }
      : undefined,
    login,
    metrics,
    mcpCalls: new McpCalls(),
    async close() {
      await operations.close();
      audit.close();
      await events.close();
      await feed?.close();
      await history?.store.close();
      await alerts?.close();
      backlog.close();
      throughput?.close();
      scheduleRuns?.close();
      await leadership.close();
      await alertLeadership?.close();
    },
  };
}
