// The one member table, for organization members and team members alike: who each member is, their
// role (the last admin's locked, as the server computes it), when they joined, and removal after a
// confirmation. The place (organization or team) supplies its roles, texts and mutations.
import { useState, type ReactNode } from "react";
import { toast } from "sonner";
import { displayName } from "@promptly/shared";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDate } from "@/lib/dates";
import { MemberActionsMenu, MemberIdentity, MemberRoleSelect, RemoveMemberDialog } from "./member-parts.tsx";

export interface Member<Role extends string> {
  id: string;
  role: Role;
  joinedAt: Date;
  fullName: string | null;
  email: string;
  avatarUrl: string | null;
  isSuperUser: boolean;
  isLastAdmin: boolean;
}


export function MemberTable<Role extends string>(props: {
  label: string;
  rowTestId: string;
  members: Member<Role>[];
  roles: readonly Role[];
  labels: Record<Role, string>;
  /** Role changes and removal; read-only without. */
  canManage: boolean;
  emptyText: string;
  lastAdminReason: string;
  /** What removing `email` means here, for the confirmation. */
  removeDescription(email: string): string;
  /** The member whose role change is on its way, if any. */
  pendingRoleOf: string | null;
  onRoleChange(member: Member<Role>, role: Role): void;
  removePending: boolean;
  /** Removes the member (the mutation shows its own failure). */
  removeMember(id: string): Promise<unknown>;
  /** The success toast's description, e.g. "Ada has been removed from the team." */
  removedDescription(name: string): string;
  /** Refreshes what the removal changed (lists, counts). */
  afterRemove(): Promise<unknown>;
  /** A column after Role that only some places have (the organization's app roles, for super users). */
  extraColumn?: { header: string; cell(member: Member<Role>): ReactNode };
}) {
  const [removing, setRemoving] = useState<Member<Role> | null>(null);
  if (props.members.length === 0) return <p className="py-6 text-center text-sm text-muted-foreground">{props.emptyText}</p>;

  return (
    <>
      <Table aria-label={props.label}>
        <TableHeader>
          <TableRow>
            <TableHead>Member</TableHead>
            <TableHead>Role</TableHead>
            {props.extraColumn && <TableHead>{props.extraColumn.header}</TableHead>}
            <TableHead>Joined</TableHead>
            <TableHead className="text-right">Actions</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {props.members.map((member) => {
            const name = displayName(member.fullName, member.email);
            return (
              <TableRow key={member.id} data-testid={props.rowTestId} data-email={member.email}>
                <TableCell>
                  <MemberIdentity person={member} badge={member.isSuperUser && <Badge variant="secondary">Super User</Badge>} />
                </TableCell>
                <TableCell>
                  <MemberRoleSelect
                    name={name}
                    value={member.role}
                    roles={props.roles}
                    labels={props.labels}
                    disabled={!props.canManage || props.pendingRoleOf === member.id}
                    isLastAdmin={member.isLastAdmin}
                    lastAdminReason={props.lastAdminReason}
                    onChange={(role) => props.onRoleChange(member, role)}
                  />
                </TableCell>
                {props.extraColumn && <TableCell>{props.extraColumn.cell(member)}</TableCell>}
                <TableCell className="text-muted-foreground">{formatDate(member.joinedAt)}</TableCell>
                <TableCell className="text-right">
                  {props.canManage && <MemberActionsMenu name={name} isLastAdmin={member.isLastAdmin} onRemove={() => setRemoving(member)} />}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>

      <RemoveMemberDialog
        name={removing ? displayName(removing.fullName, removing.email) : null}
        description={props.removeDescription(removing?.email ?? "This member")}
        pending={props.removePending}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (!removing) return;
          void props.removeMember(removing.id).then(
            async () => {
              toast.success("Member removed", { description: props.removedDescription(displayName(removing.fullName, removing.email)) });
              setRemoving(null);
              await props.afterRemove();
            },
            () => undefined,
          );
        }}
      />
    </>
  );
}
