// The member table of the Teams page: the one member table with the team's roles (Admin,
// Editor, Viewer) and texts. Read-only below team admin level; the server enforces the same rule.
import { toast } from "sonner";
import { displayName, TEAM_MSG, TEAM_ROLE_LABELS, TEAM_ROLES } from "@promptly/shared";
import { MemberTable } from "@/components/members/member-table";
import { trpc } from "@/lib/trpc";
import type { TeamMember } from "./team-types.ts";

export function TeamMembersTable({ teamId, members, canManage }: { teamId: string; members: TeamMember[]; canManage: boolean }) {
  const utils = trpc.useUtils();
  const refresh = () => Promise.all([utils.teamMembers.list.invalidate({ teamId }), utils.teams.list.invalidate()]);
  const updateRole = trpc.teamMembers.updateRole.useMutation({
    async onSuccess(member) {
      toast.success("Role updated", { description: `${displayName(member.fullName, member.email)} is now ${TEAM_ROLE_LABELS[member.role].toLowerCase()}.` });
      await refresh();
    },
    onError(error) {
      toast.error(TEAM_MSG.failedToUpdateRole, { description: error.message });
    },
  });
  const remove = trpc.teamMembers.remove.useMutation({
    onError(error) {
      toast.error(TEAM_MSG.failedToRemoveMember, { description: error.message });
    },
  });

  return (
    <MemberTable
      label="Team members"
      rowTestId="team-member-row"
      members={members}
      roles={TEAM_ROLES}
      labels={TEAM_ROLE_LABELS}
      canManage={canManage}
      emptyText="No members in this team yet."
      lastAdminReason={TEAM_MSG.lastAdminRequired}
      removeDescription={(email) => `${email} will lose access to this team. They stay in the organization.`}
      pendingRoleOf={updateRole.isPending ? (updateRole.variables?.id ?? null) : null}
      onRoleChange={(member, role) => updateRole.mutate({ id: member.id, role })}
      removePending={remove.isPending}
      removeMember={(id) => remove.mutateAsync({ id })}
      removedDescription={(name) => `${name} has been removed from the team.`}
      afterRemove={refresh}
    />
  );
}
