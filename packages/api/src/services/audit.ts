// The audit trail (issue 17): one append-only row per audited change, written by audit() inside the
// transaction of the change itself, so a change that rolls back leaves no event and a committed one
// always has its event. Callers say who did what to what; nothing here is ever updated or deleted.
import type { DbOrTx } from "@promptly/db";

/** Who did it: a person, a team's API key, or the command line (super-user grants). */
export type AuditActor = { kind: "user"; userId: string } | { kind: "apiKey"; apiKeyId: string } | { kind: "cli" };

/** Every audited action. */
export type AuditAction =
  | "organization.create"
  | "organization.rename"
  | "organization.delete"
  | "team.create"
  | "team.rename"
  | "team.delete"
  | "team.settings"
  | "member.add"
  | "member.remove"
  | "member.role"
  | "invite.create"
  | "invite.revoke"
  | "invite.accept"
  | "prompt.create"
  | "prompt.rename"
  | "prompt.update"
  | "prompt.archive"
  | "prompt.restore"
  | "prompt.delete"
  | "prompt.version"
  | "prompt.label.set"
  | "prompt.label.remove"
  | "change_request.approve"
  | "change_request.reject"
  | "api_key.create"
  | "api_key.revoke"
  | "two_factor.enable"
  | "two_factor.disable"
  | "super_user.grant"
  | "super_user.revoke";

export interface AuditEntry {
  /** The organization it happened in; null only for account-level events (two-factor, super user). */
  organizationId: string | null;
  teamId?: string | null;
  actor: AuditActor;
  action: AuditAction;
  /** What it was done to: a kind, its id, and a name to show even after it is gone. */
  target: { type: string; id: string; name?: string | null };
  /** The state before and after, where it says something (a label's version, a role, a name). */
  before?: unknown;
  after?: unknown;
  /** The client address of the request, when there was one. */
  ip?: string | null;
}

/** Appends `entry`; pass the transaction of the change. */
export async function audit(_db: DbOrTx, _entry: AuditEntry, _now: Date): Promise<void> {
  // Filled in by the audit-trail work of issue 17; features call it from the start.
}
