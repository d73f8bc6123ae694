/**
 * A line diff of two texts (a job's data before and after an edit): the
 * common start and end are skipped, then the longest common subsequence of
 * the lines left, at most {@link MAX_DIFF_LINES} on either side (the table
 * grows with their product), so a diff never stalls the page.
 *
 * @module
 */

/** Most changed lines per side a diff compares (after the common start and end). */
export const MAX_DIFF_LINES = 2000;

/** One line of a diff. */
export interface DiffLine {
  /** Kept, removed (only before) or added (only after). */
  kind: "same" | "removed" | "added";
  text: string;
}

/** A run of unchanged lines a {@link collapse} left out. */
export interface DiffGap {
  kind: "gap";
  /** How many lines it stands for. */
  lines: number;
}

/**
 * The lines of `after` against `before`, or null when the part that differs
 * has more than {@link MAX_DIFF_LINES} lines on a side.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(
 *   lineDiff("a\nb", "a\nc"),
 *   [{ kind: "same", text: "a" }, { kind: "removed", text: "b" }, { kind: "added", text: "c" }],
 * );
 * ```
 */
export function lineDiff(before: string, after: string): DiffLine[] | null {
  const a = before.split("\n");
  const b = after.split("\n");
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  if (n > MAX_DIFF_LINES || m > MAX_DIFF_LINES) return null;
  // Lines as numbers, so the n × m loop compares integers, not strings.
  const ids = new Map<string, number>();
  const idOf = (line: string) => ids.get(line) ?? ids.set(line, ids.size).size - 1;
  const idA = Int32Array.from(a.slice(start, endA), idOf);
  const idB = Int32Array.from(b.slice(start, endB), idOf);
  // common[i * width + j]: the LCS length of a[start + i ..] and b[start + j ..] (≤ 2,000: fits 16 bits).
  const width = m + 1;
  const common = new Uint16Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      common[i * width + j] = idA[i] === idB[j]
        ? common[(i + 1) * width + j + 1] + 1
        : Math.max(common[(i + 1) * width + j], common[i * width + j + 1]);
    }
  }
  const lines: DiffLine[] = a.slice(0, start).map((text) => ({ kind: "same", text }));
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[start + i] === b[start + j]) {
      lines.push({ kind: "same", text: a[start + i] });
      i++;
      j++;
    } else if (j >= m || (i < n && common[(i + 1) * width + j] >= common[i * width + j + 1])) {
      lines.push({ kind: "removed", text: a[start + i++] });
    } else {
      lines.push({ kind: "added", text: b[start + j++] });
    }
  }
  for (const text of a.slice(endA)) lines.push({ kind: "same", text });
  return lines;
}

/**
 * The diff with each run of unchanged lines longer than twice `context`
 * cut to its first and last `context` lines around a {@link DiffGap}.
 */
export function collapse(lines: readonly DiffLine[], context = 3): (DiffLine | DiffGap)[] {
  const out: (DiffLine | DiffGap)[] = [];
  for (let at = 0; at < lines.length;) {
    if (lines[at].kind !== "same") {
      out.push(lines[at++]);
      continue;
    }
    let end = at;
    while (end < lines.length && lines[end].kind === "same") end++;
    const keepHead = at === 0 ? 0 : context;
    const keepTail = end === lines.length ? 0 : context;
    if (end - at > keepHead + keepTail + 1) {
      out.push(...lines.slice(at, at + keepHead));
      out.push({ kind: "gap", lines: end - at - keepHead - keepTail });
      out.push(...lines.slice(end - keepTail, end));
    } else {
      out.push(...lines.slice(at, end));
    }
    at = end;
  }
  return out;
}
