/**
 * Sign out everywhere, as a user does it: from the sidebar, after a
 * confirmation; the session in another browser ends too.
 */

import assert from "node:assert/strict";
import { browserTest, screenshotView, signIn, withBoard } from "./harness.ts";

const auth = {
  cookiePassword: "a-test-cookie-password-of-32-chars!",
  authenticate: ({ username, password }: { username: string; password: string }) =>
    username === "ada" && password === "lovelace" ? { name: "Ada" } : null,
};

browserTest("'Sign out everywhere' ends this session and the one in another browser", async () => {
  await withBoard({ auth }, async ({ page, browser, root }) => {
    const laptop = await (await browser.newContext()).newPage();
    await signIn(laptop, root, "dlq");
    await signIn(page, root, "schedules");
    for (const width of [390, 1280, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshotView(page, `sign-out-everywhere-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    const dialog = page.getByRole("dialog", { name: "Sign out everywhere?" });
    await dialog.getByRole("button", { name: "Stay signed in" }).click();
    assert.equal((await laptop.request.get(`${root}api/overview`)).status(), 200, "kept");

    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await screenshotView(page, "sign-out-everywhere-confirm");
    await dialog.getByRole("button", { name: "Sign out everywhere" }).click();
    await page.waitForURL("**/board/login**");
    assert.equal((await page.request.get(`${root}api/overview`)).status(), 401);
    assert.equal((await laptop.request.get(`${root}api/overview`)).status(), 401, "the laptop too");
  });
});
