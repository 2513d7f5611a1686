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
export type InviteResult = Outputs["invites"]["create"];

/** Whether the signed-in person is at `level` in `team` (spec 6); the server checks the same. */
export function isAtTeamLevel(team: Team | null | undefined, me: Me | null | undefined, isOrgAdmin: boolean, level: TeamLevel) {
  if (!team || !me) return false;
  return hasTeamLevel({ teamRole: team.myRole, isOrgAdmin, isSuperUser: me.isSuperUser }, level);
}

