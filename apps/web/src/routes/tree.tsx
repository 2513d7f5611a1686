import { createRootRoute, createRoute, Outlet } from "@tanstack/react-router";
import { api, trpc } from "@/lib/trpc";

const rootRoute = createRootRoute({ component: () => <Outlet /> });

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/",
  loader: () => api.health.check.ensureData(),
  component: HomePage,
});

function HomePage() {
  const { data } = trpc.health.check.useQuery();
  return (
    <main className="mx-auto max-w-xl p-10">
      <h1 className="text-3xl font-semibold">Promptly</h1>
      <p className="mt-2 text-muted-foreground">Your team's shared library of AI prompts.</p>
      <p className="mt-6 text-sm" data-testid="health">Service status: {data?.status ?? "…"}</p>
    </main>
  );
}

export const routeTree = rootRoute.addChildren([indexRoute]);
