// The Try it form's values: what each field starts with, and the typed values `compile` takes.
import type { VariableContract, VariableProblem } from "@promptly/shared";
import { prettyJson } from "./version-body.ts";

/** A field's content: text for most types, on/off for booleans. */
export type FieldValue = string | boolean;

export function initialValue(variable: VariableContract): FieldValue {
  const given = variable.default;
  if (variable.type === "boolean") return given === true;
  if (given === undefined || given === null) return "";
  return variable.type === "json" ? prettyJson(given) : String(given);
}

/**
 * The values to compile: an empty field is no value (the default applies, or 'is required'); numbers
 * and JSON are parsed, and JSON that does not parse is a problem of its own.
 */
export function typedValues(contract: VariableContract[], fields: Record<string, FieldValue>) {
  const values: Record<string, unknown> = {};
  const problems: VariableProblem[] = [];
  for (const variable of contract) {
    const field = fields[variable.name] ?? initialValue(variable);
    if (typeof field === "boolean") {
      values[variable.name] = field;
      continue;
    }
    if (variable.type === "string" ? field === "" : field.trim() === "") continue;
    if (variable.type === "number") values[variable.name] = Number(field);
    else if (variable.type === "json") {
      try {
        values[variable.name] = JSON.parse(field);
      } catch {
        problems.push({ variable: variable.name, message: "must be valid JSON" });
      }
    } else values[variable.name] = field;
  }
  return { values, problems };
}

/** "'customer' is required; 'tone' must be one of 'formal', 'casual'", as compile words it. */
export const problemsMessage = (problems: VariableProblem[]) => problems.map((problem) => `'${problem.variable}' ${problem.message}`).join("; ");
