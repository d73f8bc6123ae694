import assert from "node:assert/strict";
import { filterOf, filterQuery, setParams } from "../../ui/pages/task/search_query.ts";

Deno.test("setParams keeps the filter's set parameters, and an empty value only with a path", () => {
  const values = filterOf("?state=failed&field=error&contains=timeout&id=&value=");
  assert.deepEqual(setParams(values), { field: "error", contains: "timeout" });
  assert.deepEqual(setParams(filterOf("?field=data&path=user.name&value=")), {
    field: "data",
    path: "user.name",
    value: "",
  });
});

Deno.test("filterQuery writes the state, the set parameters in URL order, then the cursor", () => {
  const values = filterOf("?value=&path=a.b&field=data&id=job-");
  assert.equal(
    filterQuery("completed", values),
    "state=completed&id=job-&field=data&path=a.b&value=",
  );
  assert.equal(
    filterQuery("failed", { contains: "x" }, "abc"),
    "state=failed&contains=x&cursor=abc",
  );
});
