// Copies a text to the clipboard and says so; `label` names what is copied ("Copy name").
import { Copy } from "lucide-react";
import { toast } from "sonner";
import { PROMPT_MSG } from "@promptly/shared";
import { Button } from "@/components/ui/button";

export function CopyButton({ text, label }: { text: string; label: string }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(PROMPT_MSG.copiedToast);
    } catch {
      toast.error("Could not copy", { description: "The browser did not allow access to the clipboard." });
    }
  };
  return (
    <Button variant="outline" size="sm" aria-label={label} onClick={() => void copy()}>
      <Copy aria-hidden="true" />
      Copy
    </Button>
  );
}
