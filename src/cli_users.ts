/**
 * The CLI's users file (`--users FILE`): a JSON array of `{ name, role,
 * password }`, `role` one of the presets and `password` a hash that `deno
 * task hash-password` printed. Each user signs in with its name and
 * password, and may do what its role allows.
 *
 * @module
 */

import { isPasswordHash, verifyPassword } from "./auth/password_hash.ts";
import { type Role, ROLES } from "./auth/permissions.ts";
import type { BoardUser, SessionAuthOptions } from "./options.ts";

/** One entry of the users file. */
export interface FileUser {
  /** The username to sign in with. */
  name: string;
  /** The preset: `viewer`, `operator` or `admin`. */
  role: Role;
  /** `pbkdf2-sha256$<iterations>$<salt>$<hash>`, from `deno task hash-password`. */
  password: string;
}

/** The users of a users file's text; throws an Error saying what is wrong, by entry. */
export function parseUsers(text: string): FileUser[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`not JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(raw) || raw.length === 0) {
    throw new Error("must be a JSON array of at least one { name, role, password }");
  }
  const names = new Set<string>();
  return raw.map((entry, index) => {
    const { name, role, password } = (entry ?? {}) as Record<string, unknown>;
    const at = `entry ${index}`;
    if (typeof name !== "string" || name === "" || name.length > 200) {
      throw new Error(`${at}: name must be 1 to 200 characters`);
    }
    if (names.has(name)) throw new Error(`${at}: ${JSON.stringify(name)} is named twice`);
    names.add(name);
    if (!ROLES.includes(role as Role)) {
      throw new Error(`${at} (${name}): role must be one of ${ROLES.join(", ")}`);
    }
    if (typeof password !== "string" || !isPasswordHash(password)) {
      throw new Error(
        `${at} (${name}): password must be a hash from \`deno task hash-password\` ` +
          "(pbkdf2-sha256$<iterations, 100,000 or more>$<salt>$<hash>)",
      );
    }
    return { name, role: role as Role, password };
  });
}

/**
 * `authenticate` for `users`: a user's name and password sign it in as `{
 * name, role }`. An unknown name costs a hash too, so the time to answer
 * does not tell which names exist.
 */
export function usersAuthenticate(users: readonly FileUser[]): SessionAuthOptions["authenticate"] {
  const byName = new Map(users.map((user) => [user.name, user]));
  return async function authenticate({ username, password }): Promise<BoardUser | null> {
    const user = byName.get(username);
    const matches = await verifyPassword(password, (user ?? users[0]).password);
    return user && matches ? { name: user.name, role: user.role } : null;
  };
}
