// The main layout of every protected page (spec 2): sidebar, header and the page.
import { Outlet } from "@tanstack/react-router";
import { WorkspaceProvider } from "@/lib/workspace";
import { AppHeader } from "./app-header.tsx";
import { AppSidebar } from "./app-sidebar.tsx";
import { SidebarStateProvider } from "./sidebar-state.tsx";

export function AppLayout() {
  return (
    <WorkspaceProvider>
      <SidebarStateProvider>
        <div className="flex min-h-svh w-full">
          <AppSidebar />
          <div className="flex min-w-0 flex-1 flex-col">
            <AppHeader />
            <main id="main-content" className="flex-1 p-4 md:p-6">
              <Outlet />
            </main>
          </div>
        </div>
      </SidebarStateProvider>
    </WorkspaceProvider>
  );
}
