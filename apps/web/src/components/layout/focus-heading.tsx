// After a page change inside the app, focus moves to the new page's heading, so a screen reader hears
// which page it is (a full page load is announced by the browser itself). A change of search params
// only (a tab, a filter) keeps focus where it is, and so does anything the person focused meanwhile.
import { useEffect } from "react";
import { useRouter } from "@tanstack/react-router";

/** How long a page may take to show its heading (its data may still be loading). */
const WAIT_FOR_HEADING_MS = 10_000;

function pageHeading(): HTMLElement | null {
  return document.querySelector<HTMLElement>("main h1") ?? document.querySelector<HTMLElement>("h1");
}

/** Focuses the page's heading once it is shown; gives up when focus moves elsewhere first. Returns a cancel. */
function focusHeadingWhenShown(): () => void {
  const before = document.activeElement;
  let done = false;
  const moved = () => {
    const active = document.activeElement;
    return !!active && active !== document.body && active !== before;
  };
  const attempt = () => {
    if (done) return;
    if (moved()) return finish();
    const heading = pageHeading();
    if (!heading || heading.getClientRects().length === 0) return;
    if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
    heading.focus({ preventScroll: true });
    finish();
  };
  const observer = new MutationObserver(attempt);
  const timer = window.setTimeout(() => finish(), WAIT_FOR_HEADING_MS);
  function finish() {
    done = true;
    observer.disconnect();
    window.clearTimeout(timer);
  }
  observer.observe(document.body, { childList: true, subtree: true });
  attempt();
  return finish;
}

export function FocusHeadingOnNavigate() {
  const router = useRouter();
  useEffect(() => {
    let cancel: (() => void) | null = null;
    const unsubscribe = router.subscribe("onRendered", (event) => {
      if (!event.fromLocation || !event.pathChanged) return;
      cancel?.();
      cancel = focusHeadingWhenShown();
    });
    return () => {
      unsubscribe();
      cancel?.();
    };
  }, [router]);
  return null;
}
