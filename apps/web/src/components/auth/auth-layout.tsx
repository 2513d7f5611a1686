// The auth area's layout: one centered card under the product name.
import { Outlet } from "@tanstack/react-router";

export function AuthLayout() {
  return (
    <main className="flex min-h-svh flex-col items-center justify-center gap-6 bg-muted/40 p-4">
      <p className="text-2xl font-bold tracking-tight">Promptly</p>
      <div className="w-full max-w-sm">
        <Outlet />
      </div>
    </main>
  );
}
