// The main sidebar: items sidebar table, a footer with version, role and '(Org Admin)'.
// Desktop: a column that collapses to icons (3rem); mobile: a side sheet (18rem).
import { Link } from "@tanstack/react-router";
import { BarChart3, Bookmark, Building2, FileText, LayoutDashboard, PlugZap, ScrollText, Sparkles, Users, type LucideIcon } from "lucide-react";
import { SIDEBAR_WIDTH, SIDEBAR_WIDTH_COLLAPSED, SIDEBAR_WIDTH_MOBILE } from "@promptly/shared";
import { Sheet, SheetContent, SheetTitle } from "@/components/ui/sheet";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { useMe, callerOf } from "@/hooks/use-me";
import { APP_ROLE_LABELS } from "@/lib/roles";
import { cn } from "@/lib/utils";
import { usePageAccess, useWorkspace } from "@/lib/workspace";
import { showsOrgAdminNote, sidebarItems, type SidebarPath } from "./sidebar-items.ts";
import { useSidebar } from "./sidebar-state.tsx";

const ICONS: Record<SidebarPath, LucideIcon> = {
  "/": LayoutDashboard,
  "/prompts": FileText,
  "/bookmarks": Bookmark,
  "/teams": Users,
  "/organizations": Building2,
  "/analytics": BarChart3,
  "/audit": ScrollText,
  "/providers": PlugZap,
};

function SidebarBody({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const { data: me } = useMe();
  const { organizationsError, teamsError } = useWorkspace();
  const access = usePageAccess(callerOf(me));
  const items = sidebarItems(access, { organizationUnknown: organizationsError || teamsError });

  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className={cn("flex h-14 shrink-0 items-center gap-2 border-b border-sidebar-border px-3", collapsed && "justify-center px-0")}>
        <Sparkles className="size-5 shrink-0" aria-hidden="true" />
        <span className={cn("font-semibold", collapsed && "sr-only")}>Promptly</span>
      </div>
      <nav aria-label="Main" className="min-h-0 flex-1 overflow-y-auto p-2">
        <ul className="flex flex-col gap-1">
          {items.map((item) => {
            const Icon = ICONS[item.to];
            const link = (
              <Link
                to={item.to}
                activeOptions={{ exact: true }}
                onClick={onNavigate}
                className={cn(
                  "flex h-9 items-center gap-3 rounded-md px-2 text-sm text-sidebar-foreground outline-none hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-2 focus-visible:ring-ring",
                  "data-[status=active]:bg-sidebar-accent data-[status=active]:font-medium data-[status=active]:text-sidebar-accent-foreground",
                  collapsed && "justify-center px-0",
                )}
              >
                <Icon className="size-4 shrink-0" aria-hidden="true" />
                <span className={cn("truncate", collapsed && "sr-only")}>{item.label}</span>
              </Link>
            );
            return (
              <li key={item.to}>
                {collapsed ? (
                  <Tooltip>
                    <TooltipTrigger asChild>{link}</TooltipTrigger>
                    <TooltipContent side="right">{item.label}</TooltipContent>
                  </Tooltip>
                ) : (
                  link
                )}
              </li>
            );
          })}
        </ul>
      </nav>
      <div
        data-testid="sidebar-footer"
        className={cn("shrink-0 border-t border-sidebar-border p-3 text-xs text-muted-foreground", collapsed && "sr-only")}
      >
        <p>Promptly v{__APP_VERSION__}</p>
        {me && (
          <p>
            Role: <span className="font-medium text-foreground">{APP_ROLE_LABELS[me.role]}</span>
            {showsOrgAdminNote(access) && " (Org Admin)"}
          </p>
        )}
      </div>
    </div>
  );
}

export function AppSidebar() {
  const { open, isMobile, openMobile, setOpenMobile } = useSidebar();

  if (isMobile) {
    return (
      <Sheet open={openMobile} onOpenChange={setOpenMobile}>
        <SheetContent
          side="left"
          data-testid="sidebar"
          data-mobile="true"
          aria-describedby={undefined}
          className="bg-sidebar p-0 sm:max-w-none"
          style={{ width: SIDEBAR_WIDTH_MOBILE }}
        >
          <SheetTitle className="sr-only">Sidebar</SheetTitle>
          <SidebarBody collapsed={false} onNavigate={() => setOpenMobile(false)} />
        </SheetContent>
      </Sheet>
    );
  }

  return (
    <aside
      data-testid="sidebar"
      data-state={open ? "expanded" : "collapsed"}
      aria-label="Sidebar"
      className="sticky top-0 h-svh shrink-0 overflow-hidden border-r border-sidebar-border bg-sidebar transition-[width] duration-200 ease-linear"
      style={{ width: open ? SIDEBAR_WIDTH : SIDEBAR_WIDTH_COLLAPSED }}
    >
      <SidebarBody collapsed={!open} />
    </aside>
  );
}
