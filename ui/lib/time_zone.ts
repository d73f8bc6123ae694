/**
 * Time zones for people: the offset of a zone at an instant (`UTC+01:00`),
 * a zone named with it (`Asia/Tokyo (UTC+09:00)`), date formatters bound to
 * a zone (cached), and whether two instants fall on the same day there.
 *
 * A zone the browser does not know (a schedule may carry anything) is
 * shown in the browser's own zone, labelled with that zone's offset, so a
 * time is never shown under a name it is not in.
 *
 * @module
 */

/** Where and how a time is shown: `timeZone` (an IANA name; the browser's when left out) and `locale`. */
export interface ZoneOptions {
  timeZone?: string;
  /** A BCP 47 locale; the browser's when left out. */
  locale?: string;
}

const known = new Map<string, boolean>();

/** Whether the browser knows an IANA zone name. */
export function isTimeZone(zone: string): boolean {
  let ok = known.get(zone);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: zone });
      ok = true;
    } catch {
      ok = false;
    }
    // Zone names are a closed set; anything else is not remembered.
    if (ok) known.set(zone, ok);
  }
  return ok;
}

/** The zone to format in: the given one when the browser knows it, else the browser's. */
function usable(timeZone: string | undefined): string | undefined {
  return timeZone && isTimeZone(timeZone) ? timeZone : undefined;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * A date formatter for `fields` in a zone and locale, made once per `name`,
 * zone and locale (the names are the callers' constants: the cache stays small).
 */
export function zonedFormat(
  name: string,
  fields: Intl.DateTimeFormatOptions,
  { timeZone, locale }: ZoneOptions = {},
): Intl.DateTimeFormat {
  const zone = usable(timeZone);
  const key = `${name}|${locale ?? ""}|${zone ?? ""}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...fields, timeZone: zone });
    formats.set(key, format);
  }
  return format;
}

/** The offset of a zone (the browser's when left out) at `at`: `UTC+01:00`, `UTC-03:30`, `UTC`. */
export function offsetLabel(at: number, timeZone?: string): string {
  const offset = zonedFormat("offset", { timeZoneName: "longOffset" }, {
    timeZone,
    locale: "en-US",
  }).formatToParts(at).find((part) => part.type === "timeZoneName")?.value ?? "GMT";
  return offset.replace("GMT", "UTC");
}

/**
 * The zone a time is shown in, named: its offset for the browser's zone
 * (`UTC+01:00`), the IANA name and offset for a chosen one
 * (`Asia/Tokyo (UTC+09:00)`; plain `UTC` for UTC).
 */
export function zoneLabel(at: number, timeZone?: string): string {
  const offset = offsetLabel(at, timeZone);
  const zone = usable(timeZone);
  return zone === undefined || zone === offset ? offset : `${zone} (${offset})`;
}

const DAY_FIELDS: Intl.DateTimeFormatOptions = {
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
};

/** Whether two instants fall on the same calendar day in a zone (the browser's when left out). */
export function sameDay(a: number, b: number, timeZone?: string): boolean {
  const day = zonedFormat("day", DAY_FIELDS, { timeZone, locale: "en-US" });
  return day.format(a) === day.format(b);
}
