// The Account Settings layout: its own header with 'Back to Dashboard', the title and a
// side menu (Profile, Password, Notifications, Security, Debug).
import { Link, Outlet, useRouter } from "@tanstack/react-router";
import { ArrowLeft, Bell, Bug, KeyRound, Shield, User } from "lucide-react";
import { UserMenu } from "@/components/layout/user-menu";
import { NotificationBell } from "@/components/notifications/notification-bell";
import { Button } from "@/components/ui/button";
import { WorkspaceProvider } from "@/lib/workspace";
import { cn } from "@/lib/utils";

const SETTINGS_NAV = [
  { to: "/settings/profile", label: "Profile", icon: User },
  { to: "/settings/password", label: "Password", icon: KeyRound },
  { to: "/settings/notifications", label: "Notifications", icon: Bell },
  { to: "/settings/security", label: "Security", icon: Shield },
  { to: "/settings/debug", label: "Debug", icon: Bug },
] as const;

/** Back in history, or to / when this tab has no page of the app to go back to. */
function BackToDashboardButton() {
  const router = useRouter();
  return (
    <Button
      variant="ghost"
      onClick={() => {
        if (router.history.canGoBack()) router.history.back();
        else void router.navigate({ to: "/" });
      }}
    >
      <ArrowLeft aria-hidden="true" />
      Back to Dashboard
    </Button>
  );
}

function SettingsNav() {
  return (
    <nav aria-label="Settings" className="md:w-56 md:shrink-0">
      {/* Wraps on a phone rather than scrolling, so no section hides off-screen. */}
      <ul className="flex flex-wrap gap-1 md:flex-col">
        {SETTINGS_NAV.map(({ to, label, icon: Icon }) => (
          <li key={to}>
            <Link
              to={to}
              className={cn(
                "flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap text-muted-foreground transition-colors",
                "hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none",
              )}
              activeProps={{ className: "bg-accent text-accent-foreground" }}
            >
              <Icon className="size-4" aria-hidden="true" />
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function SettingsLayout() {
  return (
    <WorkspaceProvider>
      <div className="flex min-h-svh flex-col">
        <header className="sticky top-0 z-30 flex h-14 shrink-0 items-center gap-2 border-b border-border bg-background/95 px-3 backdrop-blur md:px-4">
          <BackToDashboardButton />
          <div className="ml-auto flex items-center gap-2">
            <NotificationBell />
            <UserMenu />
          </div>
        </header>
        <main id="main-content" className="mx-auto w-full max-w-5xl flex-1 p-4 md:p-6">
          <h1 className="mb-6 text-2xl font-semibold tracking-tight">Account Settings</h1>
          <div className="flex flex-col gap-6 md:flex-row">
            <SettingsNav />
            <div className="min-w-0 flex-1">
              <Outlet />
            </div>
          </div>
        </main>
      </div>
    </WorkspaceProvider>
  );
}
