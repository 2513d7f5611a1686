// Import test cases from a CSV or JSON Lines file, picked or pasted. The server takes every case of
// the file or none: its refusal lists the bad lines, shown here as a list.
import { useId, useState } from "react";
import { TriangleAlert, Upload } from "lucide-react";
import { toast } from "sonner";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { trpc } from "@/lib/trpc";

type Format = "csv" | "jsonl";

const FORMAT_LABELS: Record<Format, string> = { csv: "CSV", jsonl: "JSON Lines" };

export function ImportTestCasesDialog({ promptId }: { promptId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          <Upload aria-hidden="true" />
          Import
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90svh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Import test cases</DialogTitle>
          <DialogDescription>
            One case a row. CSV: a first line naming the columns, one per variable (and per placeholder, its messages as a JSON array), and optionally expected and assertions (a
            JSON array). JSON Lines: one object a line with variables, placeholders, expected and assertions. A file with a bad row imports nothing.
          </DialogDescription>
        </DialogHeader>
        {open && <ImportForm promptId={promptId} onDone={() => setOpen(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function ImportForm({ promptId, onDone }: { promptId: string; onDone(): void }) {
  const formatId = useId();
  const utils = trpc.useUtils();
  const [format, setFormat] = useState<Format>("csv");
  const [content, setContent] = useState("");
  const [fileName, setFileName] = useState<string>();
  const [problems, setProblems] = useState<string[]>([]);
  const importCases = trpc.testCases.import.useMutation({
    async onSuccess(result) {
      toast.success(`${result.imported} ${result.imported === 1 ? "test case" : "test cases"} imported`);
      await utils.testCases.list.invalidate({ promptId });
      onDone();
    },
    onError: (error) => setProblems(error.message.split("\n").filter(Boolean)),
  });
  const busy = importCases.isPending;

  return (
    <form
      noValidate
      aria-label="Import test cases"
      className="grid min-w-0 gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        setProblems([]);
        importCases.mutate({ promptId, format, content });
      }}
    >
      <FormField label="File" description={fileName ? `Read from ${fileName}: edit it below if needed.` : "A .csv or .jsonl file; or paste its content below."}>
        <Input
          type="file"
          accept=".csv,.jsonl,.ndjson,text/csv,application/x-ndjson"
          disabled={busy}
          onChange={async (event) => {
            const file = event.target.files?.[0];
            if (!file) return;
            setFileName(file.name);
            setFormat(/\.(jsonl|ndjson)$/i.test(file.name) ? "jsonl" : "csv");
            setContent(await file.text());
            setProblems([]);
          }}
        />
      </FormField>
      <FormField label="Format" id={formatId}>
        <Select value={format} disabled={busy} onValueChange={(next) => setFormat(next as Format)}>
          <SelectTrigger id={formatId} className="w-full sm:w-48">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {(Object.keys(FORMAT_LABELS) as Format[]).map((option) => (
              <SelectItem key={option} value={option}>
                {FORMAT_LABELS[option]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </FormField>
      <FormField label="Content">
        <Textarea
          rows={8}
          className="font-mono text-xs"
          spellCheck={false}
          placeholder={format === "csv" ? "question,expected\nWhat is 2 + 2?,4" : '{"variables":{"question":"What is 2 + 2?"},"expected":"4"}'}
          value={content}
          disabled={busy}
          onChange={(event) => setContent(event.target.value)}
        />
      </FormField>
      {problems.length > 0 && (
        <Alert variant="destructive" data-testid="import-problems">
          <TriangleAlert aria-hidden="true" />
          <AlertTitle>Nothing was imported</AlertTitle>
          <AlertDescription>
            <ul className="grid list-disc gap-1 pl-4">
              {problems.map((problem) => (
                <li key={problem} className="wrap-anywhere">
                  {problem}
                </li>
              ))}
            </ul>
          </AlertDescription>
        </Alert>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" disabled={busy} onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy || !content.trim()} disabledReason={busy ? undefined : "Paste the test cases first"}>
          {busy ? "Importing..." : "Import test cases"}
        </Button>
      </DialogFooter>
    </form>
  );
}
