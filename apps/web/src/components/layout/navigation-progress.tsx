// A thin bar at the top while a navigation waits for its data (after a short delay, so quick ones
// show nothing), announced to assistive technology as busy.
import { useEffect, useState } from "react";
import { useRouterState } from "@tanstack/react-router";

const SHOW_AFTER_MS = 150;

export function NavigationProgress() {
  const loading = useRouterState({ select: (state) => state.isLoading });
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!loading) return setShown(false);
    const timer = setTimeout(() => setShown(true), SHOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [loading]);
  if (!shown) return null;
  return (
    <div role="progressbar" aria-label="Loading page" aria-busy="true" className="fixed inset-x-0 top-0 z-50 h-0.5 overflow-hidden bg-primary/20">
      <div className="h-full w-1/3 animate-[navigation-progress_1s_ease-in-out_infinite] bg-primary" />
    </div>
  );
}
