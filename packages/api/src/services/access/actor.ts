// Who makes a change, beside the Caller (who asks): the audit trail records the actor, and the author
// column of what is written names the person, nobody for a key or the command line.
import type { Access } from "@promptly/shared";

/** A person, a team's API key, or the operator's command line on the server (super-user rights). */
export type Actor = { kind: "user"; userId: string } | { kind: "apiKey"; apiKeyId: string } | { kind: "cli" };

/** The author a write records: the person, or null. */
export const authorOf = (actor: Actor): string | null => (actor.kind === "user" ? actor.userId : null);

/** A person changing members of an organization or team: their access there, re-checked on the locked rows. */
export type ActingMember = Access & { userId: string };
