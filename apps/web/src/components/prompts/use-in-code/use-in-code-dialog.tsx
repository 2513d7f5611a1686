// The snippets that fetch this prompt from code, for this server's address and a label of the prompt
// (production by default), each with Copy; and where to get a key: the Teams page's API keys.
import { useId, useState } from "react";
import { Link } from "@tanstack/react-router";
import { LATEST_LABEL, RUNTIME_DEFAULT_LABEL } from "@promptly/shared";
import { Alert, AlertTitle } from "@/components/ui/alert";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { CopyButton } from "../page/copy-button.tsx";
import type { PromptDetail } from "../page/types.ts";
import { snippets } from "./snippets.ts";

export function UseInCodeDialog({ prompt, open, onOpenChange }: { prompt: PromptDetail; open: boolean; onOpenChange(open: boolean): void }) {
  const labels = [...new Set([...prompt.labels.map((label) => label.name), LATEST_LABEL])];
  const [label, setLabel] = useState(labels.includes(RUNTIME_DEFAULT_LABEL) ? RUNTIME_DEFAULT_LABEL : labels[0]!);
  const labelId = useId();
  const base = window.location.origin;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Use in code</DialogTitle>
          <DialogDescription className="wrap-anywhere">
            Fetch {prompt.name} from your code with a team API key of {prompt.teamName}. Every API is described in{" "}
            <a className="text-primary underline underline-offset-4" href="/api/docs">
              the API reference
            </a>
            .
          </DialogDescription>
        </DialogHeader>
        {prompt.visibility === "private" && (
          <Alert role="status">
            <AlertTitle className="line-clamp-none">API keys do not see private prompts: share it with its team to fetch it from code.</AlertTitle>
          </Alert>
        )}
        <div className="grid gap-1.5">
          <Label id={labelId}>Label</Label>
          <Select value={label} onValueChange={setLabel}>
            <SelectTrigger aria-labelledby={labelId} className="w-full sm:w-56">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {labels.map((name) => (
                <SelectItem key={name} value={name}>
                  {name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <p className="text-sm">
          A team admin creates keys on the{" "}
          <Link
            to="/teams"
            search={{ organizationId: prompt.organizationId, teamId: prompt.teamId, newKey: true }}
            className="text-primary underline underline-offset-4"
          >
            Teams page
          </Link>{" "}
          of {prompt.teamName} (Create API key opens there): the read scope fetches prompts; the Langfuse SDKs use the key as their secret key and its public key beside it.
        </p>
        {snippets(base, prompt.name, label).map((snippet) => (
          <section key={snippet.id} aria-labelledby={`${labelId}-${snippet.id}`} className="grid min-w-0 gap-1.5" data-testid={`snippet-${snippet.id}`}>
            <div className="flex min-w-0 items-center justify-between gap-2">
              <h3 id={`${labelId}-${snippet.id}`} className="text-sm font-medium">
                {snippet.title}
              </h3>
              <CopyButton text={snippet.code} label={`Copy ${snippet.title}`} />
            </div>
            <p className="text-sm text-muted-foreground">{snippet.description}</p>
            <pre className="rounded-md border bg-muted p-3 font-mono text-xs break-all whitespace-pre-wrap">
              <code>{snippet.code}</code>
            </pre>
          </section>
        ))}
      </DialogContent>
    </Dialog>
  );
}
