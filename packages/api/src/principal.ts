import type { Session, User } from "lucia";
import type { KeyCaller } from "./services/access/visibility.ts";
import type { BearerRefusal } from "./services/identity/api-keys.ts";

/**
 * Who is calling: a person signed in through a session cookie (complete, or still waiting for the
 * second factor), or a team's API key from an `Authorization: Bearer` header (it acts only within its
 * team), made the request's caller once, as the REST, MCP and Langfuse doors make theirs. A request whose Authorization header names no usable key is refused whatever it asks
 * (`refusedKey`): a tool with a bad key hears so at once instead of being served as a visitor.
 * No principal: nobody signed in.
 */
export type Principal =
  | { kind: "user"; session: Session; user: User }
  | { kind: "apiKey"; caller: KeyCaller }
  | { kind: "refusedKey"; code: BearerRefusal["code"]; message: string };
