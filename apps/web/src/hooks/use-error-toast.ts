// A failed load told once by a toast: the fixed id keeps re-renders (and strict mode's double effects)
// from showing it twice.
import { useEffect } from "react";
import { toast } from "sonner";

export function useErrorToast(failed: boolean, id: string, title: string, description?: string) {
  useEffect(() => {
    if (failed) toast.error(title, { id, description });
  }, [failed, id, title, description]);
}
