// After a change to a prompt: everything that shows prompts or their versions reloads.
import { toast } from "sonner";
import { trpc } from "@/lib/trpc";

export function useRefreshPrompt() {
  const utils = trpc.useUtils();
  return () => Promise.all([utils.prompts.invalidate(), utils.promptVersions.invalidate(), utils.dashboard.invalidate()]);
}

/** A refused change: the title says what failed, the server's message why. */
export const toastFailure = (title: string) => (error: { message: string }) => toast.error(title, { description: error.message });
