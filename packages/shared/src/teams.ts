// Teams, team members and invitations: input schemas, labels and texts shared by
// the procedures and the Teams screens. Team name, role and invite schemas live in validation.ts.
import { z } from "zod";
import { TEAM_ROLES, type TeamRole } from "./constants.ts";
import { emailSchema, idSchema, teamNameSchema, teamRoleSchema } from "./validation.ts";

/** Texts (Teams, Invitations) and of the rules the spec states without wording. */
export const TEAM_MSG = {
  errorCreatingTeam: "Error creating team",
  failedToCreateTeam: "Failed to create team. Please try again.",
  unexpectedError: "An unexpected error occurred",
  errorUpdatingTeam: "Error updating team",
  errorDeletingTeam: "Error deleting team",
  failedToFetchTeamMembers: "Failed to fetch team members",
  failedToFetchPendingInvites: "Failed to fetch pending invites",
  failedToFetchTeam: "Failed to fetch team information",
  failedToAddTeamMember: "Failed to add team member: ",
  failedToUpdateRole: "Failed to update team member role",
  failedToRemoveMember: "Failed to remove team member",
  failedToCancelInvite: "Failed to cancel invitation",
  failedToCreateInvite: "Failed to create invitation",
  failedToJoinOrganization: "Failed to add you to the organization",
  failedToJoinTeam: "Failed to add you to the team",
  lastAdminCannotBeDemoted: "The last admin of a team cannot be given another role.",
  lastAdminCannotBeRemoved: "The last admin of a team cannot be removed.",
  alreadyTeamMember: "This person is already a member of this team.",
  lastAdminRequired: "A team must keep at least one admin.",
  tooManyInvitations: "Too many invitations. Please wait a while before sending more.",
  inviteHelp: "A colleague who is already in this organization is added to the team immediately. Anyone else gets an email invitation to accept.",
} as const;

export const TEAM_ROLE_LABELS: Record<TeamRole, string> = { admin: "Admin", editor: "Editor", viewer: "Viewer" };
export const TEAM_ROLE_OPTIONS = TEAM_ROLES.map((role) => ({ value: role, label: TEAM_ROLE_LABELS[role] }));

/** '1 member' or 'N members' (team cards). */
export const memberCountLabel = (count: number) => `${count} ${count === 1 ? "member" : "members"}`;

// ---- procedure inputs (the id that leads to the team comes from the procedure builder) ----
export const inviteIdInput = z.object({ id: idSchema });
/** A member's new team role. */
export const teamRoleForm = z.object({ role: teamRoleSchema });

// ---- forms ----
/** Create New Team dialog and rename: the name only; the organization comes from the workspace. */
export const teamNameForm = z.object({ name: teamNameSchema });
export type TeamNameForm = z.infer<typeof teamNameForm>;
/** Invite panel: email and role; the team comes from the page. */
export const inviteForm = z.object({ email: emailSchema, role: teamRoleSchema });
