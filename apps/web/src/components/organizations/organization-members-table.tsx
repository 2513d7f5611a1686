// The members of an organization: avatar, name or 'Unnamed User', email, a role select and a menu with
// Remove. The last admin's controls are disabled and labelled 'Last admin' (the server enforces it too).
import { useState } from "react";
import { toast } from "sonner";
import { isLastAdmin, memberDisplayName, ORGANIZATION_ROLES, ORGANIZATION_TEXT, ORGANIZATION_ROLE_LABELS } from "@promptly/shared";
import { MemberActionsMenu, MemberIdentity, MemberRoleSelect, RemoveMemberDialog } from "@/components/members/member-parts";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { trpc } from "@/lib/trpc";
import { type OrganizationMember } from "./organization-types.ts";

const memberName = (member: OrganizationMember) => memberDisplayName(member.fullName);
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

export function OrganizationMembersTable({ organizationId, members }: { organizationId: string; members: OrganizationMember[] }) {
  const utils = trpc.useUtils();
  const [removing, setRemoving] = useState<OrganizationMember | null>(null);

  const refresh = () =>
    Promise.all([
      utils.organizationMembers.list.invalidate({ organizationId }),
      utils.organizations.get.invalidate({ organizationId }),
      utils.organizations.list.invalidate(),
    ]);

  const updateRole = trpc.organizationMembers.updateRole.useMutation({
    async onSuccess(member) {
      toast.success("Role updated", { description: `${memberName(member)} is now ${ORGANIZATION_ROLE_LABELS[member.role].toLowerCase()}.` });
      await refresh();
    },
    onError(error) {
      toast.error("Error updating role", { description: error.message });
    },
  });
  const remove = trpc.organizationMembers.remove.useMutation({
    async onSuccess() {
      toast.success("Member removed", { description: removing ? `${memberName(removing)} has been removed from the organization.` : undefined });
      setRemoving(null);
      await refresh();
    },
    onError(error) {
      toast.error("Error removing member", { description: error.message });
    },
  });

  if (members.length === 0) return <p className="py-6 text-center text-sm text-muted-foreground">No members in this organization yet.</p>;

  return (
    <>
      <Table aria-label="Members">
        <TableHeader>
          <TableRow>
            <TableHead>Member</TableHead>
            <TableHead>Role</TableHead>
            <TableHead>Joined</TableHead>
            <TableHead className="text-right">Actions</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {members.map((member) => {
            const name = memberName(member);
            const lastAdmin = isLastAdmin(member, members);
            const pendingRole = updateRole.isPending && updateRole.variables?.id === member.id;
            return (
              <TableRow key={member.id} data-testid="organization-member-row" data-email={member.email}>
                <TableCell>
                  <MemberIdentity person={member} badge={member.isSuperUser && <Badge variant="secondary">Super User</Badge>} />
                </TableCell>
                <TableCell>
                  <MemberRoleSelect
                    name={name}
                    value={member.role}
                    roles={ORGANIZATION_ROLES}
                    labels={ORGANIZATION_ROLE_LABELS}
                    disabled={pendingRole}
                    isLastAdmin={lastAdmin}
                    lastAdminReason={ORGANIZATION_TEXT.lastAdminRequired}
                    onChange={(role) => updateRole.mutate({ id: member.id, role })}
                  />
                </TableCell>
                <TableCell className="text-muted-foreground">{dateFormat.format(member.joinedAt)}</TableCell>
                <TableCell className="text-right">
                  <MemberActionsMenu name={name} isLastAdmin={lastAdmin} onRemove={() => setRemoving(member)} />
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>

      <RemoveMemberDialog
        name={removing ? memberName(removing) : null}
        description={`${removing?.email ?? "This member"} will lose access to this organization and its teams. Their account is kept.`}
        pending={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate({ id: removing.id })}
      />
    </>
  );
}
