/**
 * Alerts: the rules the board evaluates while nobody watches, the sinks it
 * tells, the silences that mute it, and the state and notices it keeps.
 * The JSON the `alerts` option and `--alerts FILE` take is
 * {@link AlertsFile}; after validation it is {@link AlertsConfig}.
 *
 * @module
 */

/** Every rule kind, each with what makes it fire. */
export const ALERT_KINDS = [
  /** The failed count is above `threshold`. */
  "failed",
  /** Failed among finished jobs over `window` is above `threshold` %, with `minFinished` finished. */
  "failureRate",
  /** The waiting count is above `threshold`. */
  "backlog",
  /** The oldest waiting job has waited longer than `threshold` (a duration). */
  "oldestWaiting",
  /** The delayed job due first is overdue by more than `threshold` (a duration). */
  "overdue",
  /** More than `threshold` active jobs hold no lock: no worker runs them (default 0: any). */
  "stalled",
  /**
   * taskora's stall check put more than `threshold` jobs back to waiting in
   * the last 15 min (default 0: any): each runs again, a finished one too.
   */
  "reruns",
  /** An error shape not seen in the last 24 h appears in the dead letters. */
  "newErrorGroup",
  /** A schedule's next run is past by more than `threshold` (its grace), with no new job. */
  "scheduleMissed",
  /** Jobs wait and none was taken for `threshold` (a duration). */
  "noProgress",
  /** Redis does not answer, or uses more than `threshold` % of its `maxmemory`. */
  "redis",
  /** taskora's migration lock is held for longer than `threshold` (a duration). */
  "migrationLock",
] as const;

/** A rule kind. */
export type AlertKind = typeof ALERT_KINDS[number];

/** What a kind's `threshold` measures. */
export type ThresholdUnit = "count" | "percent" | "duration" | "none";

/** The unit of each kind's threshold, and its default (null: required). */
export const KIND_THRESHOLDS: Record<AlertKind, { unit: ThresholdUnit; fallback: number | null }> =
  {
    failed: { unit: "count", fallback: null },
    failureRate: { unit: "percent", fallback: null },
    backlog: { unit: "count", fallback: null },
    oldestWaiting: { unit: "duration", fallback: null },
    overdue: { unit: "duration", fallback: null },
    stalled: { unit: "count", fallback: 0 },
    reruns: { unit: "count", fallback: 0 },
    newErrorGroup: { unit: "none", fallback: 0 },
    scheduleMissed: { unit: "duration", fallback: 60_000 },
    noProgress: { unit: "duration", fallback: null },
    redis: { unit: "percent", fallback: 90 },
    migrationLock: { unit: "duration", fallback: null },
  };

/** Kinds about the whole store, not a task: they take no `tasks`. */
export const STORE_KINDS: readonly AlertKind[] = ["redis", "migrationLock"];

/** A rule as written in the JSON (durations as `"15s"`, `"1h"` or ms). */
export interface AlertRuleFile {
  /** Unique among the rules; notices and `/metrics` name it. */
  name: string;
  /** What it watches. */
  kind: AlertKind;
  /** The tasks it watches; absent means every task. */
  tasks?: string[];
  /** The limit: a count, a percentage or a duration, per {@link KIND_THRESHOLDS}. */
  threshold?: number | string;
  /** `failureRate` only: the span finished jobs are counted over (default `"15m"`). */
  window?: string | number;
  /** `failureRate` only: fewer finished jobs in the window never fire (default 20). */
  minFinished?: number;
  /** How long the condition must hold before it fires (default `"0s"`). */
  for?: string | number;
  /** How often a firing alert is told again (default `"0s"`: never). */
  repeat?: string | number;
  /** The names of the sinks it tells. */
  sinks: string[];
}

/** A sink as written in the JSON. */
export interface AlertSinkFile {
  /** Unique among the sinks; rules name it. */
  name: string;
  /** A signed JSON webhook, or a Slack incoming webhook. */
  type: "webhook" | "slack";
  /** Where notices are posted (`http:` or `https:`). */
  url: string;
  /** `webhook` only: the HMAC-SHA256 key, 32 to 1024 characters. */
  secret?: string;
  /** How long one attempt may take (default `"10s"`, at most a minute). */
  timeout?: string | number;
  /** Further attempts after a failed one (default 3, at most 10). */
  retries?: number;
}

