// The main header: sidebar toggle, organization switcher (more than one organization or a
// super user), team selector, 'Search prompts...' (desktop only), 'New Prompt' (who can create
// prompts), the notification bell and the user menu. Below 1024 px (Tailwind's `lg`, the header's one breakpoint) it
// collapses: search behind an icon, 'New Prompt' an icon, the switchers compact; they share the room.
import { can } from "@promptly/shared";
import { Link } from "@tanstack/react-router";
import { PanelLeft, Plus } from "lucide-react";
import { NotificationBell } from "@/components/notifications/notification-bell";
import { HeaderSearch } from "@/components/prompts/header-search";
import { OrganizationSwitcher, useOrganizationsLoadErrorToast } from "@/components/organizations/organization-switcher";
import { TeamSelector } from "@/components/teams/team-selector";
import { Button } from "@/components/ui/button";
import { useMe } from "@/hooks/use-me";
import { useWorkspace, accessIn } from "@/lib/workspace";
import { useSidebar } from "./sidebar-state.tsx";
import { UserMenu } from "./user-menu.tsx";

export function AppHeader() {
  const { data: me } = useMe();
  const { organizations, activeOrganization, activeTeam } = useWorkspace();
  // Here rather than only in the switcher: the switcher is hidden for most people.
  useOrganizationsLoadErrorToast();
  const { toggleSidebar, isMobile, open, openMobile } = useSidebar();

  // Shown to those who manage organizations, and to anyone with more than one.
  const showOrganizationSwitcher = can(accessIn(me, null), "page.organizations") || organizations.length > 1;
  // Shown to whoever can create prompts (editor or above) in the active team; super users see it regardless.
  const showNewPrompt = can(accessIn(me, activeOrganization, activeTeam), "prompt.write");

  return (
    <header className="sticky top-0 z-30 flex h-14 shrink-0 items-center gap-1 border-b border-border bg-background/95 px-2 backdrop-blur sm:gap-2 md:px-4">
      <Button
        variant="ghost"
        size="icon"
        onClick={toggleSidebar}
        aria-label="Toggle sidebar"
        aria-expanded={isMobile ? openMobile : open}
        aria-keyshortcuts="Control+B Meta+B"
      >
        <PanelLeft aria-hidden="true" />
      </Button>
      {/* The switchers take the room the other controls leave, up to 20rem each. */}
      <div className="flex min-w-0 flex-1 items-center gap-1 sm:gap-2">
        {showOrganizationSwitcher && (
          <div data-testid="organization-switcher-slot" className="min-w-0 max-w-80 flex-1">
            <OrganizationSwitcher />
          </div>
        )}
        <div data-testid="team-selector-slot" className="min-w-0 max-w-80 flex-1">
          <TeamSelector />
        </div>
      </div>
      <div className="flex shrink-0 items-center gap-1 sm:gap-2">
        <HeaderSearch />
        {showNewPrompt && (
          <Button className="max-lg:w-9 max-lg:px-0" asChild>
            <Link to="/prompts/new" search={{ teamId: activeTeam?.id }}>
              <Plus aria-hidden="true" />
              <span className="max-lg:sr-only">New Prompt</span>
            </Link>
          </Button>
        )}
        <NotificationBell />
        <UserMenu />
      </div>
    </header>
  );
}
