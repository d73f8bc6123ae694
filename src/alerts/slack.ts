/**
 * The Slack incoming webhook's request: the same notice as the generic
 * webhook, as Block Kit blocks, with `text` for the push notification.
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