/** The JSON of `--alerts FILE` and of the `alerts` option. */
export interface AlertsFile {
  /** How often rules are evaluated (default `"15s"`, from 5 s to 30 s: the leader lease is kept by asking). */
  evaluateEvery?: string | number;
  /** The board's address for the notices' links (default: its base path alone). */
  boardUrl?: string;
  /** Where notices go. */
  sinks?: AlertSinkFile[];
  /** What to watch. */
  rules?: AlertRuleFile[];
}

/** A rule after validation: durations in ms, defaults filled in. */
export interface AlertRule {
  /** Unique among the rules. */
  name: string;
  /** What it watches. */
  kind: AlertKind;
  /** null: every task. */
  tasks: string[] | null;
  /** Count, percentage (0–100) or ms, per {@link KIND_THRESHOLDS}. */
  threshold: number;
  /** `failureRate`: the window, ms (null for other kinds). */
  windowMs: number | null;
  /** `failureRate`: the fewest finished jobs that count (null for other kinds). */
  minFinished: number | null;
  /** How long the condition holds before it fires, ms. */
  forMs: number;
  /** How often a firing alert is told again, ms; 0: never repeated. */
  repeatMs: number;
  /** The names of the sinks it tells. */
  sinks: string[];
}

/** A sink after validation. */
export interface AlertSink {
  name: string;
  type: "webhook" | "slack";
  url: string;
  /** `webhook`: the signing key; null for `slack`. Never answered by the API. */
  secret: string | null;
  timeoutMs: number;
  retries: number;
}

/** The alerts configuration after validation. */
export interface AlertsConfig {
  evaluateEveryMs: number;
  /** No trailing slash; null when not given. */
  boardUrl: string | null;
  sinks: AlertSink[];
  rules: AlertRule[];
}

/** A silence: what it mutes, until when, who set it and why. */
export interface AlertSilence {
  /** Its id. */
  id: string;
  /** One rule (by name), one task, or everything. */
  scope: { rule: string } | { task: string } | "all";
  /** When it ends, ms since the epoch. */
  until: number;
  /** Who set it. */
  author: string;
  /** Why. */
  reason: string;
  /** When it was set, ms since the epoch. */
  createdAt: number;
}

/** Where one instance of a rule (the rule, for one task or schedule) stands. */
export type AlertPhase = "pending" | "firing" | "resolved";

/** The state of one instance of a rule. */
export interface AlertState {
  /** The rule's name. */
  rule: string;
  /** What the instance is about: a task, a schedule's name, or null for the store. */
  subject: string | null;
  /** The task it concerns, when there is one. */
  task: string | null;
  /** Where it stands. */
  phase: AlertPhase;
  /** When the condition started to hold (pending since), ms since the epoch. */
  pendingSince: number;
  /** When it fired, or null while pending. */
  firingSince: number | null;
  /** When it resolved, or null. */
  resolvedAt: number | null;
  /** The last figure seen; null when it cannot be measured (Redis unreachable). */
  figure: number | null;
  /** When a notice for this incident was last sent (not silenced), or null. */
  notifiedAt: number | null;
  /**
   * When a muted notice of this firing was last kept in the history (absent:
   * never): kept again only once `repeat` has passed, not on every pass.
   */
  mutedAt?: number;
}

/** The alert states the last evaluation left, and when it ran (ms; null: unknown). */
export interface AlertStatus {
  /** When the states were evaluated, ms since the epoch; null when not known. */
  asOf: number | null;
  /** Every instance's state. */
  states: AlertState[];
  /**
   * The rules that evaluation read, by name (absent: not recorded, as boards
   * before it wrote them). A rule not among them was not evaluated: another
   * board's file declares it, or it was stored since.
   */
  evaluated?: string[];
  /**
   * When a board first saw taskora's migration lock, for a lock whose
   * payload has no numeric `startedAt` (or is not JSON): the
   * `migrationLock` rule counts from then, and the next leader goes on from
   * it. `lock` tells this lock from the next one: its payload, cut to
   * {@link LOCK_SEEN_CHARS}.
   */
  lockSeen?: { lock: string; at: number };
}

/** {@link AlertStatus.lockSeen}: when a lock that does not say when it started was first seen. */
export type LockSeen = NonNullable<AlertStatus["lockSeen"]>;

