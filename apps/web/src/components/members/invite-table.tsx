// The one table of pending invitations, for a team's and an organization's alike: address, role,
// when it was sent (and whether it expired), and the actions the place offers.
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDate } from "@/lib/dates";

export interface PendingInvitation<Role extends string> {
  id: string;
  email: string;
  role: Role;
  createdAt: Date;
  expired?: boolean;
}


export function InviteTable<Role extends string, Invite extends PendingInvitation<Role>>(props: {
  label: string;
  rowTestId: string;
  invites: Invite[];
  labels: Record<Role, string>;
  actions(invite: Invite): ReactNode;
}) {
  if (props.invites.length === 0) return <p className="py-4 text-center text-sm text-muted-foreground">No pending invitations.</p>;
  return (
    <Table aria-label={props.label}>
      <TableHeader>
        <TableRow>
          <TableHead>Email</TableHead>
          <TableHead>Role</TableHead>
          <TableHead>Sent</TableHead>
          <TableHead className="text-right">Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {props.invites.map((invite) => (
          <TableRow key={invite.id} data-testid={props.rowTestId} data-email={invite.email}>
            <TableCell className="font-medium">{invite.email}</TableCell>
            <TableCell>{props.labels[invite.role]}</TableCell>
            <TableCell className="text-muted-foreground">
              {formatDate(invite.createdAt)} {invite.expired && <Badge variant="outline">Expired</Badge>}
            </TableCell>
            <TableCell className="text-right">
              <div className="flex justify-end gap-1">{props.actions(invite)}</div>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
