// True below the mobile breakpoint (viewport narrower than 768 px).
import { useSyncExternalStore } from "react";
import { MOBILE_BREAKPOINT_PX } from "@promptly/shared";

const query = `(max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`;

function subscribe(onChange: () => void) {
  const list = window.matchMedia(query);
  list.addEventListener("change", onChange);
  return () => list.removeEventListener("change", onChange);
}

export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches, () => false);
}
