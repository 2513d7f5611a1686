// All Prompts' "Import / Export" menu for the active team: export as JSON or a Markdown zip
// (a file download), and import a library or Langfuse JSON with a preview before anything is applied.
import { useId, useState } from "react";
import { ChevronDown, Download, Upload } from "lucide-react";
import { toast } from "sonner";
import type { RouterOutputs } from "@promptly/api";
import { IMPORT_FILE_MAX_BYTES, LIBRARY_MSG, can } from "@promptly/shared";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { Label } from "@/components/ui/label";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { callerOf, useMe } from "@/hooks/use-me";
import { trpc } from "@/lib/trpc";
import { saveFile } from "@/lib/save-file";
import { accessIn, useWorkspace } from "@/lib/workspace";
import { useRefreshPrompt, toastFailure } from "./page/use-refresh-prompt.ts";

type ImportPlan = RouterOutputs["library"]["previewImport"];

/** Saves a file the server made (JSON text or base64 bytes) through a temporary link. */
function download(file: RouterOutputs["library"]["export"]) {
  const bytes = file.encoding === "base64" ? Uint8Array.from(atob(file.data), (c) => c.charCodeAt(0)) : new TextEncoder().encode(file.data);
  saveFile(file.fileName, bytes, file.mimeType);
}

const OUTCOME_LABELS: Record<ImportPlan["items"][number]["outcome"], string> = {
  create: "New prompt",
  update: "New versions",
  unchanged: "Unchanged",
  conflict: "Conflict",
};

function PlanTable({ plan }: { plan: ImportPlan }) {
  const { create, update, unchanged, conflict, versions, renamed } = plan.summary;
  return (
    <div className="grid gap-2">
      <p role="status" className="text-sm">
        {`${create} new, ${update} with new versions, ${unchanged} unchanged, ${conflict} conflicts; ${versions} versions to save.`}
        {renamed > 0 && ` ${renamed} renamed to names Promptly accepts (lowercase, '-' for spaces), their includes in the file with them.`}
      </p>
      {conflict > 0 && <p className="text-sm text-destructive">{LIBRARY_MSG.previewConflicts}</p>}
      {conflict === 0 && create === 0 && update === 0 && <p className="text-sm text-muted-foreground">{LIBRARY_MSG.nothingToImport}</p>}
      <div className="max-h-72 overflow-auto rounded-md border">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Prompt</TableHead>
              <TableHead>Result</TableHead>
              <TableHead>Versions</TableHead>
              <TableHead>Notes</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {plan.items.map((item, index) => (
              <TableRow key={`${item.name}-${index}`}>
                <TableCell className="font-mono text-xs break-all">
                  {item.renamedFrom !== null && (
                    <>
                      <span className="text-muted-foreground line-through">{item.renamedFrom}</span>
                      <span className="sr-only"> renamed to </span>
                      <span aria-hidden="true"> → </span>
                    </>
                  )}
                  {item.name}
                </TableCell>
                <TableCell>
                  <Badge variant={item.outcome === "conflict" ? "destructive" : item.outcome === "unchanged" ? "outline" : "secondary"}>{OUTCOME_LABELS[item.outcome]}</Badge>
                </TableCell>
                <TableCell>{item.newVersions ? `+${item.newVersions}` : "–"}</TableCell>
                <TableCell className="text-xs">
                  {[...item.problems, ...item.notes, ...item.labels.map((label) => `${label.name} → v${label.version}`)].join("; ") || "–"}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}

function ImportDialog({ teamId, teamName, open, onOpenChange }: { teamId: string; teamName: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const inputId = useId();
  const [document, setDocument] = useState<unknown>(undefined);
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = useRefreshPrompt();
  const preview = trpc.library.previewImport.useMutation({ onError: (error) => setProblem(error.message) });
  const apply = trpc.library.applyImport.useMutation({
    async onSuccess(plan) {
      toast.success(LIBRARY_MSG.importedToast(plan.summary.create, plan.summary.versions));
      onOpenChange(false);
      await refresh();
    },
    onError: toastFailure("Nothing was imported"),
  });
  const reset = () => {
    setDocument(undefined);
    setProblem(null);
    preview.reset();
  };
  async function choose(file: File | undefined) {
    reset();
    if (!file) return;
    if (file.size > IMPORT_FILE_MAX_BYTES) return setProblem(LIBRARY_MSG.fileTooLarge);
    let parsed: unknown;
    try {
      parsed = JSON.parse(await file.text());
    } catch {
      return setProblem(LIBRARY_MSG.notADocument);
    }
    setDocument(parsed);
    preview.mutate({ teamId, document: parsed });
  }
  const plan = preview.data;
  const busy = preview.isPending || apply.isPending;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (apply.isPending) return;
        if (!next) reset();
        onOpenChange(next);
      }}
    >
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Import into {teamName}</DialogTitle>
          <DialogDescription>
            A Promptly library export (JSON) or Langfuse prompt JSON. You see what would change before anything is imported; a version already here is not saved twice.
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          <Label htmlFor={inputId}>File</Label>
          <input
            id={inputId}
            type="file"
            accept="application/json,.json"
            disabled={busy}
            onChange={(event) => void choose(event.target.files?.[0])}
            className="text-sm file:mr-3 file:rounded-md file:border file:border-border file:bg-background file:px-3 file:py-1.5 file:text-sm"
          />
        </div>
        {problem && (
          <p role="alert" className="text-sm text-destructive">
            {problem}
          </p>
        )}
        {preview.isPending && <p role="status" className="text-sm text-muted-foreground">Checking the file...</p>}
        {plan && <PlanTable plan={plan} />}
        <DialogFooter>
          <Button variant="outline" disabled={apply.isPending} onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button disabled={!plan || busy || plan.summary.conflict > 0 || (plan.summary.create === 0 && plan.summary.update === 0)} onClick={() => apply.mutate({ teamId, document })}>
            {apply.isPending ? "Importing..." : "Apply import"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** Export and import for the active team; import only for those who may write prompts there. */
export function LibraryMenu() {
  const { activeOrganization, activeTeam } = useWorkspace();
  const { data: me } = useMe();
  const utils = trpc.useUtils();
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);
  if (!activeTeam) return null;
  const access = accessIn(callerOf(me), activeOrganization, activeTeam);
  if (!can(access, "prompt.read")) return null;
  const exportAs = async (format: "json" | "zip") => {
    setExporting(true);
    try {
      download(await utils.library.export.fetch({ teamId: activeTeam.id, format }, { staleTime: 0 }));
      toast.success(LIBRARY_MSG.exportedToast);
    } catch (error) {
      toast.error("Export failed", { description: (error as Error).message });
    } finally {
      setExporting(false);
    }
  };
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="outline" disabled={exporting}>
            {exporting ? "Exporting..." : "Import / Export"} <ChevronDown aria-hidden="true" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuLabel>Team {activeTeam.name}</DropdownMenuLabel>
          <DropdownMenuItem onSelect={() => void exportAs("json")}>
            <Download aria-hidden="true" /> Export JSON
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => void exportAs("zip")}>
            <Download aria-hidden="true" /> Export Markdown (zip)
          </DropdownMenuItem>
          {can(access, "prompt.write") && (
            <>
              <DropdownMenuSeparator />
              <DropdownMenuItem onSelect={() => setImporting(true)}>
                <Upload aria-hidden="true" /> Import...
              </DropdownMenuItem>
            </>
          )}
        </DropdownMenuContent>
      </DropdownMenu>
      <ImportDialog teamId={activeTeam.id} teamName={activeTeam.name} open={importing} onOpenChange={setImporting} />
    </>
  );
}
