/**
 * `useMediaQuery(query)`: whether a CSS media query matches, kept current
 * as the window changes (a phone turned, a window narrowed).
 *
 * @module
 */
import { useEffect, useState } from "preact/hooks";

/** Whether `query` (`"(max-width: 640px)"`) matches now; re-renders when that changes. */
export function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => matchMedia(query).matches);
  useEffect(() => {
    const list = matchMedia(query);
    const changed = () => setMatches(list.matches);
    changed();
    list.addEventListener("change", changed);
    return () => list.removeEventListener("change", changed);
  }, [query]);
  return matches;
}
