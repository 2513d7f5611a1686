// The member table of the Teams page (spec 2): Member (avatar, full name or 'Unnamed User', email),
// Role (Admin, Editor, Viewer) and Actions (Remove). The last admin's role select and Remove are
// disabled and labelled 'Last admin'; the server enforces the same rule. Read-only below admin level.
import { useState } from "react";
import { MoreHorizontal, UserMinus } from "lucide-react";
import { toast } from "sonner";
import { initials, memberDisplayName, MSG, TEAM_MSG, TEAM_ROLE_LABELS, TEAM_ROLES, type TeamRole } from "@promptly/shared";
import {
  AlertDialog, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogHeader, AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Avatar, AvatarFallback, AvatarImage } from "@/components/ui/avatar";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
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
                  <div className="flex items-center gap-3">
                    <Avatar>
                      {member.profile.avatarUrl && <AvatarImage src={member.profile.avatarUrl} alt="" />}
                      <AvatarFallback>{initials(member.profile.fullName, member.profile.email)}</AvatarFallback>
                    </Avatar>
                    <div className="min-w-0">
                      <div className="truncate font-medium">{name}</div>
                      <div className="truncate text-sm text-muted-foreground">{member.profile.email}</div>
                    </div>
                  </div>
                </TableCell>
                <TableCell>
                  <div className="flex items-center gap-2">
                    <Select
                      value={member.role}
                      disabled={!canManage || lastAdmin || pendingRole}
                      onValueChange={(role) => updateRole.mutate({ id: member.id, role: role as TeamRole })}
                    >
                      <SelectTrigger size="sm" className="w-28" aria-label={`Role of ${name}`}>
                        <SelectValue />
                      </SelectTrigger>
                      <SelectContent>
                        {TEAM_ROLES.map((role) => (
                          <SelectItem key={role} value={role}>
                            {TEAM_ROLE_LABELS[role]}
                          </SelectItem>
                        ))}
                      </SelectContent>
                    </Select>
                    {lastAdmin && (
                      <Badge variant="outline" title="A team must keep at least one admin.">
                        {MSG.lastAdmin}
                      </Badge>
                    )}
                  </div>
                </TableCell>
                <TableCell className="text-right">
                  {canManage && (
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
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>

      <AlertDialog open={!!removing} onOpenChange={(open) => !open && !remove.isPending && setRemoving(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Remove {removing ? memberDisplayName(removing.profile.fullName) : "member"}?</AlertDialogTitle>
            <AlertDialogDescription>
              {removing?.profile.email} will lose access to this team. They stay in the organization.
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
