// Types of the teams screens, inferred from the server's router (never written by hand).
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@promptly/api";

type Outputs = inferRouterOutputs<AppRouter>;
export type Team = Outputs["teams"]["list"][number];
export type TeamMember = Outputs["teamMembers"]["list"][number];
export type PendingInvite = Outputs["invites"]["listPending"][number];
export type InviteResult = Outputs["invites"]["create"];

