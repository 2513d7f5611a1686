// A member's app role, for super users on the organization members page. 'Super User' grants super
// user status, any other role ends it; the server refuses to demote the last super user and says so.
import { toast } from "sonner";
import { APP_ROLES, displayName, type AppRole } from "@promptly/shared";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { APP_ROLE_LABELS } from "@/lib/roles";
import { trpc } from "@/lib/trpc";
import type { OrganizationMember } from "./organization-types.ts";

export function AppRoleSelect({ organizationId, member }: { organizationId: string; member: OrganizationMember }) {
  const utils = trpc.useUtils();
  const name = displayName(member.fullName, member.email);
  const setAppRole = trpc.users.setAppRole.useMutation({
    async onSuccess(changed) {
      toast.success("App role updated", { description: `${name} is now ${APP_ROLE_LABELS[changed.role]}.` });
      // Their own role may be the one that changed: what the app shows them follows.
      await Promise.all([utils.organizationMembers.list.invalidate({ organizationId }), utils.auth.me.invalidate()]);
    },
    onError(error) {
      toast.error("Error updating app role", { description: error.message });
    },
  });
  return (
    <Select value={member.appRole} disabled={setAppRole.isPending} onValueChange={(role) => setAppRole.mutate({ userId: member.userId, role: role as AppRole })}>
      <SelectTrigger size="sm" className="w-36" aria-label={`${name}'s app role`}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {APP_ROLES.map((role) => (
          <SelectItem key={role} value={role}>
            {APP_ROLE_LABELS[role]}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
