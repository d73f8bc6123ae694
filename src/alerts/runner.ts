/**
 * The alert evaluator of one board: every `evaluateEvery`, on the leading
 * evaluator only (its own lease: only boards with alerts compete), it reads
 * the alert states the last evaluation left (in the store, so a leader
 * taking over carries on) and the rules and silences set
 * through the API (in the store too), reads a snapshot, evaluates,
 * writes the new states, and only then sends the notices, one per rule
 * (see `group.ts`), into each sink's own queue (see `sink_queue.ts`)
 * without waiting for them (a sink that does not answer holds up no pass,
 * and no other sink), recording each with its outcome in the history.
 * Writing first means a leader that dies mid-pass can lose a notice (the
 * history lacks it too) but never has it sent twice by the next one.
 *
 * @module
 */

import {
  ALERT_HISTORY_ENTRIES,
  type AlertDelivery,
  type AlertHistoryEntry,
  type AlertPassNotes,
  type AlertRule,
  type AlertsConfig,
  type AlertSilence,
  type AlertState,
  type AlertStatus,
  type LockSeen,
} from "../contract/alerts.ts";
import type { Leadership } from "../leadership.ts";
import type { TaskSource } from "../source/types.ts";
import type { AlertStore } from "../store/alerts.ts";
import type { ChangeFeedStore } from "../store/feed.ts";
import type { Timers } from "../timers.ts";
import { deliverNotice, notDelivered } from "./delivery.ts";
import { evaluateRules, type PlannedNotice, stateKey } from "./evaluate.ts";
import { groupNotices } from "./group.ts";
import type { KnownShapes } from "./known_shapes.ts";
import { boardUrlOf } from "./notice.ts";
import { readKnownShapes, writeKnownShapes } from "./shape_store.ts";
import { SinkQueue } from "./sink_queue.ts";
import { readSnapshot } from "./snapshot.ts";

/** What the evaluator runs on. */
export interface AlertEvaluatorDeps {
  source: TaskSource;
  /**
   * Where the states, the history, the known shapes and the stored rules and
   * silences live, and the live state a pass may take the task figures from.
   */
  store: AlertStore & ChangeFeedStore;
  /** Validated configuration: its rules, and the sinks the stored rules pick among. */
  config: AlertsConfig;
  /** The `alerts` lease's leadership (not the board's): only its leader evaluates. */
  leadership: Leadership;
  /** The interval and the sinks' timeouts and backoff. */
  timers: Timers;
  /** Wall-clock time, ms since the epoch: stored in the states, read by the next leader. */
  clock: () => number;
  /**
   * The live state's oldest age a pass takes the task figures from, ms (the
   * board's stats interval); absent: every pass reads them directly.
   */
  liveMaxAgeMs?: number;
  /**
   * Called at each pass with rules: the board's change feed notes its need,
   * so that the leader keeps the live state the next passes read.
   */
  need?: () => void;
  /** The notices' links start with `config.boardUrl`, else this (default `""`). */
  basePath?: string;
  /** Told what became of each notice sent, per sink (the `/metrics` counters). */
  onDelivery?: (delivery: AlertDelivery) => void;
  /** Told of each notice a sink's full queue dropped, by the sink's name (a `/metrics` counter). */
  onDropped?: (sink: string) => void;
  /** Told each pass's states and the silences it read (the event stream's `alerts` frame). */
  onEvaluated?: (status: AlertStatus, silences: readonly AlertSilence[]) => void;
}

/** A running evaluator. */
export interface AlertEvaluator {
  /**
   * Stops the interval, waits for a pass under way, ends the deliveries in
   * flight (each kept as failed: "the board closed") and their history.
   */
  close(): Promise<void>;
  /** The notices waiting for each sink now (queued, or kept for the next pass), by its name. */
  queued(): Map<string, number>;
}

/** History entries kept in the process while the store does not take them. */
const UNSAVED_HISTORY = 100;

/** The tasks with a `noProgress` alert pending or firing among `states`. */
function openNoProgress(
  rules: readonly AlertRule[],
  states: ReadonlyMap<string, AlertState>,
): Set<string> {
  const kinds = new Map(rules.map((rule) => [rule.name, rule.kind]));
  const open = new Set<string>();
  for (const state of states.values()) {
    if (state.phase === "resolved" || state.task === null) continue;
    if (kinds.get(state.rule) === "noProgress") open.add(state.task);
  }
  return open;
}

