// The member table of the Teams page (spec 2): Member (avatar, full name or 'Unnamed User', email),
// Role (Admin, Editor, Viewer) and Actions (Remove). The last admin's role select and Remove are
// disabled and labelled 'Last admin'; the server enforces the same rule. Read-only below admin level.
import { useState } from "react";
import { toast } from "sonner";
import { memberDisplayName, TEAM_MSG, TEAM_ROLE_LABELS, TEAM_ROLES } from "@promptly/shared";
import { MemberActionsMenu, MemberIdentity, MemberRoleSelect, RemoveMemberDialog } from "@/components/members/member-parts";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { trpc } from "@/lib/trpc";
import type { TeamMember } from "./team-types.ts";

export function TeamMembersTable({ teamId, members, canManage }: { teamId: string; members: TeamMember[]; canManage: boolean }) {
  const utils = trpc.useUtils();
  const [removing, setRemoving] = useState<TeamMember | null>(null);
  const refresh = () => Promise.all([utils.teamMembers.list.invalidate({ teamId }), utils.teams.list.invalidate()]);

  const updateRole = trpc.teamMembers.updateRole.useMutation({
    async onSuccess(member) {
      toast.success("Role updated", {
        description: `${memberDisplayName(member.profile.fullName)} is now ${TEAM_ROLE_LABELS[member.role].toLowerCase()}.`,
      });
      await refresh();
    },
    onError(error) {
      toast.error(TEAM_MSG.failedToUpdateRole, { description: error.message });
    },
  });
  const remove = trpc.teamMembers.remove.useMutation({
    async onSuccess() {
      toast.success("Member removed", {
        description: removing ? `${memberDisplayName(removing.profile.fullName)} has been removed from the team.` : undefined,
      });
      setRemoving(null);
      await refresh();
    },
    onError(error) {
      toast.error(TEAM_MSG.failedToRemoveMember, { description: error.message });
    },
  });

  if (members.length === 0) return <p className="py-6 text-center text-sm text-muted-foreground">No members in this team yet.</p>;

  return (
    <>
      <Table aria-label="Team members">
        <TableHeader>
          <TableRow>
            <TableHead>Member</TableHead>
            <TableHead>Role</TableHead>
            <TableHead className="text-right">Actions</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {members.map((member) => {
            const name = memberDisplayName(member.profile.fullName);
            const lastAdmin = member.isLastAdmin;
            const pendingRole = updateRole.isPending && updateRole.variables?.id === member.id;
            return (
              <TableRow key={member.id} data-testid="team-member-row" data-email={member.profile.email ?? undefined}>
                <TableCell>
                  <MemberIdentity person={member.profile} />
                </TableCell>
                <TableCell>
                  <MemberRoleSelect
                    name={name}
                    value={member.role}
                    roles={TEAM_ROLES}
                    labels={TEAM_ROLE_LABELS}
                    disabled={!canManage || pendingRole}
                    isLastAdmin={lastAdmin}
                    lastAdminReason="A team must keep at least one admin."
                    onChange={(role) => updateRole.mutate({ id: member.id, role })}
                  />
                </TableCell>
                <TableCell className="text-right">
                  {canManage && <MemberActionsMenu name={name} isLastAdmin={lastAdmin} onRemove={() => setRemoving(member)} />}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>

      <RemoveMemberDialog
        name={removing ? memberDisplayName(removing.profile.fullName) : null}
        description={`${removing?.profile.email ?? "This member"} will lose access to this team. They stay in the organization.`}
        pending={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate({ id: removing.id })}
      />
    </>
  );
}
