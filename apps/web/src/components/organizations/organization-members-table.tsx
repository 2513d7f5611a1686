// The members of an organization (the one member table, with the organization's roles and texts).
import { toast } from "sonner";
import { can, displayName, ORGANIZATION_ROLES, ORGANIZATION_MSG, ORGANIZATION_ROLE_LABELS } from "@promptly/shared";
import { MemberTable } from "@/components/members/member-table";
import { useMe } from "@/hooks/use-me";
import { trpc } from "@/lib/trpc";
import { accessIn } from "@/lib/workspace";
import { AppRoleSelect } from "./app-role-select.tsx";
import type { OrganizationMember } from "./organization-types.ts";

export function OrganizationMembersTable({ organizationId, members }: { organizationId: string; members: OrganizationMember[] }) {
  const utils = trpc.useUtils();
  const { data: me } = useMe();
  // App roles are app-wide: only a super user sees and changes them (the server refuses anyone else).
  const mayChangeAppRoles = can(accessIn(me, null), "user.appRole.manage");
  const byId = new Map(members.map((member) => [member.id, member]));
  const refresh = () =>
    Promise.all([
      utils.organizationMembers.list.invalidate({ organizationId }),
      utils.organizations.get.invalidate({ organizationId }),
      utils.organizations.list.invalidate(),
    ]);
  const updateRole = trpc.organizationMembers.updateRole.useMutation({
    async onSuccess(member) {
      toast.success("Role updated", { description: `${displayName(member.fullName, member.email)} is now ${ORGANIZATION_ROLE_LABELS[member.role].toLowerCase()}.` });
      await refresh();
    },
    onError(error) {
      toast.error("Error updating role", { description: error.message });
    },
  });
  const remove = trpc.organizationMembers.remove.useMutation({
    onError(error) {
      toast.error("Error removing member", { description: error.message });
    },
  });

  return (
    <MemberTable
      label="Members"
      rowTestId="organization-member-row"
      members={members}
      roles={ORGANIZATION_ROLES}
      labels={ORGANIZATION_ROLE_LABELS}
      canManage
      emptyText="No members in this organization yet."
      lastAdminReason={ORGANIZATION_MSG.lastAdminRequired}
      removeDescription={(email) => `${email} will lose access to this organization and its teams. Their account is kept.`}
      pendingRoleOf={updateRole.isPending ? (updateRole.variables?.id ?? null) : null}
      onRoleChange={(member, role) => updateRole.mutate({ id: member.id, role })}
      removePending={remove.isPending}
      removeMember={(id) => remove.mutateAsync({ id })}
      removedDescription={(name) => `${name} has been removed from the organization.`}
      afterRemove={refresh}
      extraColumn={
        mayChangeAppRoles
          ? { header: "App role", cell: (member) => <AppRoleSelect organizationId={organizationId} member={byId.get(member.id)!} /> }
          : undefined
      }
    />
  );
}
