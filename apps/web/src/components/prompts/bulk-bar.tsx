// The selection bar of All Prompts: how many prompts are chosen, Select all on page, Clear,
// and one action on all of them (tags, folder, label, archive, restore), all or nothing on the server.
import { useId, useState } from "react";
import { Archive, ArchiveRestore, ChevronDown, X } from "lucide-react";
import { toast } from "sonner";
import type { RouterInputs } from "@promptly/api";
import { LIBRARY_MSG } from "@promptly/shared";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { trpc } from "@/lib/trpc";
import { useRefreshPrompt } from "./page/use-refresh-prompt.ts";

type BulkAction = RouterInputs["prompts"]["bulk"]["action"];
type AskedKind = "addTags" | "removeTags" | "moveToFolder" | "setLabel" | "removeLabel";

const ASKED: Record<AskedKind, { title: string; label: string; hint: string; action: (value: string) => BulkAction }> = {
  addTags: { title: "Add tags", label: "Tags", hint: "Separate tags with commas.", action: (value) => ({ kind: "addTags", tags: splitTags(value) }) },
  removeTags: { title: "Remove tags", label: "Tags", hint: "Separate tags with commas.", action: (value) => ({ kind: "removeTags", tags: splitTags(value) }) },
  moveToFolder: {
    title: "Move to folder",
    label: "Folder",
    hint: "Each prompt keeps the last part of its name: a/b/x moved to c becomes c/x. Leave empty for the top level.",
    action: (value) => ({ kind: "moveToFolder", folder: value.trim().replace(/^\/+|\/+$/g, "") }),
  },
  setLabel: { title: "Set label", label: "Label", hint: "The label points at each prompt's latest version.", action: (value) => ({ kind: "setLabel", label: value.trim() }) },
  removeLabel: { title: "Remove label", label: "Label", hint: "Prompts without this label are left as they are.", action: (value) => ({ kind: "removeLabel", label: value.trim() }) },
};

const splitTags = (value: string) => value.split(",").map((tag) => tag.trim()).filter(Boolean);

interface BulkBarProps {
  selected: { id: string; name: string }[];
  pageCount: number;
  onSelectAll: () => void;
  onClear: () => void;
}

export function BulkBar({ selected, pageCount, onSelectAll, onClear }: BulkBarProps) {
  const [asking, setAsking] = useState<AskedKind | null>(null);
  const [value, setValue] = useState("");
  const inputId = useId();
  const refresh = useRefreshPrompt();
  const names = new Map(selected.map((prompt) => [prompt.id, prompt.name]));
  const bulk = trpc.prompts.bulk.useMutation({
    async onSuccess(result) {
      if (!result.applied) {
        toast.error(`${LIBRARY_MSG.bulkRefused} ${result.refused.length} refused`, {
          description: result.refused.map((item) => `${item.name ?? names.get(item.id) ?? item.id}: ${item.reason}`).join("\n"),
        });
        return;
      }
      toast.success(LIBRARY_MSG.bulkDone(result.changed));
      setAsking(null);
      setValue("");
      onClear();
      await refresh();
    },
    onError: (error) => toast.error(LIBRARY_MSG.bulkRefused, { description: error.message }),
  });
  const run = (action: BulkAction) => bulk.mutate({ promptIds: selected.map((prompt) => prompt.id), action });
  const count = selected.length;
  const ask = asking && ASKED[asking];
  return (
    <section aria-label="Selection" className="sticky top-2 z-10 flex flex-wrap items-center gap-2 rounded-lg border bg-background p-2 shadow-sm">
      <p role="status" className="px-1 text-sm font-medium">
        {count} selected
      </p>
      <Button variant="ghost" size="sm" onClick={onSelectAll} disabled={count >= pageCount}>
        Select all on page
      </Button>
      <Button variant="ghost" size="sm" onClick={onClear}>
        <X aria-hidden="true" /> Clear
      </Button>
      <div className="ml-auto flex flex-wrap gap-2">
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="outline" size="sm" disabled={bulk.isPending}>
              Actions <ChevronDown aria-hidden="true" />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            {(Object.keys(ASKED) as AskedKind[]).map((kind) => (
              <DropdownMenuItem key={kind} onSelect={() => setAsking(kind)}>
                {ASKED[kind].title}...
              </DropdownMenuItem>
            ))}
          </DropdownMenuContent>
        </DropdownMenu>
        <Button variant="outline" size="sm" disabled={bulk.isPending} onClick={() => run({ kind: "archive" })}>
          <Archive aria-hidden="true" /> Archive
        </Button>
        <Button variant="outline" size="sm" disabled={bulk.isPending} onClick={() => run({ kind: "restore" })}>
          <ArchiveRestore aria-hidden="true" /> Restore
        </Button>
      </div>
      <Dialog
        open={!!ask}
        onOpenChange={(open) => {
          if (bulk.isPending) return;
          if (!open) {
            setAsking(null);
            setValue("");
          }
        }}
      >
        {ask && (
          <DialogContent>
            <form
              className="grid gap-4"
              onSubmit={(event) => {
                event.preventDefault();
                run(ask.action(value));
              }}
            >
              <DialogHeader>
                <DialogTitle>{`${ask.title}: ${count} prompt${count === 1 ? "" : "s"}`}</DialogTitle>
                <DialogDescription>{ask.hint}</DialogDescription>
              </DialogHeader>
              <div className="grid gap-2">
                <Label htmlFor={inputId}>{ask.label}</Label>
                <Input id={inputId} autoComplete="off" value={value} onChange={(event) => setValue(event.target.value)} />
              </div>
              <DialogFooter>
                <Button type="button" variant="outline" disabled={bulk.isPending} onClick={() => setAsking(null)}>
                  Cancel
                </Button>
                <Button type="submit" disabled={bulk.isPending || (asking !== "moveToFolder" && !value.trim())}>
                  {bulk.isPending ? "Applying..." : ask.title}
                </Button>
              </DialogFooter>
            </form>
          </DialogContent>
        )}
      </Dialog>
    </section>
  );
}
