// One Try it field, made from the variable's contract: string -> textarea, number -> number input,
// boolean -> switch, enum -> select of its options, json -> textarea parsed as JSON. The label is the name.
import { useId, type Dispatch, type SetStateAction } from "react";
import { TriangleAlert } from "lucide-react";
import type { VariableContract, VariableProblem } from "@promptly/shared";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Switch } from "@/components/ui/switch";
import { cn } from "@/lib/utils";
import { Textarea } from "@/components/ui/textarea";
import { initialValue, problemsMessage, type FieldValue } from "./try-values.ts";

/** The select's "no value" item (option texts hold no control characters, so this never collides). */
const NO_VALUE = "\u0000none";

interface VariableFieldsProps {
  contract: VariableContract[];
  fields: Record<string, FieldValue>;
  setFields: Dispatch<SetStateAction<Record<string, FieldValue>>>;
  /** The problems of the last attempt: each beside its field, and all of them below. */
  problems: VariableProblem[];
  /** The fields' own layout (e.g. two columns). */
  className?: string;
}

/** The form of a contract's variables (Try it, the Playground): a field each, then what does not fit. */
export function VariableFields({ contract, fields, setFields, problems, className }: VariableFieldsProps) {
  return (
    <>
      <div className={cn("grid gap-4", className)}>
        {contract.map((variable) => (
          <VariableField
            key={variable.name}
            variable={variable}
            value={fields[variable.name] ?? initialValue(variable)}
            problem={problems.find((problem) => problem.variable === variable.name)?.message}
            onChange={(value) => setFields((current) => ({ ...current, [variable.name]: value }))}
          />
        ))}
      </div>
      {problems.length > 0 && (
        <Alert variant="destructive" data-testid="compile-errors">
          <TriangleAlert aria-hidden="true" />
          <AlertTitle>The values do not fit the variables</AlertTitle>
          <AlertDescription>{problemsMessage(problems)}</AlertDescription>
        </Alert>
      )}
    </>
  );
}

interface VariableFieldProps {
  variable: VariableContract;
  value: FieldValue;
  /** What is wrong with the value, worded after the name ("is required"). */
  problem?: string;
  onChange(value: FieldValue): void;
}

function VariableField({ variable, value, problem, onChange }: VariableFieldProps) {
  const id = useId();
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const required = variable.required ?? true;
  const control = {
    id,
    "aria-invalid": problem ? true : undefined,
    "aria-describedby": cn(helpId, problem && errorId),
  };
  const text = typeof value === "string" ? value : "";

  return (
    <div className="grid min-w-0 gap-1.5" data-variable={variable.name}>
      <Label htmlFor={id} className={cn("font-mono", problem && "text-destructive")}>
        {variable.name}
      </Label>
      {variable.type === "boolean" ? (
        <Switch {...control} checked={value === true} onCheckedChange={onChange} />
      ) : variable.type === "enum" ? (
        <Select value={text === "" ? (required ? "" : NO_VALUE) : text} onValueChange={(next) => onChange(next === NO_VALUE ? "" : next)}>
          <SelectTrigger {...control} className="w-full sm:w-64">
            <SelectValue placeholder="Choose a value" />
          </SelectTrigger>
          <SelectContent>
            {!required && <SelectItem value={NO_VALUE}>No value</SelectItem>}
            {(variable.options ?? []).map((option) => (
              <SelectItem key={option} value={option}>
                {option}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      ) : variable.type === "number" ? (
        <Input {...control} type="number" inputMode="decimal" step="any" value={text} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <Textarea
          {...control}
          rows={variable.type === "json" ? 4 : 2}
          spellCheck={variable.type !== "json"}
          className={cn(variable.type === "json" && "font-mono")}
          value={text}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      <p id={helpId} className="text-xs text-muted-foreground">
        {variable.type}
        {required ? ", required" : ", optional"}
        {variable.description ? ` · ${variable.description}` : ""}
      </p>
      {problem && (
        <p id={errorId} className="text-sm text-destructive">
          {variable.name} {problem}
        </p>
      )}
    </div>
  );
}
