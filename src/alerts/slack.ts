/**
 * The Slack incoming webhook's request: the same notice as the generic
 * webhook, as Block Kit blocks (a grouped notice's alerts a line each), with
 * `text` for the push notification.
 *
 * @module
 */

import type { AlertNotice } from "../contract/alerts.ts";

/** What a sink posts: a JSON body and its headers. */
export interface SinkRequest {
  body: string;
  headers: Record<string, string>;
}

/** Slack's mrkdwn gives `&`, `<` and `>` meaning: a task name must not make a link. */
function escaped(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

function field(label: string, value: string): { type: "mrkdwn"; text: string } {
  return { type: "mrkdwn", text: `*${label}*\n${escaped(value)}` };
}

/** The longest text of a Slack section block. */
const SECTION_CHARS = 3000;

/** A grouped notice's alerts, a line each, and how many more there are. */
function alertLines(notice: AlertNotice): string {
  const listed = notice.alerts ?? [];
  const lines = listed.map((alert) => `• ${escaped(alert.summary)}`);
  const more = (notice.count ?? listed.length) - listed.length;
  if (more > 0) lines.push(`… and ${more} more`);
  return lines.join("\n").slice(0, SECTION_CHARS);
}

/** The body and headers of a Slack post of `notice`. */
export function slackRequest(notice: AlertNotice): SinkRequest {
  const state = notice.state === "firing" ? "FIRING" : "RESOLVED";
  const fields = [
    field("State", notice.repeat ? `${state} (repeat)` : state),
    field("Since", new Date(notice.since).toISOString()),
    field("Figure", String(notice.figure)),
    field("Threshold", `${notice.threshold} (${notice.unit})`),
  ];
  if (notice.task !== null) fields.push(field("Task", notice.task));
  if (notice.schedule !== undefined) fields.push(field("Schedule", notice.schedule));
  const blocks = [
    {
      type: "header",
      text: { type: "plain_text", text: `${state}: ${notice.rule}`.slice(0, 150) },
    },
    { type: "section", text: { type: "mrkdwn", text: escaped(notice.summary) } },
    { type: "section", fields },
    ...(notice.alerts
      ? [{ type: "section", text: { type: "mrkdwn", text: alertLines(notice) } }]
      : []),
    {
      type: "section",
      text: { type: "mrkdwn", text: `<${notice.link}|Open the board>` },
    },
    {
      type: "context",
      elements: [{ type: "mrkdwn", text: `${notice.kind} · key ${escaped(notice.key)}` }],
    },
  ];
  return {
    body: JSON.stringify({ text: `${state} ${notice.rule}: ${notice.summary}`, blocks }),
    headers: { "content-type": "application/json" },
  };
}
