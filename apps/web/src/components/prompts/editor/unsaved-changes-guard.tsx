// Asks before leaving the editor with unsaved changes: in-app navigation (the router's blocker, answered
// in a dialog) and closing or reloading the tab (the browser's own beforeunload prompt). A save
// navigates with `ignoreBlocker`, so it is never asked.
import { useBlocker } from "@tanstack/react-router";
import { PROMPT_MSG } from "@promptly/shared";
import {
  AlertDialog, AlertDialogAction, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogHeader, AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { buttonVariants } from "@/components/ui/button";

/** Only leaving the page counts, not a change of its search or hash. */
const leavesPage = ({ current, next }: { current: { pathname: string }; next: { pathname: string } }) => current.pathname !== next.pathname;

export function UnsavedChangesGuard({ active }: { active: boolean }) {
  const blocker = useBlocker({ shouldBlockFn: leavesPage, enableBeforeUnload: true, disabled: !active, withResolver: true });
  return (
    <AlertDialog open={blocker.status === "blocked"} onOpenChange={(open) => !open && blocker.reset?.()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Unsaved changes</AlertDialogTitle>
          <AlertDialogDescription>{PROMPT_MSG.unsavedChanges}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Stay</AlertDialogCancel>
          <AlertDialogAction className={buttonVariants({ variant: "destructive" })} onClick={() => blocker.proceed?.()}>
            Leave
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
