/**
 * The simulated deployment: which tasks it runs, how often and how long, how
 * they fail, what they log, which workflows and schedules it has. Data only;
 * `simulator.ts` runs it.
 *
 * @module
 */

import type { Dice } from "./random.ts";
import type { ScheduleConfig } from "../types.ts";

/** A log line a job writes, without its timestamp. */
export interface LogLine {
  level: "info" | "warn" | "error" | "debug";
  message: string;
  meta?: Record<string, unknown>;
}

/** How one simulated task behaves. */
export interface TaskProfile {
  name: string;
  /** Mean dispatches per minute. */
  perMinute: number;
  /** Run time range of one attempt, ms. */
  durationMs: readonly [number, number];
  /** Jobs one worker runs at once. */
  concurrency: number;
  /** Chance an attempt fails. */
  failRate: number;
  maxAttempts: number;
  /** First retry delay; doubles per attempt (exponential backoff). */
  backoffMs: number;
  /** Task versions (`_v`) jobs are dispatched with, and their weights. */
  versions: readonly (readonly [number, number])[];
  /** Share of dispatches with a priority (1–10). */
  priorityShare: number;
  /** Share of dispatches delayed, and by how long (ms). */
  delayShare: number;
  delayMs: readonly [number, number];
  /**
   * Share of dispatches that are reminders with a TTL shorter than their
   * delay: they always expire when promoted.
   */
  expiringShare: number;
  /** How the job reports progress, if it does. */
  progress: "percent" | "stages" | null;
  data(dice: Dice): unknown;
  result(dice: Dice, data: unknown): unknown;
  /** Error makers: each gives the same problem with different numbers and ids. */
  errors: readonly ((dice: Dice) => string)[];
  /** What an attempt logs when it starts. */
  startLog(dice: Dice, data: unknown): LogLine;
}

const users = ["ada", "grace", "linus", "margaret", "ken", "barbara", "alan", "edsger"];

function hexId(dice: Dice, length: number): string {
  // Starts with a digit so the DLQ grouping sees it as an id, not a word.
  return `${dice.int(1, 9)}${dice.hex(length - 1)}`;
}