/** The most of a lock's payload {@link LockSeen} keeps. */
export const LOCK_SEEN_CHARS = 1000;

/** What a pass leaves beside its states (see {@link AlertStatus}). */
export interface AlertPassNotes {
  /** The rules it read, by name. */
  evaluated?: readonly string[];
  lockSeen?: LockSeen;
}

/** What an evaluation writes: the {@link AlertStatus} it leaves. */
export interface AlertStatusWrite extends AlertPassNotes {
  asOf: number | null;
  states: readonly AlertState[];
}

/** What a sink receives (the generic webhook's body). */
export interface AlertNotice {
  /** The rule's name. */
  rule: string;
  /** The rule's kind; `test` for a test notice. */
  kind: AlertKind | "test";
  /** Whether it fires, or has just resolved. */
  state: "firing" | "resolved";
  /** The dedupe key: the same for every notice of one incident, new for the next. */
  key: string;
  /** The task, when the rule is about one. */
  task: string | null;
  /** The schedule, for `scheduleMissed`. */
  schedule?: string;
  /** The figure measured, in the threshold's unit; null when it cannot be (Redis unreachable). */
  figure: number | null;
  /** The rule's threshold. */
  threshold: number;
  /** Its unit. */
  unit: ThresholdUnit;
  /** Firing since (or, resolved, the incident's start), ms since the epoch. */
  since: number;
  /** When the notice was made, ms since the epoch. */
  at: number;
  /** Whether it repeats an earlier notice of the same incident. */
  repeat: boolean;
  /** The board page to look at. */
  link: string;
  /** A sentence for a human. */
  summary: string;
  /** Present on a test notice (`POST /alerts/test`) only: nothing fires. */
  test?: true;
  /**
   * A grouped notice only (a rule with several alerts to tell on one pass):
   * the first {@link MAX_GROUPED_ALERTS} of them, firing ones first.
   */
  alerts?: GroupedAlert[];
  /** A grouped notice only: how many alerts it tells of in all, `alerts` and the rest. */
  count?: number;
}

/** One alert of a grouped notice: what a notice of it alone would say of it. */
export type GroupedAlert = Pick<
  AlertNotice,
  "key" | "state" | "task" | "schedule" | "figure" | "since" | "repeat" | "link" | "summary"
>;

/**
 * The most alerts a grouped notice lists: a storm over 1,000 tasks is one
 * notice of a few kB (its `count` says how many there are), not 1,000 posts.
 */
export const MAX_GROUPED_ALERTS = 20;

/** What became of one notice at one sink. */
export interface AlertDelivery {
  /** The sink's name. */
  sink: string;
  /** Whether the sink took it (a 2xx answer) within the sink's retries. */
  outcome: "delivered" | "failed";
  /** Attempts made, the first included. */
  attempts: number;
  /**
   * Why the last attempt failed (`HTTP 500`, `timed out after 10000 ms`,
   * `connection failed`), null when delivered. Never the URL: a Slack
   * webhook's URL is its secret.
   */
  error: string | null;
}

/** One notice in the history, with what became of it. */
export interface AlertHistoryEntry {
  /** The notice, as sent (or as it would have been). */
  notice: AlertNotice;
  /** Per sink; empty when a silence muted it. */
  deliveries: AlertDelivery[];
  /** The silence that muted it, or null. */
  silencedBy: string | null;
}

/** The most alert states kept (rules × tasks in scope): the evaluator's bound. */
export const MAX_ALERT_STATES = 10_000;

/** Default of how many notices the history keeps, newest first. */
export const ALERT_HISTORY_ENTRIES = 1000;

/** Where a rule comes from: `code` (the `alerts` option or `--alerts FILE`, read-only) or `stored` (made through the API). */
export type AlertRuleOrigin = "code" | "stored";

/** One instance of a rule as `GET /alerts` shows it: its state, and whether a silence mutes it now. */
export type AlertInstanceView = Omit<AlertState, "rule" | "mutedAt"> & { muted: boolean };

