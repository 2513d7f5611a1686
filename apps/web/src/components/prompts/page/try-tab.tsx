// The Try it tab: a form made from the shown version's effective contract (its includes resolved); Compile runs the shared
// `compile` and shows the result, or every offending variable inline and in one summary.
import { useState } from "react";
import { Play } from "lucide-react";
import { compile, effectiveContract, type PromptVersionBody, type VariableProblem } from "@promptly/shared";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CompileResult, type Compiled } from "./compile-result.tsx";
import { typedValues, type FieldValue } from "./try-values.ts";
import type { PromptDetail } from "./types.ts";
import { VariableFields } from "./variable-field.tsx";
import { versionBody } from "./version-body.ts";

type Outcome = { problems: VariableProblem[] } | { compiled: Compiled };

export function TryTab({ prompt }: { prompt: PromptDetail }) {
  const { version, resolved } = prompt;
  // The version's includes resolved (on the server, with the reader's access): what a fetch serves is what compiles here.
  const written = versionBody(version);
  const body: PromptVersionBody = resolved?.ok
    ? written.type === "chat"
      ? { type: "chat", messages: resolved.messages ?? [], variables: written.variables }
      : { type: "text", template: resolved.template ?? "", variables: written.variables }
    : written;
  const contract = effectiveContract(body);
  const [fields, setFields] = useState<Record<string, FieldValue>>({});
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const problems = outcome && "problems" in outcome ? outcome.problems : [];

  const run = () => {
    const { values, problems: unparsed } = typedValues(contract, fields);
    const result = compile(body, values);
    if (result.ok && !unparsed.length) {
      setOutcome({ compiled: "text" in result ? { text: result.text } : { messages: result.messages } });
      return;
    }
    const found = [...unparsed, ...(result.ok ? [] : result.problems.filter((p) => !unparsed.some((u) => u.variable === p.variable)))];
    const order = (problem: VariableProblem) => contract.findIndex((variable) => variable.name === problem.variable);
    setOutcome({ problems: found.sort((a, b) => order(a) - order(b)) });
  };

  if (resolved?.ok === false) {
    return (
      <Alert variant="destructive">
        <AlertDescription>{resolved.message}</AlertDescription>
      </Alert>
    );
  }
  return (
    <div className="grid min-w-0 gap-6">
      <form
        noValidate
        aria-label="Try it"
        className="grid min-w-0 gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          run();
        }}
      >
        {contract.length === 0 && <p className="text-sm text-muted-foreground">This prompt has no variables: Compile shows it as it is.</p>}
        <VariableFields contract={contract} fields={fields} setFields={setFields} problems={problems} />
        <div>
          <Button type="submit">
            <Play aria-hidden="true" />
            Compile
          </Button>
        </div>
      </form>
      {outcome && "compiled" in outcome && <CompileResult result={outcome.compiled} />}
    </div>
  );
}
