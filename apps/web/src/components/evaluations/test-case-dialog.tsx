// A test case's dialog (Add, Edit, and Save as test case from the Playground): a field per variable of
// the prompt's latest version (and per placeholder, its messages as JSON), the expected output, and the assertions. Checked with the procedures'
// own schema; the server's refusal shown in its words, on the expected output when it is about that.
// The list holds previews only, so Edit reads the case whole (testCases.get) before the form opens:
// read afresh at each opening, never from the cache, since saving writes back every field the form was
// filled with (an answer cached a minute ago would undo what another session saved since).
import { useRef, useState } from "react";
import { toast } from "sonner";
import { EVALUATION_MSG, effectiveContract, testCaseInput, type ChatMessage, type VariableContract, type VariableProblem } from "@promptly/shared";
import type { RouterOutputs } from "@promptly/api";
import { LoadFailure } from "@/components/layout/load-failure";
import { typedValues, type FieldValue } from "@/components/prompts/page/try-values";
import { VariableFields } from "@/components/prompts/page/variable-field";
import { prettyJson } from "@/components/prompts/page/version-body";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { FormFooter } from "@/components/ui/form-footer";
import { Skeleton } from "@/components/ui/skeleton";
import { Textarea } from "@/components/ui/textarea";
import { trpc } from "@/lib/trpc";
import { AssertionEditor, assertionIssues, toAssertions, toDraft, type AssertionDraft } from "./assertion-editor.tsx";
import { refusalPlaces } from "./test-case-refusal.ts";

export type TestCasePreview = RouterOutputs["testCases"]["list"][number];
type TestCase = RouterOutputs["testCases"]["get"];

/** What a new case starts with (the Playground's run: its variables and answer). */
export interface TestCaseSeed {
  variables: Record<string, unknown>;
  placeholders?: Record<string, ChatMessage[]>;
  expected?: string;
}

interface TestCaseDialogProps {
  promptId: string;
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The case to edit; none: a new one. */
  testCaseId?: string;
  seed?: TestCaseSeed;
}

