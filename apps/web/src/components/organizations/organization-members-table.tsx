// The members of an organization: avatar, name or 'Unnamed User', email, a role select and a menu with
// Remove. The last admin's controls are disabled and labelled 'Last admin' (the server enforces it too).
import { useState } from "react";
import { MoreHorizontal, UserMinus } from "lucide-react";
import { toast } from "sonner";
import { initials, MSG, ORGANIZATION_ROLES, type OrganizationRole } from "@promptly/shared";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Avatar, AvatarFallback, AvatarImage } from "@/components/ui/avatar";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { trpc } from "@/lib/trpc";
import { isLastOrganizationAdmin, ORGANIZATION_ROLE_LABELS, type OrganizationMember } from "./organization-types.ts";

const memberName = (member: OrganizationMember) => member.fullName?.trim() || "Unnamed User";
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
            const lastAdmin = isLastOrganizationAdmin(member, members);
            const pendingRole = updateRole.isPending && updateRole.variables?.id === member.id;
            return (
              <TableRow key={member.id} data-testid="organization-member-row" data-email={member.email}>
                <TableCell>
                  <div className="flex items-center gap-3">
                    <Avatar>
                      {member.avatarUrl && <AvatarImage src={member.avatarUrl} alt="" />}
                      <AvatarFallback>{initials(member.fullName, member.email)}</AvatarFallback>
                    </Avatar>
                    <div className="min-w-0">
                      <div className="flex items-center gap-2 font-medium">
                        <span className="truncate">{name}</span>
                        {member.isSuperUser && <Badge variant="secondary">Super User</Badge>}
                      </div>
                      <div className="truncate text-sm text-muted-foreground">{member.email}</div>
                    </div>
                  </div>
                </TableCell>
                <TableCell>
                  <div className="flex items-center gap-2">
                    <Select
                      value={member.role}
                      disabled={lastAdmin || pendingRole}
                      onValueChange={(role) => updateRole.mutate({ id: member.id, role: role as OrganizationRole })}
                    >
                      <SelectTrigger size="sm" className="w-28" aria-label={`Role of ${name}`}>
                        <SelectValue />
                      </SelectTrigger>
                      <SelectContent>
                        {ORGANIZATION_ROLES.map((role) => (
                          <SelectItem key={role} value={role}>
                            {ORGANIZATION_ROLE_LABELS[role]}
                          </SelectItem>
                        ))}
                      </SelectContent>
                    </Select>
                    {lastAdmin && (
                      <Badge variant="outline" title="An organization must keep at least one admin.">
                        {MSG.lastAdmin}
                      </Badge>
                    )}
                  </div>
                </TableCell>
                <TableCell className="text-muted-foreground">{dateFormat.format(member.joinedAt)}</TableCell>
                <TableCell className="text-right">
                  <DropdownMenu>
                    <DropdownMenuTrigger asChild>
                      <Button variant="ghost" size="icon" aria-label={`Actions for ${name}`}>
                        <MoreHorizontal aria-hidden="true" />
                      </Button>
                    </DropdownMenuTrigger>
                    <DropdownMenuContent align="end">
                      <DropdownMenuItem variant="destructive" disabled={lastAdmin} onSelect={() => setRemoving(member)}>
                        <UserMinus aria-hidden="true" />
                        {lastAdmin ? `Remove (${MSG.lastAdmin})` : "Remove"}
                      </DropdownMenuItem>
                    </DropdownMenuContent>
                  </DropdownMenu>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>

      <AlertDialog open={!!removing} onOpenChange={(open) => !open && !remove.isPending && setRemoving(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Remove {removing ? memberName(removing) : "member"}?</AlertDialogTitle>
            <AlertDialogDescription>
              {removing?.email} will lose access to this organization. Their account is kept.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={remove.isPending}>Cancel</AlertDialogCancel>
            <Button variant="destructive" disabled={remove.isPending} onClick={() => removing && remove.mutate({ id: removing.id })}>
              {remove.isPending ? "Removing..." : "Remove Member"}
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}
