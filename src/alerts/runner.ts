/**
 * The alert evaluator of one board: every `evaluateEvery`, on the board's
 * leader only, it reads the alert states the last evaluation left (in the
 * store, so a leader taking over carries on), reads a snapshot, evaluates,
 * writes the new states, and only then sends the notices, recording each
 * with its outcome in the history. Writing first means a leader that dies
 * mid-pass can lose a notice (the history lacks it too) but never has it
 * sent twice by the next one.
 *
 * @module
 */

import {
  ALERT_HISTORY_ENTRIES,
  type AlertHistoryEntry,
  type AlertsConfig,
  type AlertState,
} from "../contract/alerts.ts";
import type { Leadership } from "../leadership.ts";
import type { TaskSource } from "../source/types.ts";
import type { Timers } from "../timers.ts";
import { deliverNotice } from "./delivery.ts";
import { evaluateRules, type PlannedNotice, stateKey } from "./evaluate.ts";
import { KnownShapes } from "./known_shapes.ts";
import { readSnapshot } from "./snapshot.ts";

/** What the evaluator runs on. */
export interface AlertEvaluatorDeps {
  source: TaskSource;
  /** Validated configuration with at least one rule. */
  config: AlertsConfig;
  /** The board's leadership: only its leader evaluates. */
  leadership: Leadership;
  /** The interval and the sinks' timeouts and backoff. */
  timers: Timers;
  /** Wall-clock time, ms since the epoch: stored in the states, read by the next leader. */
  clock: () => number;
  /** The notices' links start with `config.boardUrl`, else this (default `""`). */
  basePath?: string;
}

/** A running evaluator. */
export interface AlertEvaluator {
  /** Stops the interval and waits for a pass under way (its notices included). */
  close(): Promise<void>;
}

/** History entries kept in the process while the store does not take them. */
const UNSAVED_HISTORY = 100;

/**
 * Starts evaluating `config.rules` every `config.evaluateEveryMs`; a pass
 * still running when the next is due makes that one skip.
 */
export function startAlertEvaluator(deps: AlertEvaluatorDeps): AlertEvaluator {
  const { source, config, leadership, timers, clock } = deps;
  const boardUrl = config.boardUrl ?? (deps.basePath === "/" ? "" : deps.basePath ?? "");
  const shapes = new KnownShapes();
  // The last states this process computed: what it carries on from when the store does not answer.
  let states = new Map<string, AlertState>();
  let unsaved: AlertHistoryEntry[] = [];
  let running: Promise<void> | null = null;

  async function readStates(): Promise<Map<string, AlertState>> {
    if (!source.readAlertStates) return states;
    try {
      const stored = await source.readAlertStates();
      return new Map(stored.map((state) => [stateKey(state.rule, state.subject), state]));
    } catch {
      return states;
    }
  }

  async function send({ notice, sinks, silencedBy }: PlannedNotice): Promise<AlertHistoryEntry> {
    if (silencedBy !== null) return { notice, deliveries: [], silencedBy };
    const targets = config.sinks.filter((sink) => sinks.includes(sink.name));
    const deliveries = await Promise.all(
      targets.map((sink) => deliverNotice(sink, notice, { timers, clock })),
    );
    return { notice, deliveries, silencedBy };
  }

  async function keep(entries: AlertHistoryEntry[]): Promise<void> {
    const pending = [...unsaved, ...entries];
    if (pending.length === 0 || !source.appendAlertHistory) return;
    try {
      await source.appendAlertHistory(pending, ALERT_HISTORY_ENTRIES);
      unsaved = [];
    } catch {
      unsaved = pending.slice(-UNSAVED_HISTORY);
    }
  }

  async function evaluate(): Promise<void> {
    if (!leadership.leads()) return;
    const now = clock();
    const previous = await readStates();
    const snapshot = await readSnapshot(source, config.rules, now);
    const next = evaluateRules({
      rules: config.rules,
      snapshot,
      states: previous,
      silences: [],
      shapes,
      now,
      boardUrl,
    });
    // The lease may have run out while reading: the next leader evaluates instead.
    if (!leadership.isLeading) return;
    states = next.states;
    await source.writeAlertStates?.([...next.states.values()]).catch(() => {});
    await keep(await Promise.all(next.notices.map(send)));
  }

  // Competing from the start, the first pass already leads: a breach is told within one
  // interval plus its rule's `for`.
  leadership.leads();
  const interval = timers.setInterval(() => {
    running ??= evaluate().catch(() => {}).finally(() => running = null);
  }, config.evaluateEveryMs);
  timers.unref(interval);

  return {
    async close() {
      timers.clearInterval(interval);
      await running;
    },
  };
}
