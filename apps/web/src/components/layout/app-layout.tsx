// The main layout of every protected page: sidebar, header and the page.
import { Outlet } from "@tanstack/react-router";
import { WorkspaceProvider } from "@/lib/workspace";
import { AppHeader } from "./app-header.tsx";
import { AppSidebar } from "./app-sidebar.tsx";
import { NavigationProgress } from "./navigation-progress.tsx";
import { SidebarStateProvider } from "./sidebar-state.tsx";

export function AppLayout() {
  return (
    <WorkspaceProvider>
      <SidebarStateProvider>
        <a
          href="#main-content"
          className="sr-only z-50 rounded-md bg-background px-3 py-2 text-sm font-medium shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:ring-2 focus:ring-ring"
        >
          Skip to content
        </a>
        <NavigationProgress />
        <div className="flex min-h-svh w-full">
          <AppSidebar />
          <div className="flex min-w-0 flex-1 flex-col">
            <AppHeader />
            <main id="main-content" tabIndex={-1} className="flex-1 p-4 outline-none md:p-6">
              <Outlet />
            </main>
          </div>
        </div>
      </SidebarStateProvider>
    </WorkspaceProvider>
  );
}