export function TestCaseDialog({ promptId, open, onOpenChange, testCaseId, seed }: TestCaseDialogProps) {
  const title = testCaseId ? "Edit test case" : "Add test case";
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90svh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>The variables' values to run each version with, what the answer should be, and the checks it must pass.</DialogDescription>
        </DialogHeader>
        {open && <CaseFormLoader promptId={promptId} testCaseId={testCaseId} seed={seed} title={title} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

/** The latest version's contract first: the fields are its variables; and the case to edit, whole. */
function CaseFormLoader({ promptId, testCaseId, seed, title, onDone }: { promptId: string; testCaseId?: string; seed?: TestCaseSeed; title: string; onDone(): void }) {
  const latest = trpc.prompts.get.useQuery({ id: promptId, label: "latest" });
  const whole = trpc.testCases.get.useQuery({ promptId, id: testCaseId ?? "" }, { enabled: testCaseId !== undefined, staleTime: 0, refetchOnMount: "always" });
  // The form's fields are set once, when it appears: not before the case is read for this opening, and read
  // well (a failed read leaves the cache's copy of an earlier opening, which must not be edited and saved over
  // a newer one). Once it has appeared it stays, whatever a later refetch does: what is being typed is kept.
  const shown = useRef(false);
  if (!shown.current) {
    if (latest.isPending) return <Skeleton className="h-40" aria-label="Loading the variables" />;
    if (latest.isError) return <LoadFailure title="The prompt's variables could not be loaded" error={latest.error} onRetry={() => void latest.refetch()} />;
    if (testCaseId !== undefined && !(whole.isFetchedAfterMount && whole.isSuccess)) {
      if (whole.isFetchedAfterMount && whole.isError) return <LoadFailure title="The test case could not be loaded" error={whole.error} onRetry={() => void whole.refetch()} />;
      return <Skeleton className="h-40" aria-label="Loading the test case" />;
    }
    shown.current = true;
  }
  // Read once shown (a later failure keeps the data it had).
  const version = latest.data?.version;
  if (!version) return <Skeleton className="h-40" aria-label="Loading the variables" />;
  const testCase = testCaseId !== undefined ? whole.data : undefined;
  return (
    <CaseForm
      promptId={promptId}
      contract={effectiveContract(version)}
      placeholderNames={version.placeholders}
      testCase={testCase}
      seed={seed}
      title={title}
      onDone={onDone}
    />
  );
}

/** A stored value as its field shows it. */
function fieldOf(variable: VariableContract, value: unknown): FieldValue | undefined {
  if (value === undefined || value === null) return undefined;
  if (variable.type === "boolean") return value === true;
  if (variable.type === "json") return prettyJson(value);
  return typeof value === "string" ? value : String(value);
}

function CaseForm({
  promptId, contract, placeholderNames, testCase, seed, title, onDone,
}: { promptId: string; contract: VariableContract[]; placeholderNames: string[]; testCase?: TestCase; seed?: TestCaseSeed; title: string; onDone(): void }) {
  const utils = trpc.useUtils();
  const start = testCase ?? seed;
  const [fields, setFields] = useState<Record<string, FieldValue>>(() => {
    const initial: Record<string, FieldValue> = {};
    for (const variable of contract) {
      const field = fieldOf(variable, start?.variables[variable.name]);
      if (field !== undefined) initial[variable.name] = field;
    }
    return initial;
  });
  // A case written for an older version may name variables the latest no longer has: saving drops them (the server would refuse them).
  const dropped = Object.keys(start?.variables ?? {}).filter((name) => !contract.some((variable) => variable.name === name));
  // Each placeholder's messages as JSON text (empty: none given).
  const [placeholderTexts, setPlaceholderTexts] = useState<Record<string, string>>(() =>
    Object.fromEntries(placeholderNames.map((name) => [name, start?.placeholders?.[name] ? prettyJson(start.placeholders[name]) : ""])),
  );
  const [placeholderErrors, setPlaceholderErrors] = useState<Record<string, string>>({});
  const [expected, setExpected] = useState(start?.expected ?? "");
  const [assertions, setAssertions] = useState<AssertionDraft[]>(() => (testCase?.assertions ?? []).map(toDraft));
  const [problems, setProblems] = useState<VariableProblem[]>([]);
  const [assertionErrors, setAssertionErrors] = useState<Record<number, string>>({});
  const [expectedError, setExpectedError] = useState<string>();
  const [serverError, setServerError] = useState<string>();

  const saved = async () => {
    toast.success(testCase ? "Test case saved" : "Test case added");
    await utils.testCases.list.invalidate({ promptId });
    onDone();
  };
  // The server's refusals: one of the expected output under that field, any other (an unknown variable, a judge's connection) above the buttons.
  const refused = (error: { message: string; data?: unknown }) => {
    const places = refusalPlaces(error);
    setExpectedError(places.expected);
    setServerError(places.form);
  };
  const create = trpc.testCases.create.useMutation({ onSuccess: saved, onError: refused });
  const update = trpc.testCases.update.useMutation({ onSuccess: saved, onError: refused });
  const busy = create.isPending || update.isPending;

  const submit = () => {
    const { values, problems: unparsed } = typedValues(contract, fields);
    setProblems(unparsed);
    const placeholders: Record<string, unknown> = {};
    const badPlaceholders: Record<string, string> = {};
    for (const name of placeholderNames) {
      const text = placeholderTexts[name]?.trim() ?? "";
      if (!text) continue;
      try {
        placeholders[name] = JSON.parse(text) as unknown;
      } catch {
        badPlaceholders[name] = EVALUATION_MSG.importPlaceholderJson(name);
      }
    }
    const parsed = testCaseInput.safeParse({ promptId, variables: values, placeholders, expected: expected === "" ? undefined : expected, assertions: toAssertions(assertions) });
    const { byAssertion, others } = assertionIssues(parsed.error?.issues ?? []);
    // Every refusal is shown: on its field where it has one, the rest (the values' size, a NUL in a
    // variable, too many assertions) above the buttons; Save doing nothing would say nothing.
    let expectedProblem: string | undefined;
    const formProblems = new Set<string>();
    for (const issue of others) {
      const [field, name] = issue.path;
      if (field === "placeholders" && typeof name === "string") {
        // A limit (too many messages, a message too long) in its own words; any other shape: what the JSON must be.
        badPlaceholders[name] ??= issue.code === "too_big" ? EVALUATION_MSG.placeholderLimit(name, issue.message) : EVALUATION_MSG.importPlaceholderJson(name);
      } else if (field === "expected") expectedProblem ??= issue.message;
      else formProblems.add(issue.message);
    }
    setServerError(formProblems.size ? [...formProblems].join("; ") : undefined);
    setExpectedError(expectedProblem);
    setAssertionErrors(byAssertion);
    setPlaceholderErrors(badPlaceholders);
    if (!parsed.success || unparsed.length || Object.keys(badPlaceholders).length) return;
    const { variables, expected: expectedOutput } = parsed.data;
    if (testCase) update.mutate({ id: testCase.id, variables, placeholders: parsed.data.placeholders, expected: expectedOutput, assertions: parsed.data.assertions });
    else create.mutate(parsed.data);
  };

  return (
    <form
      noValidate
      aria-label={title}
      className="grid min-w-0 gap-5"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <fieldset className="grid min-w-0 gap-3" disabled={busy}>
        <legend className="mb-2 text-sm font-semibold">Variables</legend>
        {contract.length === 0 && <p className="text-sm text-muted-foreground">The latest version has no variables.</p>}
        <VariableFields contract={contract} fields={fields} setFields={setFields} problems={problems} />
        {dropped.length > 0 && (
          <p className="text-sm text-muted-foreground" data-testid="dropped-variables">
            {`The latest version has no ${dropped.length === 1 ? "variable" : "variables"} ${dropped.map((name) => `'${name}'`).join(", ")}: saving leaves ${dropped.length === 1 ? "its value" : "their values"} out.`}
          </p>
        )}
      </fieldset>
      {placeholderNames.length > 0 && (
        <fieldset className="grid min-w-0 gap-3" disabled={busy}>
          <legend className="mb-2 text-sm font-semibold">Placeholders</legend>
          {placeholderNames.map((name) => (
            <FormField
              key={name}
              label={name}
              error={placeholderErrors[name]}
              description={'Its messages as JSON: [{ "role": "user", "content": "..." }]. Empty: none.'}
            >
              <Textarea
                rows={3}
                className="font-mono"
                value={placeholderTexts[name] ?? ""}
                onChange={(event) => setPlaceholderTexts((current) => ({ ...current, [name]: event.target.value }))}
              />
            </FormField>
          ))}
        </fieldset>
      )}
      <FormField label="Expected output (optional)" error={expectedError} description="What a good answer says; a judge reads it beside the rubric.">
        <Textarea rows={3} value={expected} disabled={busy} onChange={(event) => setExpected(event.target.value)} />
      </FormField>
      <AssertionEditor promptId={promptId} assertions={assertions} errors={assertionErrors} disabled={busy} onChange={setAssertions} />
      <FormFooter serverError={serverError} busy={busy} submitLabel={testCase ? "Save test case" : "Add test case"} onCancel={onDone} />
    </form>
  );
}
