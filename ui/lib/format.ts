/**
 * Number, size, duration and time formatting shared by the pages.
 *
 * @module
 */
import { countOf } from "../../src/contract/plural.ts";
import { sameDay, zonedFormat, zoneLabel, type ZoneOptions } from "./time_zone.ts";

const integer = new Intl.NumberFormat("en-US");

/** `12345` → `12,345`; non-numbers → `—`. */
export function formatCount(n: unknown): string {
  return typeof n === "number" && Number.isFinite(n) ? integer.format(n) : "—";
}

const compact = new Intl.NumberFormat("en-US", {
  notation: "compact",
  maximumFractionDigits: 2,
});

/** Like {@link formatCount}, but `1,656,008` → `1.66M` from a million up. */
export function formatCompact(n: unknown): string {
  return typeof n === "number" && Math.abs(n) >= 1e6 ? compact.format(n) : formatCount(n);
}

const short = new Intl.NumberFormat("en-US", {
  notation: "compact",
  maximumFractionDigits: 1,
});

/**
 * A count in a few characters, for tight places such as an axis:
 * `950`, `10k`, `250k`, `1.5M`. Thousands are a lower-case `k` (the SI
 * prefix, as people write rates), millions and up as `Intl` names them.
 */
export function formatShortCount(n: number): string {
  return short.format(n).replace("K", "k");
}

/** Bytes → `1.4 MB`; strings (Redis' own `used_memory_human`) pass through. */
export function formatBytes(value: number | string): string {
  if (typeof value === "string") return value;
  if (!Number.isFinite(value)) return "—";
  const units = ["B", "KB", "MB", "GB", "TB"];
  let n = value;
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${i === 0 ? n : n.toFixed(1)} ${units[i]}`;
}

/** Seconds → `3d 4h`, `5h 12m`, `42s`. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "—";
  const s = Math.floor(seconds);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  // The smaller unit only when it says something: "30d", not "30d 0h".
  const pair = (big: string, small: number, unit: string) =>
    small > 0 ? `${big} ${small}${unit}` : big;
  if (d > 0) return pair(`${d}d`, h, "h");
  if (h > 0) return pair(`${h}h`, m, "m");
  if (m > 0) return pair(`${m}m`, s % 60, "s");
  return `${s}s`;
}

const DATE_TIME: Intl.DateTimeFormatOptions = {
  year: "numeric",
  month: "short",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
};

/**
 * Epoch ms → date and time with the zone they are in:
 * `Nov 23, 2026, 14:03:12 UTC+01:00` in the browser's zone,
 * `Nov 24, 2026, 03:00:00 Asia/Tokyo (UTC+09:00)` in a chosen one; null → `—`.
 */
export function formatDateTime(ms: number | null | undefined, options: ZoneOptions = {}): string {
  if (typeof ms !== "number" || !Number.isFinite(ms)) return "—";
  return `${zonedFormat("date-time", DATE_TIME, options).format(ms)} ${
    zoneLabel(ms, options.timeZone)
  }`;
}

const CLOCK: Intl.DateTimeFormatOptions = {
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  fractionalSecondDigits: 3,
};

/**
 * A log line's time: to the millisecond (lines of one attempt are often a
 * few ms apart), with the day in front when it is not the day of `now`:
 * `14:03:12.345`, `Nov 22, 14:03:12.345`.
 */
export function formatLogTime(ms: number, now: number, options: ZoneOptions = {}): string {
  const clock = zonedFormat("log-clock", CLOCK, options).format(ms);
  if (sameDay(ms, now, options.timeZone)) return clock;
  const day = zonedFormat("log-day", { month: "short", day: "numeric" }, options).format(ms);
  return `${day}, ${clock}`;
}

const clock = new Intl.DateTimeFormat(undefined, {
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

/** Epoch ms → local time of day (`14:03:12`); null → `—`. */
export function formatClock(ms: number | null | undefined): string {
  return typeof ms === "number" && Number.isFinite(ms) ? clock.format(ms) : "—";
}

/** Epoch ms → `3m ago` / `in 12s`, relative to `now`; null → `—`. */
export function formatRelative(ms: number | null | undefined, now: number = Date.now()): string {
  if (typeof ms !== "number" || !Number.isFinite(ms)) return "—";
  const delta = (ms - now) / 1000;
  if (Math.abs(delta) < 1) return "now";
  const span = formatDuration(Math.abs(delta));
  return delta < 0 ? `${span} ago` : `in ${span}`;
}

/** Milliseconds → `27 ms`, `1.4 s`, then as {@link formatDuration} (`3m 12s`); negative → `—`. */
export function formatElapsed(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return formatDuration(ms / 1000);
}

/**
 * `1` → `1 job`, `1200` → `1,200 jobs` (`noun` singular; `plural` when not
 * just `+s`), the noun agreeing by `Intl.PluralRules` (see `countOf`).
 */
export function formatCountOf(n: number, noun: string, plural = `${noun}s`): string {
  return countOf(n, noun, plural, formatCount);
}

/**
 * An id as the board shows it: its first 8 characters, enough to tell jobs
 * apart on a page, and what the job search finds a job by.
 */
export function shortId(id: string): string {
  return id.slice(0, 8);
}
