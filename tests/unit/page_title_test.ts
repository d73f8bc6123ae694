import assert from "node:assert/strict";
import { documentTitle } from "../../ui/lib/page_title.ts";

Deno.test("documentTitle() names the page's subject first, then the board", () => {
  assert.equal(
    documentTitle(["Job 1a2b3c4d", "send-email"], "queue-board"),
    "Job 1a2b3c4d · send-email — queue-board",
  );
  assert.equal(documentTitle(["send-email"], "queue-board"), "send-email — queue-board");
  assert.equal(documentTitle(["Job 1a2b3c4d", undefined], "Acme"), "Job 1a2b3c4d — Acme");
  assert.equal(documentTitle([null], "queue-board"), "queue-board");
  assert.equal(documentTitle(["Overview"], ""), "Overview");
});
