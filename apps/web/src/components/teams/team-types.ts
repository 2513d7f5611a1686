// Types of the teams screens, inferred from the server's router (never written by hand).
import type { RouterOutputs } from "@promptly/api";

export type Team = RouterOutputs["teams"]["list"][number];
export type TeamMember = RouterOutputs["teamMembers"]["list"][number];
export type PendingInvite = RouterOutputs["invites"]["listPending"][number];
export type InviteResult = RouterOutputs["invites"]["create"];

