// "Use in code" on the prompt page: the dialog with the snippets loads on first open, so the page's
// code does not carry it.
import { lazy, Suspense, useState } from "react";
import { Code } from "lucide-react";
import { Button } from "@/components/ui/button";
import type { PromptDetail } from "../page/types.ts";

const UseInCodeDialog = lazy(() => import("./use-in-code-dialog.tsx").then((module) => ({ default: module.UseInCodeDialog })));

export function UseInCodeButton({ prompt }: { prompt: PromptDetail }) {
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        onClick={() => {
          setOpened(true);
          setOpen(true);
        }}
      >
        <Code aria-hidden="true" />
        Use in code
      </Button>
      {opened && (
        <Suspense fallback={null}>
          <UseInCodeDialog prompt={prompt} open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </>
  );
}