/** The tasks of the demo deployment. */
export const TASK_PROFILES: readonly TaskProfile[] = [
  {
    name: "send-email",
    perMinute: 30,
    durationMs: [150, 1_200],
    concurrency: 4,
    failRate: 0.12,
    maxAttempts: 3,
    backoffMs: 2_000,
    versions: [[1, 1], [2, 3], [3, 6]],
    priorityShare: 0.15,
    delayShare: 0.08,
    delayMs: [5_000, 60_000],
    expiringShare: 0,
    progress: null,
    data: (dice) => {
      const user = dice.pick(users);
      return {
        to: `${user}${dice.int(1, 99)}@example.com`,
        template: dice.pick(["welcome", "invoice", "password-reset", "digest"]),
        locale: dice.pick(["en", "de", "fr"]),
      };
    },
    result: (dice) => ({ messageId: `<${dice.hex(16)}@mail.example.com>`, accepted: 1 }),
    errors: [
      (dice) => `SMTP timeout after ${dice.int(2_900, 3_200)} ms`,
      (dice) => `Mailbox full for u${dice.int(1_000, 99_999)}@example.com`,
      (dice) => `421 Too many connections from 10.0.0.${dice.int(2, 40)}`,
    ],
    startLog: (dice) => ({
      level: "info",
      message: "connecting to SMTP relay",
      meta: { host: `smtp-${dice.int(1, 3)}.mail.internal`, port: 587, apiKey: "sk-live-4f2a9c1e" },
    }),
  },
  {
    name: "resize-image",
    perMinute: 20,
    durationMs: [400, 2_500],
    concurrency: 3,
    failRate: 0.08,
    maxAttempts: 2,
    backoffMs: 1_500,
    versions: [[2, 2], [3, 5]],
    priorityShare: 0.1,
    delayShare: 0.03,
    delayMs: [3_000, 20_000],
    expiringShare: 0,
    progress: "percent",
    data: (dice) => ({
      url: `https://cdn.example.com/uploads/${dice.hex(12)}.jpg`,
      width: dice.pick([320, 640, 1280]),
    }),
    result: (dice, data) => ({
      url: `https://cdn.example.com/resized/${dice.hex(12)}.webp`,
      width: (data as { width?: number } | null)?.width ?? 640,
      bytes: dice.int(20_000, 400_000),
    }),
    errors: [
      (dice) => `Image ${hexId(dice, 12)} too large (${dice.int(11, 48)} MB)`,
      () => "Unsupported format: image/heic",
    ],
    startLog: (dice) => ({
      level: "info",
      message: "downloading source image",
      meta: { bucket: "uploads", region: dice.pick(["eu-west-1", "us-east-1"]) },
    }),
  },
  {
    name: "generate-report",
    perMinute: 3,
    durationMs: [4_000, 15_000],
    concurrency: 1,
    failRate: 0.1,
    maxAttempts: 2,
    backoffMs: 5_000,
    versions: [[1, 1]],
    priorityShare: 0.3,
    delayShare: 0.1,
    delayMs: [10_000, 90_000],
    expiringShare: 0,
    progress: "stages",
    data: (dice) => ({
      reportId: `rpt_${dice.int(1_000, 9_999)}`,
      scope: dice.pick(["sales", "inventory", "signups"]),
      range: dice.pick(["24h", "7d", "30d"]),
    }),
    result: (dice) => ({ rows: dice.int(100, 90_000), url: `s3://reports/${dice.hex(10)}.csv` }),
    errors: [
      (dice) =>
        `Query timeout after ${dice.int(29_000, 31_000)} ms on reports_${dice.int(2023, 2025)}`,
      (dice) => `Connection refused 10.0.0.${dice.int(2, 12)}:5432`,
    ],
    startLog: () => ({
      level: "info",
      message: "opening warehouse connection",
      meta: { dsn: "postgres://reporter@warehouse:5432/analytics", password: "s3cr3t-pw" },
    }),
  },
  {
    name: "sync-inventory",
    perMinute: 6,
    durationMs: [1_500, 6_000],
    concurrency: 2,
    failRate: 0.15,
    maxAttempts: 4,
    backoffMs: 3_000,
    versions: [[1, 2], [2, 3]],
    priorityShare: 0,
    delayShare: 0.05,
    delayMs: [5_000, 30_000],
    expiringShare: 0,
    progress: "percent",
    data: (dice) => ({
      warehouse: `warehouse-${dice.int(1, 5)}`,
      skus: dice.int(50, 2_000),
    }),
    result: (dice) => ({ updated: dice.int(0, 500), unchanged: dice.int(0, 1_500) }),
    errors: [
      (dice) => `Connection refused 10.0.0.${dice.int(2, 12)}:5432`,
      (dice) => `HTTP 503 from warehouse-${dice.int(1, 5)} (request ${dice.uuid()})`,
      (dice) => `Rate limited by supplier API: retry after ${dice.int(10, 90)} s`,
    ],
    startLog: (dice) => ({
      level: "info",
      message: "fetching stock levels",
      meta: {
        endpoint: `https://api.supplier-${dice.int(1, 3)}.example/v2/stock`,
        token: "tok_9f8e7d",
      },
    }),
  },
  {
    name: "transcode-video",
    perMinute: 1.5,
    durationMs: [15_000, 45_000],
    concurrency: 2,
    failRate: 0.1,
    maxAttempts: 2,
    backoffMs: 10_000,
    versions: [[1, 1]],
    priorityShare: 0.2,
    delayShare: 0,
    delayMs: [0, 0],
    expiringShare: 0,
    progress: "stages",
    data: (dice) => ({
      file: `uploads/${dice.hex(8)}.mov`,
      preset: dice.pick(["1080p", "720p", "480p"]),
    }),
    result: (dice) => ({ output: `videos/${dice.hex(8)}.mp4`, seconds: dice.int(10, 600) }),
    errors: [
      (dice) => `ffmpeg exited with code ${dice.pick([1, 137, 255])} (segment ${dice.int(1, 60)})`,
      (dice) => `Out of memory while encoding segment ${dice.int(1, 60)}`,
    ],
    startLog: (dice) => ({
      level: "info",
      message: "probing input",
      meta: { codec: dice.pick(["h264", "hevc", "prores"]), container: "mov" },
    }),
  },
  {
    name: "notify-user",
    perMinute: 36,
    durationMs: [40, 300],
    concurrency: 6,
    failRate: 0.05,
    maxAttempts: 3,
    backoffMs: 1_000,
    versions: [[1, 1]],
    priorityShare: 0.05,
    delayShare: 0.05,
    delayMs: [2_000, 15_000],
    expiringShare: 0.04,
    progress: null,
    data: (dice) => ({
      userId: dice.int(1, 50_000),
      channel: dice.pick(["push", "sms", "in-app"]),
      text: dice.pick(["Your order shipped", "New login", "Weekly summary ready"]),
    }),
    result: (dice) => ({ delivered: true, provider: dice.pick(["apns", "fcm", "twilio"]) }),
    errors: [
      (dice) => `Push token expired for device ${hexId(dice, 16)}`,
      (dice) => `APNs responded 410 for user ${dice.int(1, 50_000)}`,
    ],
    startLog: (dice) => ({
      level: "debug",
      message: "resolving device tokens",
      meta: { provider: dice.pick(["apns", "fcm"]), authorization: "Bearer eyJhbGciOi" },
    }),
  },
];

