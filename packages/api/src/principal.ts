import type { Session, User } from "lucia";

/**
 * Who is calling: a person signed in through a session cookie (complete, or still waiting for the
 * second factor). The runtime API adds API keys acting for one team. No principal: nobody signed in.
 */
export type Principal = { kind: "user"; session: Session; user: User };
