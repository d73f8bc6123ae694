/** The `mcp` option: a bad value throws naming the field, as every option does. */

import assert from "node:assert/strict";
import { BoardOptionsError, resolveOptions } from "../../src/options.ts";
import { ADA_LOGIN } from "../helpers/session_login.ts";

const DIGEST = "ae30582fa821c0da8c83c781b4755829fb7f21bd861d07e69f745586c79ae2e2";

function refusal(options: Parameters<typeof resolveOptions>[0]): string {
  try {
    resolveOptions(options);
  } catch (error) {
    assert.ok(error instanceof BoardOptionsError);
    return error.message;
  }
  throw new Error("no refusal");
}

Deno.test("mcp is on and reading only by default; false turns it off", () => {
  assert.deepEqual(resolveOptions({}).mcp, { actions: false, tokens: new Map() });
  assert.equal(resolveOptions({ mcp: false }).mcp, null);
  const user = { name: "oncall-agent", role: "operator" };
  assert.deepEqual(
    resolveOptions({ auth: ADA_LOGIN, mcp: { actions: true, tokens: { [DIGEST]: user } } }).mcp,
    { actions: true, tokens: new Map([[DIGEST, user]]) },
  );
});

Deno.test("a bad mcp option throws naming its field", () => {
  assert.match(refusal({ mcp: true as never }), /option "mcp" must be false or/);
  assert.match(
    refusal({ mcp: { actions: "yes" as never } }),
    /option "mcp.actions" must be a boolean/,
  );
  assert.match(refusal({ mcp: { write: true } as never }), /option "mcp.write" must be absent/);
  assert.match(
    refusal({ mcp: { tokens: { [DIGEST]: { name: "a" } } } }),
    /option "mcp.tokens" must be absent without session login/,
  );
  assert.match(
    refusal({ auth: ADA_LOGIN, mcp: { tokens: { "the-token-itself": { name: "a" } } } }),
    /option "mcp.tokens" must be keys that are SHA-256 digests/,
  );
  // The refusal names no key: it might be the token itself.
  assert.doesNotMatch(
    refusal({ auth: ADA_LOGIN, mcp: { tokens: { "the-token-itself": { name: "a" } } } }),
    /the-token-itself/,
  );
});
