/**
 * The pager's state in the URL (`ui/lib/page_query.ts`): `page` (from 1)
 * and `size` (25, 50, 100 or 250) beside the page's own parameters, so a
 * page of a list can be shared; what is missing or wrong falls back to page
 * 1 and the remembered size.
 */

import assert from "node:assert/strict";
import { lastPage, namesPage, pageStateOf, withPage } from "../../ui/lib/page_query.ts";

Deno.test("pageStateOf() reads page and size, and the offset they make", () => {
  assert.deepEqual(pageStateOf("?state=failed&page=200&size=250", 50), {
    page: 200,
    size: 250,
    offset: 49_750,
  });
  assert.deepEqual(pageStateOf("?state=failed", 100), { page: 1, size: 100, offset: 0 });
});

Deno.test("pageStateOf() falls back on a page or size the pager does not offer", () => {
  for (const search of ["?page=0&size=7", "?page=-3&size=", "?page=2.5&size=abc", "?page=1e400"]) {
    const { page, size } = pageStateOf(search, 25);
    assert.equal(page, 1, search);
    assert.equal(size, 25, search);
  }
  assert.equal(pageStateOf("?page=99999999999999999999", 25).page, 1, "beyond a safe integer");
});

Deno.test("withPage() sets page and size and keeps the other parameters", () => {
  assert.equal(
    withPage("?state=failed&field=error&contains=SMTP", 3, 100),
    "state=failed&field=error&contains=SMTP&page=3&size=100",
  );
  assert.equal(withPage("state=failed&page=3&size=100", 1, 100), "state=failed&size=100");
  const shared = withPage("?state=completed", 200, 250);
  assert.deepEqual(pageStateOf(`?${shared}`, 25), { page: 200, size: 250, offset: 49_750 });
});

Deno.test("lastPage() is the page holding the last item, 1 for an empty list", () => {
  assert.equal(lastPage(62_500, 250), 250);
  assert.equal(lastPage(62_501, 250), 251);
  assert.equal(lastPage(0, 50), 1);
});

Deno.test("withPage() keeps page 1 for a list whose URL without a page shows its end, and drops a null page", () => {
  assert.equal(withPage("?page=4&size=25", 1, 25, true), "page=1&size=25");
  assert.equal(withPage("?page=4&size=25", null, 25, true), "size=25");
  assert.equal(namesPage("?page=1&size=25"), true);
  assert.equal(namesPage("?size=25"), false);
});