/** A node of a workflow shape: a task and the nodes it waits for. */
export interface ShapeNode {
  task: string;
  deps: number[];
}

/** A workflow shape: its display name (as taskora names it) and its nodes. */
export interface WorkflowShape {
  kind: "chain" | "group" | "chord";
  name: string;
  nodes: readonly ShapeNode[];
}

/** The workflow shapes the simulator starts, nesting included. */
export const WORKFLOW_SHAPES: readonly WorkflowShape[] = [
  {
    kind: "chain",
    name: "chain(sync-inventory → generate-report → send-email)",
    nodes: [
      { task: "sync-inventory", deps: [] },
      { task: "generate-report", deps: [0] },
      { task: "send-email", deps: [1] },
    ],
  },
  {
    kind: "group",
    name: "group(chain(resize-image → notify-user), send-email)",
    nodes: [
      { task: "resize-image", deps: [] },
      { task: "notify-user", deps: [0] },
      { task: "send-email", deps: [] },
    ],
  },
  {
    kind: "chord",
    name: "chord(resize-image, resize-image, resize-image → generate-report)",
    nodes: [
      { task: "resize-image", deps: [] },
      { task: "resize-image", deps: [] },
      { task: "resize-image", deps: [] },
      { task: "generate-report", deps: [0, 1, 2] },
    ],
  },
  {
    kind: "chain",
    name: "chain(chord(resize-image, resize-image → sync-inventory) → notify-user)",
    nodes: [
      { task: "resize-image", deps: [] },
      { task: "resize-image", deps: [] },
      { task: "sync-inventory", deps: [0, 1] },
      { task: "notify-user", deps: [2] },
    ],
  },
];

/** A schedule of the demo deployment; `paused` ones have no next run. */
export interface ScheduleProfile {
  name: string;
  config: ScheduleConfig;
  paused?: boolean;
}

/** The demo's schedules: interval and cron ones, one paused. */
export const SCHEDULE_PROFILES: readonly ScheduleProfile[] = [
  {
    name: "inventory-sync",
    config: {
      task: "sync-inventory",
      data: { warehouse: "warehouse-1", skus: 500 },
      every: 120_000,
      onMissed: "skip",
      overlap: false,
    },
  },
  {
    name: "hourly-digest",
    config: {
      task: "send-email",
      data: { to: "ops@example.com", template: "digest", locale: "en" },
      cron: "0 * * * *",
      timezone: "UTC",
      onMissed: "skip",
      overlap: false,
    },
  },
  {
    name: "nightly-report",
    config: {
      task: "generate-report",
      data: { reportId: "rpt_nightly", scope: "sales", range: "24h" },
      cron: "0 3 * * *",
      timezone: "UTC",
      onMissed: "run-once",
      overlap: false,
    },
  },
  {
    name: "weekly-cleanup",
    config: { task: "sync-inventory", every: 604_800_000, onMissed: "skip", overlap: false },
    paused: true,
  },
];
