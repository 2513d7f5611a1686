// 'Run evaluation': the versions to run every test case against (one to five), and optionally a model
// to run them all on instead of each version's own, on a chosen connection. Started, the evaluation opens.
import { useId, useState } from "react";
import { FlaskConical } from "lucide-react";
import { toast } from "sonner";
import { startEvaluationInput } from "@promptly/shared";
import type { PromptDetail } from "@/components/prompts/page/types";
import { versionText } from "@/components/prompts/page/version-select";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { FormFooter } from "@/components/ui/form-footer";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { trpc } from "@/lib/trpc";

const MAX_VERSIONS = 5;
/** The connection select's "the default" item (ids are uuids: never this). */
const ANY_CONNECTION = "any";

/** Production's version and the latest, or the latest alone. */
function defaultVersions(prompt: PromptDetail): number[] {
  const production = prompt.labels.find((label) => label.name === "production")?.version;
  return [...new Set([production, prompt.latestVersion].filter((version): version is number => version !== undefined))].sort((a, b) => a - b);
}

export function RunEvaluationDialog({ prompt, onStarted }: { prompt: PromptDetail; onStarted(id: string): void }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm">
          <FlaskConical aria-hidden="true" />
          Run evaluation
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90svh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Run evaluation</DialogTitle>
          <DialogDescription>Every test case runs against each chosen version; the results come in as the runs finish.</DialogDescription>
        </DialogHeader>
        {open && (
          <RunForm
            prompt={prompt}
            onDone={(id) => {
              setOpen(false);
              if (id) onStarted(id);
            }}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function RunForm({ prompt, onDone }: { prompt: PromptDetail; onDone(id?: string): void }) {
  const baseId = useId();
  const connectionId = useId();
  const utils = trpc.useUtils();
  const connections = trpc.playground.connections.useQuery({ promptId: prompt.id });
  const [versions, setVersions] = useState<number[]>(() => defaultVersions(prompt));
  const [model, setModel] = useState("");
  const [connection, setConnection] = useState(ANY_CONNECTION);
  const [error, setError] = useState<string>();
  const start = trpc.evaluations.start.useMutation({
    async onSuccess(summary) {
      toast.success("Evaluation started");
      await utils.evaluations.list.invalidate({ promptId: prompt.id });
      onDone(summary.id);
    },
    onError: (failure) => setError(failure.message),
  });
  const busy = start.isPending;
  const all = Array.from({ length: prompt.latestVersion }, (_, index) => prompt.latestVersion - index);

  return (
    <form
      noValidate
      aria-label="Run evaluation"
      className="grid min-w-0 gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        setError(undefined);
        const parsed = startEvaluationInput.safeParse({
          promptId: prompt.id,
          versions,
          model: model.trim() || undefined,
          connectionId: connection === ANY_CONNECTION ? undefined : connection,
        });
        if (!parsed.success) return setError(versions.length === 0 ? "Choose at least one version." : parsed.error.issues[0]!.message);
        start.mutate(parsed.data);
      }}
    >
      <fieldset className="grid gap-2" disabled={busy}>
        <legend className="mb-1 text-sm font-medium">Versions</legend>
        <div className="grid max-h-56 gap-2 overflow-y-auto">
          {all.map((version) => {
            const checked = versions.includes(version);
            return (
              <div key={version} className="flex items-center gap-2">
                <input
                  type="checkbox"
                  id={`${baseId}-${version}`}
                  className="size-4 accent-primary"
                  checked={checked}
                  disabled={!checked && versions.length >= MAX_VERSIONS}
                  onChange={() => setVersions((current) => (checked ? current.filter((item) => item !== version) : [...current, version].sort((a, b) => a - b)))}
                />
                <Label htmlFor={`${baseId}-${version}`}>{versionText(prompt, version)}</Label>
              </div>
            );
          })}
        </div>
        <p className="text-sm text-muted-foreground">Up to {MAX_VERSIONS} versions at once.</p>
      </fieldset>
      <FormField label="Model (optional)" description="Empty: each version runs on its own model.">
        <Input autoComplete="off" placeholder="e.g. gpt-4o-mini" value={model} disabled={busy} onChange={(event) => setModel(event.target.value)} />
      </FormField>
      <FormField label="Connection" id={connectionId} description="The team's connections that may run this prompt.">
        <Select value={connection} disabled={busy} onValueChange={setConnection}>
          <SelectTrigger id={connectionId} className="w-full">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ANY_CONNECTION}>The first one offering the model</SelectItem>
            {(connections.data ?? []).map((item) => (
              <SelectItem key={item.id} value={item.id}>
                {item.name}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </FormField>
      <FormFooter serverError={error} busy={busy} submitLabel="Run evaluation" onCancel={() => onDone()} />
    </form>
  );
}
