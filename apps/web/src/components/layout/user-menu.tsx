// The user menu: who is signed in, the active organization and team, the role, Profile, Log out.
import { Link } from "@tanstack/react-router";
import { LogOut, User } from "lucide-react";
import { displayName, initials } from "@promptly/shared";
import { Avatar, AvatarFallback, AvatarImage } from "@/components/ui/avatar";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { useMe } from "@/hooks/use-me";
import { useSignOut } from "@/hooks/use-sign-out";
import { accessBadge } from "@promptly/shared";
import { APP_ROLE_LABELS } from "@/lib/roles";
import { useWorkspace, accessIn } from "@/lib/workspace";

export function UserMenu() {
  const { data: me } = useMe();
  const { activeOrganization, activeTeam } = useWorkspace();
  const { signOut, loggingOut } = useSignOut();
  if (!me) return null;

  const name = displayName(me.profile.fullName, me.user.email);
  const letters = initials(me.profile.fullName, me.user.email);

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="rounded-full" aria-label={`${letters}, user menu for ${name}`}>
          <Avatar>
            {me.profile.avatarUrl && <AvatarImage src={me.profile.avatarUrl} alt="" />}
            <AvatarFallback>{letters}</AvatarFallback>
          </Avatar>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64">
        <DropdownMenuLabel className="font-normal">
          <div className="flex flex-col gap-1">
            <p className="truncate text-sm font-medium" data-testid="user-menu-name">{name}</p>
            <p className="truncate text-xs text-muted-foreground" data-testid="user-menu-email">{me.user.email}</p>
            {activeOrganization && (
              <p className="truncate text-xs text-muted-foreground">
                Organization: <span className="text-foreground">{activeOrganization.name}</span>
              </p>
            )}
            {activeTeam && (
              <p className="truncate text-xs text-muted-foreground">
                Team: <span className="text-foreground">{activeTeam.name}</span>
              </p>
            )}
            <Badge variant={me.isSuperUser ? "default" : "secondary"} className="mt-1" data-testid="user-menu-role">
              {accessBadge(accessIn(me, activeOrganization, activeTeam)!) ?? APP_ROLE_LABELS[me.role]}
            </Badge>
          </div>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/settings/profile">
            <User aria-hidden="true" />
            Profile
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem
          disabled={loggingOut}
          onSelect={(event) => {
            // Keep the menu open so 'Logging out...' stays visible until we leave.
            event.preventDefault();
            void signOut();
          }}
        >
          <LogOut aria-hidden="true" />
          {loggingOut ? "Logging out..." : "Log out"}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
