// The whole page when Promptly's server cannot be reached while the page loads: said in the product's
// words at once, tried again on its own with growing waits, and 'Try again' to try now. Each try asks
// for the signed-in person alone, so the page stays in place until the server answers; then the
// routes load again.
import { useCallback, useEffect, useRef, useState } from "react";
import { RefreshCw, WifiOff } from "lucide-react";
import { useRouter } from "@tanstack/react-router";
import { Button } from "@/components/ui/button";
import { serverNotReached } from "@/lib/read-failure";
import { api } from "@/lib/trpc";
import { cn } from "@/lib/utils";

const FIRST_WAIT_MS = 2_000;
const LONGEST_WAIT_MS = 30_000;

export function ServerUnreachable({ reset }: { reset(): void }) {
  const router = useRouter();
  const [failedTries, setFailedTries] = useState(0);
  const [trying, setTrying] = useState(false);
  const [secondsLeft, setSecondsLeft] = useState(Math.ceil(FIRST_WAIT_MS / 1000));
  const tryingRef = useRef(false);

  const tryNow = useCallback(async () => {
    if (tryingRef.current) return;
    tryingRef.current = true;
    setTrying(true);
    let reached: boolean;
    try {
      await api.auth.me.fetch(undefined, { retry: false, staleTime: 0 });
      reached = true;
    } catch (error) {
      // An answer, even a failure, means the server is there again: the routes show what they get.
      reached = !serverNotReached(error);
    }
    if (reached) {
      await router.invalidate();
      reset();
      return;
    }
    tryingRef.current = false;
    setTrying(false);
    setFailedTries((count) => count + 1);
  }, [router, reset]);

  useEffect(() => {
    if (trying) return;
    const wait = Math.min(FIRST_WAIT_MS * 2 ** failedTries, LONGEST_WAIT_MS);
    const due = Date.now() + wait;
    setSecondsLeft(Math.ceil(wait / 1000));
    const tick = window.setInterval(() => setSecondsLeft(Math.max(1, Math.ceil((due - Date.now()) / 1000))), 1000);
    const retry = window.setTimeout(() => void tryNow(), wait);
    return () => {
      window.clearInterval(tick);
      window.clearTimeout(retry);
    };
  }, [failedTries, trying, tryNow]);

  return (
    <main role="alert" className="mx-auto flex min-h-svh max-w-xl flex-col items-center justify-center gap-3 p-6 text-center">
      <WifiOff aria-hidden="true" className="size-10 text-muted-foreground" />
      <h1 className="text-2xl font-semibold">Promptly cannot reach its server</h1>
      <p className="text-muted-foreground">
        Check your connection. If it works, the server may be restarting or down: tell whoever runs Promptly if this lasts.
      </p>
      <p className="text-sm text-muted-foreground" data-testid="server-unreachable-retrying">
        {trying ? "Retrying now..." : `Retrying on its own in ${secondsLeft} s.`}
      </p>
      <Button variant="outline" onClick={() => void tryNow()}>
        <RefreshCw aria-hidden="true" className={cn(trying && "animate-spin")} />
        Try again
      </Button>
    </main>
  );
}