/**
 * Starts evaluating `config.rules` every `config.evaluateEveryMs`; a pass
 * still running when the next is due makes that one skip.
 */
export function startAlertEvaluator(deps: AlertEvaluatorDeps): AlertEvaluator {
  const { source, store, config, leadership, timers, clock } = deps;
  const boardUrl = boardUrlOf(config, deps.basePath);
  // Null until this board leads: then read from the store, what the last leader kept.
  let shapes: KnownShapes | null = null;
  // The last states this process computed (at `statesAsOf`): what it carries on from when the
  // store does not answer. One pass's worth, so bounded as a pass is (MAX_ALERT_STATES).
  let states = new Map<string, AlertState>();
  let statesAsOf = 0;
  /** What the pass that made `states` read, written with them when the store takes them late. */
  let statesNotes: AlertPassNotes = {};
  // Whether the store missed this process's last states (it did not answer): then they, not the
  // store's, are current, and they are written once it answers, leading or not.
  let storeBehind = false;
  // The stored rules and silences last read: kept when the store does not answer, so a rule's
  // states are not dropped (and its incident told anew) for a read that failed.
  let stored: AlertRule[] = [];
  // The stored rules the last read no longer had: their firing alerts are told resolved once.
  let removed: AlertRule[] = [];
  let silences: AlertSilence[] = [];
  let unsaved: AlertHistoryEntry[] = [];
  let running: Promise<void> | null = null;
  // History appends one after another, so none loses what another kept back.
  let history: Promise<void> = Promise.resolve();
  // The notices on their way, each until every one of its sinks is done with it: bounded by
  // the sinks' queues.
  const inFlight = new Set<Promise<void>>();
  const closing = new AbortController();
  const queues = new Map(config.sinks.map((sink) => [
    sink.name,
    new SinkQueue(
      sink.name,
      (notice) => deliverNotice(sink, notice, { timers, clock, signal: closing.signal }),
      () => deps.onDropped?.(sink.name),
    ),
  ]));

  // When the stored states were evaluated, as this process last read or wrote them (undefined:
  // unknown): a pass writes only if no other leader wrote since.
  let storedAsOf: number | null | undefined;
  // A write Redis did not confirm may have been applied: then the stored states are its own.
  let unconfirmedAsOf: number | undefined;
  // When the migration lock (one that does not say when it started) was first seen: kept with
  // the states, so a board that leads next counts from the same moment.
  let lockSeen: LockSeen | undefined;

  async function readStates(): Promise<Map<string, AlertState>> {
    if (storeBehind) return states;
    try {
      const status = await store.readAlertStatus();
      storedAsOf = status.asOf;
      unconfirmedAsOf = undefined;
      lockSeen = status.lockSeen;
      return new Map(status.states.map((state) => [stateKey(state.rule, state.subject), state]));
    } catch {
      return states;
    }
  }

  /**
   * Keeps a pass's states and its `notes`: false when another leader wrote
   * since its read (its pass stands).
   */
  async function writeStates(
    next: Map<string, AlertState>,
    now: number,
    notes: AlertPassNotes,
  ): Promise<boolean> {
    const write = store.writeAlertStates.bind(store);
    const attempt = (ifAsOf: number | null | undefined) =>
      write([...next.values()], now, ifAsOf, notes).then((done) => done, () => null);
    let written = await attempt(storedAsOf);
    if (written === false && unconfirmedAsOf !== undefined) {
      written = await attempt(unconfirmedAsOf);
    }
    // Redis came back empty (no persistence): no leader wrote since, so these states are the
    // newest there are, and the incidents they hold are still told resolved.
    if (written === false && storedAsOf !== null) written = await attempt(null);
    if (written === false) {
      storeBehind = false;
      unconfirmedAsOf = undefined;
      return false;
    }
    storeBehind = written === null;
    if (written) storedAsOf = now;
    unconfirmedAsOf = written === null ? now : undefined;
    return true;
  }

  /** The stored rules and silences: one bounded read each, on every pass. */
  async function readSettings(): Promise<void> {
    const [rules, muting] = await Promise.allSettled([
      store.listAlertRules(),
      store.listAlertSilences(),
    ]);
    removed = [];
    if (rules.status === "fulfilled") {
      // A code rule's name wins: the routes refuse to store one, a file changed later may add it.
      const read = rules.value.filter((rule) =>
        !config.rules.some((code) => code.name === rule.name)
      );
      removed = stored.filter((rule) => !read.some((kept) => kept.name === rule.name));
      stored = read;
    }
    if (muting.status === "fulfilled") silences = muting.value;
  }

  async function send({ notice, sinks, silencedBy }: PlannedNotice): Promise<AlertHistoryEntry> {
    if (silencedBy !== null) return { notice, deliveries: [], silencedBy };
    const deliveries = await Promise.all(sinks.map((name) => {
      const queue = queues.get(name);
      // A stored rule may name a sink the configuration dropped since: kept as failed, not lost.
      if (!queue) return notDelivered(name, `no sink named ${name} in the alerts configuration`);
      return queue.offer(notice);
    }));
    return { notice, deliveries, silencedBy };
  }

  function keep(entry: AlertHistoryEntry): Promise<void> {
    if (deps.onDelivery) entry.deliveries.forEach(deps.onDelivery);
    history = history.then(async () => {
      const pending = [...unsaved, entry];
      try {
        await store.appendAlertHistory(pending, ALERT_HISTORY_ENTRIES);
        unsaved = [];
      } catch {
        unsaved = pending.slice(-UNSAVED_HISTORY);
      }
    });
    return history;
  }

  /** Sends a notice without holding up the pass: a sink that does not answer delays nothing. */
  function dispatch(planned: PlannedNotice): void {
    const delivery = send(planned).then(keep).finally(() => inFlight.delete(delivery));
    inFlight.add(delivery);
  }

  async function evaluate(): Promise<void> {
    if (!leadership.leads()) {
      // Another board may lead now: the error shapes it keeps are newer than these. Leading
      // again, this board reads them from the store.
      shapes = null;
      // States the store missed (an outage that also cost this board its lease) are written
      // once it answers, unless a leader wrote since: whoever leads next then tells the
      // incidents they hold resolved, not finding them never fired. Not leading, never over
      // states this board has not seen (none read yet: only into an empty store).
      if (storeBehind) {
        storedAsOf ??= null;
        await writeStates(states, statesAsOf, statesNotes);
      }
      return;
    }
    const now = clock();
    const known = shapes ??= await readKnownShapes(store, now);
    const [previous] = await Promise.all([readStates(), readSettings()]);
    const rules = [...config.rules, ...stored];
    if (rules.length === 0 && previous.size === 0) return;
    if (rules.length > 0) deps.need?.();
    const snapshot = await readSnapshot(source, rules, now, {
      open: openNoProgress(rules, previous),
      lockSeen,
      liveMaxAgeMs: deps.liveMaxAgeMs,
      feed: store.feed,
    });
    const next = evaluateRules({
      rules,
      snapshot,
      states: previous,
      silences,
      shapes: known,
      now,
      boardUrl,
      removed,
    });
    // The lease may have run out while reading: the next leader evaluates instead.
    if (!leadership.isLeading) return;
    // Another leader wrote since this pass read (this one's lease ran out meanwhile): it told
    // what there was to tell, and this pass's notices would be its twins. Its shapes are newer.
    const evaluated = rules.map((rule) => rule.name);
    // A lock the store did not say anything of this pass: as it was.
    const seen = snapshot.migrationLock === null ? lockSeen : snapshot.migrationLock.seen;
    const notes = { evaluated, lockSeen: seen };
    if (!await writeStates(next.states, now, notes)) {
      shapes = null;
      return;
    }
    states = next.states;
    statesAsOf = now;
    statesNotes = notes;
    lockSeen = seen;
    await writeKnownShapes(store, known, now);
    deps.onEvaluated?.({ asOf: now, states: [...next.states.values()], evaluated }, silences);
    groupNotices(next.notices, boardUrl).forEach(dispatch);
  }

  // Competing from the start, the first pass already leads: a breach is told within one
  // interval plus its rule's `for`.
  leadership.leads();
  const interval = timers.setInterval(() => {
    // What a full queue kept back goes out now, ahead of this pass's notices.
    for (const queue of queues.values()) queue.nextPass();
    running ??= evaluate().catch(() => {}).finally(() => running = null);
  }, config.evaluateEveryMs);
  timers.unref(interval);

  return {
    async close() {
      timers.clearInterval(interval);
      await running;
      // What waits is ended before what is under way, so none of it starts meanwhile.
      for (const queue of queues.values()) queue.close();
      closing.abort();
      await Promise.all(inFlight);
      await history;
    },
    queued: () => new Map([...queues].map(([name, queue]) => [name, queue.queued])),
  };
}
