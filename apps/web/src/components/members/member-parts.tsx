// The parts every member table shares (organization members, team members, and later prompt
// collaborators): who the member is, their role with the 'Last admin' rule, and removal.
import { MoreHorizontal, UserMinus } from "lucide-react";
import type { ReactNode } from "react";
import { displayName, initials, MSG } from "@promptly/shared";
import {
  AlertDialog, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogHeader, AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Avatar, AvatarFallback, AvatarImage } from "@/components/ui/avatar";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";

export interface MemberPerson {
  fullName: string | null;
  email: string | null;
  avatarUrl: string | null;
}

/** Avatar (or initials), name (else the address's local part: displayName), and email. */
export function MemberIdentity({ person, badge }: { person: MemberPerson; badge?: ReactNode }) {
  return (
    <div className="flex items-center gap-3">
      <Avatar>
        {person.avatarUrl && <AvatarImage src={person.avatarUrl} alt="" />}
        <AvatarFallback>{initials(person.fullName, person.email)}</AvatarFallback>
      </Avatar>
      <div className="min-w-0">
        <div className="flex items-center gap-2 font-medium">
          <span className="truncate">{displayName(person.fullName, person.email)}</span>
          {badge}
        </div>
        <div className="truncate text-sm text-muted-foreground">{person.email}</div>
      </div>
    </div>
  );
}

/** The role select; the last admin's is disabled and labelled 'Last admin' (the server enforces it too). */
export function MemberRoleSelect<Role extends string>(props: {
  name: string;
  value: Role;
  roles: readonly Role[];
  labels: Record<Role, string>;
  disabled: boolean;
  isLastAdmin: boolean;
  /** Why the last admin cannot change, e.g. "A team must keep at least one admin." */
  lastAdminReason: string;
  onChange(role: Role): void;
}) {
  return (
    <div className="flex items-center gap-2">
      <Select value={props.value} disabled={props.disabled || props.isLastAdmin} onValueChange={(role) => props.onChange(role as Role)}>
        <SelectTrigger size="sm" className="w-28" aria-label={`Role of ${props.name}`}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {props.roles.map((role) => (
            <SelectItem key={role} value={role}>
              {props.labels[role]}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      {props.isLastAdmin && (
        <Badge variant="outline" title={props.lastAdminReason}>
          {MSG.lastAdmin}
        </Badge>
      )}
    </div>
  );
}

/** The Actions menu with Remove (disabled for the last admin). */
export function MemberActionsMenu({ name, isLastAdmin, onRemove }: { name: string; isLastAdmin: boolean; onRemove(): void }) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={`Actions for ${name}`}>
          <MoreHorizontal aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem variant="destructive" disabled={isLastAdmin} onSelect={onRemove}>
          <UserMinus aria-hidden="true" />
          {isLastAdmin ? `Remove (${MSG.lastAdmin})` : "Remove"}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** Confirmation before removing a member; stays open while the removal runs. */
export function RemoveMemberDialog(props: {
  /** The member's name; null closes the dialog. */
  name: string | null;
  description: ReactNode;
  pending: boolean;
  onCancel(): void;
  onConfirm(): void;
}) {
  return (
    <AlertDialog open={props.name !== null} onOpenChange={(open) => !open && !props.pending && props.onCancel()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Remove {props.name ?? "member"}?</AlertDialogTitle>
          <AlertDialogDescription>{props.description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={props.pending}>Cancel</AlertDialogCancel>
          <Button variant="destructive" disabled={props.pending} onClick={props.onConfirm}>
            {props.pending ? "Removing..." : "Remove Member"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