/** A rule with where it stands, as `GET /alerts` shows it. */
export interface AlertRuleView {
  name: string;
  kind: AlertKind;
  /** null: every task. */
  tasks: string[] | null;
  threshold: number;
  unit: ThresholdUnit;
  windowMs: number | null;
  minFinished: number | null;
  forMs: number;
  repeatMs: number;
  sinks: string[];
  /**
   * Its sinks the configuration no longer has (the alerts file changed since
   * the rule was stored): its notices reach none of them.
   */
  unknownSinks: string[];
  origin: AlertRuleOrigin;
  /**
   * The worst of its alerts: `firing` over `pending` over `ok` (none, or
   * resolved only); `notEvaluated` when the last evaluation did not read the
   * rule (none yet, or the evaluating board's rules lack it).
   */
  state: "ok" | "pending" | "firing" | "notEvaluated";
  /** The earliest `firingSince` of its firing alerts; null when none fires. */
  firingSince: number | null;
  alerts: AlertInstanceView[];
}

/** A sink by name and type: never its URL or secret. */
export interface AlertSinkView {
  name: string;
  type: "webhook" | "slack";
}

/** `GET /alerts`: the rules with their state, the sinks by name, the silences in force. */
export interface AlertsOverview {
  /** Whether the `alerts` option or `--alerts FILE` was given. */
  enabled: boolean;
  evaluateEveryMs: number;
  /** When the rules were last evaluated (ms), by whichever board led; null before the first pass. */
  asOf: number | null;
  /** How many alerts fire that no silence mutes (instances). */
  firing: number;
  /** How many alerts fire that a silence mutes now, apart from `firing`. */
  silenced: number;
  sinks: AlertSinkView[];
  rules: AlertRuleView[];
  silences: AlertSilence[];
}

/** `POST /alerts/silences`: what to mute, until when (`until`, or `duration` from now), and why. */
export interface SilenceRequest {
  scope: AlertSilence["scope"];
  /** When it ends, ms since the epoch; or give `duration`. */
  until?: number;
  /** How long from now (`"30m"`, `"2h"`, at most `"30d"`); or give `until`. */
  duration?: string;
  reason: string;
}

/** `POST /alerts/test`: what became of a test notice sent to `sink`. */
export interface TestNoticeResponse {
  sink: string;
  outcome: "delivered" | "failed";
  /** Why the last attempt failed (`HTTP 500`…), when it did. */
  reason?: string;
  /** Attempts made, the first included. */
  attempts: number;
}

/** What a removal answers. */
export interface AlertRemoved {
  removed: true;
}

/** `GET /alerts/history`: the newest notices first. */
export interface AlertHistoryResponse {
  entries: AlertHistoryEntry[];
}

/** The most rules kept in the store (made through the API). */
export const MAX_STORED_RULES = 200;

/** The most silences in force kept in the store; ended ones are dropped as new ones come. */
export const MAX_SILENCES = 200;

/** What storing a rule came to: stored, or why not. */
export type RuleSaveOutcome = "saved" | "exists" | "missing" | "full";

/** The most error shapes the `newErrorGroup` rule keeps, in the leader and in the store. */
export const MAX_KNOWN_SHAPES = 5000;

/** The longest part of an error shape kept: enough to tell errors apart, a bound on memory. */
export const KNOWN_SHAPE_CHARS = 300;

/**
 * A shape unseen for this long is forgotten (the rule's "not seen in the
 * last 24 h"); the store's copy expires this long after the leader last wrote it.
 */
export const KNOWN_SHAPES_TTL_MS = 24 * 3_600_000;

/** An error shape the `newErrorGroup` rule saw on a task's dead letters. */
export interface KnownShape {
  /** The task whose dead letters have it. */
  task: string;
  /** At most {@link KNOWN_SHAPE_CHARS} characters. */
  shape: string;
  /** When first seen (ms); null for what the first pass found, there before any board looked. */
  first: number | null;
  /** When last seen (ms). */
  last: number;
}

/** The shapes the leader keeps in the store, so the next leader carries on from them. */
export interface KnownShapesRecord {
  /** When the first leader's first pass took what it found as known (ms). */
  baselineAt: number;
  /** Every shape kept, each of one task. */
  shapes: KnownShape[];
}

/** What the leader writes after a pass: the shapes it saw, and those it forgot. */
export interface KnownShapesChange {
  /** When the first leader's first pass took what it found as known (ms). */
  baselineAt: number;
  /** Replace what is stored by `seen` (a write failed, or the store holds too many). */
  whole: boolean;
  /** Shapes seen since the last write (with `whole`, every shape kept). */
  seen: KnownShape[];
  /** Shapes forgotten since the last write. */
  forgotten: { task: string; shape: string }[];
}
