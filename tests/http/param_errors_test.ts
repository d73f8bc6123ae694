/**
 * `INVALID_PARAM` answers name the parameter at fault in `param`, so a form
 * marks the right field without parsing the English message.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { readFixture } from "../helpers/fixture.ts";

const dump = readFixture();

async function putSchedule(name: string, body: unknown): Promise<Response> {
  const source = createMemorySource({ seed: dump });
  try {
    return await createBoard(source).fetch(
      new Request(`http://board.test/board/api/schedules/${name}`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    );
  } finally {
    await source.close();
  }
}

async function expectParam(response: Response, param: string, mentions: RegExp): Promise<void> {
  const body = await response.json();
  assert.equal(response.status, 400, JSON.stringify(body));
  assert.equal(body.code, "INVALID_PARAM");
  assert.equal(body.param, param, JSON.stringify(body));
  assert.match(body.error, mentions);
}

Deno.test("a bad time zone is a 400 naming timezone, with or without a new cron", async () => {
  await expectParam(
    await putSchedule("heartbeat", { cron: "0 3 * * *", timezone: "Mars/Base" }),
    "timezone",
    /"Mars\/Base" is not an IANA time zone/,
  );
  await expectParam(
    await putSchedule("nightly-report", { timezone: "Europe/Nowhere" }),
    "timezone",
    /Europe\/Nowhere/,
  );
});

Deno.test("a bad cron in a good time zone is a 400 naming cron", async () => {
  await expectParam(
    await putSchedule("nightly-report", { cron: "every day", timezone: "Europe/Berlin" }),
    "cron",
    /"every day" is not a valid schedule/,
  );
});

Deno.test("every other INVALID_PARAM names its parameter too", async () => {
  await expectParam(await putSchedule("heartbeat", { every: "often" }), "every", /every/);
  await expectParam(await putSchedule("heartbeat", { overlap: "yes" }), "overlap", /boolean/);
});

Deno.test("an empty cron is a 400 naming cron, not a schedule that runs every minute", async () => {
  await expectParam(await putSchedule("nightly-report", { cron: "" }), "cron", /cron expression/);
});
