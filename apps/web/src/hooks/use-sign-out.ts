// Log out: end the session, forget the cached data, the saved active team
// and the kept playgrounds, then go to the sign-in screen. On failure: 'Error logging out' / 'Please try again'.
import { useState } from "react";
import { useRouter } from "@tanstack/react-router";
import { toast } from "sonner";
import { beginSignOut, queryClient, trpc, trpcClient } from "@/lib/trpc";
import { forgetKeptPlaygrounds } from "@/lib/kept-playgrounds";
import { clearWorkspaceSelection } from "@/lib/workspace";

export function useSignOut() {
  const router = useRouter();
  const utils = trpc.useUtils();
  const [loggingOut, setLoggingOut] = useState(false);

  async function signOut() {
    if (loggingOut) return;
    setLoggingOut(true);
    // Only once the requests already sent are answered: one that reached the server after the session
    // ended would be answered 401. New ones wait meanwhile.
    const ending = beginSignOut();
    try {
      await ending.quiet;
      await trpcClient.auth.signOut.mutate();
    } catch {
      ending.resume();
      setLoggingOut(false);
      toast.error("Error logging out", { description: "Please try again" });
      return;
    }
    // Signed out as far as the guards know, before navigating: the auth area sends signed-in people to /.
    utils.auth.me.setData(undefined, null);
    clearWorkspaceSelection();
    forgetKeptPlaygrounds();
    try {
      await router.navigate({ to: "/auth/signin" });
    } finally {
      // The screens that asked for the held requests are gone: those are dropped, never sent.
      ending.finish();
      // Only now drop everything else, so the protected screens we left do not refetch into 401s.
      queryClient.clear();
    }
  }

  return { signOut, loggingOut };
}
