// Types of the teams screens, inferred from the server's router (never written by hand), and the
// team-level rule the screens mirror.
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@promptly/api";
import { hasTeamLevel, type TeamLevel } from "@promptly/shared";
import type { Me } from "@/hooks/use-me";

type Outputs = inferRouterOutputs<AppRouter>;
export type Team = Outputs["teams"]["list"][number];
export type TeamMember = Outputs["teamMembers"]["list"][number];
export type PendingInvite = Outputs["invites"]["listPending"][number];
export type InviteSummary = Outputs["invites"]["get"];
export type InviteResult = Outputs["invites"]["create"];

/** Whether the signed-in person is at `level` in `team` (spec 6); the server checks the same. */
export function isAtTeamLevel(team: Team | null | undefined, me: Me | null | undefined, isOrgAdmin: boolean, level: TeamLevel) {
  if (!team || !me) return false;
  return hasTeamLevel({ teamRole: team.myRole, isOrgAdmin, isSuperUser: me.isSuperUser }, level);
}

/** The first message per field of a BAD_REQUEST from the server (the formatter sends zod's flattened issues). */
export function serverFieldErrors(error: { data?: unknown }): Record<string, string | undefined> {
  const zodError = (error.data as { zodError?: { fieldErrors?: Record<string, string[] | undefined> } | null } | undefined)?.zodError;
  const result: Record<string, string | undefined> = {};
  for (const [field, messages] of Object.entries(zodError?.fieldErrors ?? {})) result[field] = messages?.[0];
  return result;
}
