/**
 * A tiny set of 16px stroke icons for the navigation, drawn as SVG paths.
 *
 * @module
 */
import { html } from "../lib/html.ts";

const PATHS = {
  overview: "M3 3h7v9H3zM14 3h7v5h-7zM14 12h7v9h-7zM3 16h7v5H3z",
  tasks: "M8 6h13M8 12h13M8 18h13M3 6h.01M3 12h.01M3 18h.01",
  workflows:
    "M6 3v12M18 9a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM6 21a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM18 9a9 9 0 0 1-9 9",
  schedules: "M12 7v5l3 3M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z",
  dlq:
    "M22 12h-6l-2 3h-4l-2-3H2M5.5 5.1 2 12v6a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2v-6l-3.5-6.9A2 2 0 0 0 16.7 4H7.3a2 2 0 0 0-1.8 1.1z",
  migrations: "M17 2l4 4-4 4M3 11V9a3 3 0 0 1 3-3h15M7 22l-4-4 4-4M21 13v2a3 3 0 0 1-3 3H3",
  activity: "M22 12h-4l-3 9L9 3l-3 9H2",
  history: "M3 12a9 9 0 1 0 3-6.7L3 8M3 3v5h5M12 7v5l4 2",
  reference: "M16 18l6-6-6-6M8 6l-6 6 6 6",
  alerts: "M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9M13.7 21a2 2 0 0 1-3.4 0",
} as const;

/** Name of an available icon. */
export type IconName = keyof typeof PATHS;

/** Renders one icon; decorative (hidden from assistive technology). */
export function Icon({ name }: { name: IconName }) {
  return html`
    <svg class="icon" viewBox="0 0 24 24" aria-hidden="true">
      <path d=${PATHS[name]} />
    </svg>
  `;
}
