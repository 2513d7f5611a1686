// How a test case's assertions read on the page: a select's label per kind, and a chip's words
// ("contains 'thanks'", "at most 200 characters", "judged by gpt-4o-mini: …").
import type { AssertionType } from "@promptly/shared";

export const ASSERTION_LABELS: Record<AssertionType, string> = {
  equals: "Equals",
  contains: "Contains",
  notContains: "Does not contain",
  regex: "Matches a regular expression",
  json: "Is JSON",
  jsonSchema: "Matches a JSON schema",
  maxLength: "At most N characters",
  maxLatencyMs: "Latency under N ms",
  maxCost: "Cost under N dollars",
  judge: "Judged by a model",
  toolCalled: "Calls a tool",
  toolArguments: "Calls a tool with arguments",
  responseSchema: "Matches the version's response format",
};

/** What the value field of a kind is called; null: the kind takes none. */
export const ASSERTION_VALUE_LABELS: Record<AssertionType, string | null> = {
  equals: "Text",
  contains: "Text",
  notContains: "Text",
  regex: "Regular expression",
  json: null,
  jsonSchema: "JSON schema",
  maxLength: "Characters",
  maxLatencyMs: "Milliseconds",
  maxCost: "US dollars",
  judge: "Rubric",
  toolCalled: "Tool name",
  toolArguments: 'JSON: { "tool", "schema" } or { "tool", "values" }',
  responseSchema: null,
};

const clip = (text: string, max = 60) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

interface AssertionLike {
  type: string;
  value?: string;
  model?: string;
}

/** One assertion in a few words. */
export function assertionText({ type, value = "", model }: AssertionLike): string {
  switch (type) {
    case "equals":
      return `equals '${clip(value)}'`;
    case "contains":
      return `contains '${clip(value)}'`;
    case "notContains":
      return `does not contain '${clip(value)}'`;
    case "regex":
      return `matches /${clip(value)}/`;
    case "json":
      return "is JSON";
    case "jsonSchema":
      return "matches a JSON schema";
    case "maxLength":
      return `at most ${value} characters`;
    case "maxLatencyMs":
      return `latency under ${value} ms`;
    case "maxCost":
      return `cost under $${value}`;
    case "judge":
      return `judged${model ? ` by ${model}` : ""}: ${clip(value, 80)}`;
    case "toolCalled":
      return `calls ${clip(value)}`;
    case "toolArguments":
      return `calls a tool with ${clip(value)}`;
    case "responseSchema":
      return "matches the response format";
    default:
      return clip(`${type} ${value}`);
  }
}

/** A text the server cut short (`cut`), shown with an ellipsis. */
export const previewText = (text: string, cut: boolean | undefined) => (cut ? `${text}…` : text);

/** How much of a variable's value, or of an expected output, a case's line shows. */
const LINE_CLIP = 80;

type VariablePreview = { name: string; nameCut?: boolean; value: string; cut: boolean };

/** A case's variables in one line, from its preview (values as text, cut short): "question: the weather · tone: formal". */
export function variablesText(variables: VariablePreview[], count = variables.length): string {
  if (!variables.length) return "No variables";
  const more = count - variables.length;
  return [...variables.map(({ name, nameCut, value, cut }) => `${previewText(name, nameCut)}: ${clip(previewText(value, cut), LINE_CLIP)}`), ...(more > 0 ? [`${more} more`] : [])].join(" · ");
}

/** A case's expected output in one line, from its preview. */
export const expectedText = ({ text, cut }: { text: string; cut: boolean }) => `Expected: ${clip(previewText(text, cut), LINE_CLIP)}`;

/** Whether a case's lines (variablesText, expectedText) leave anything out: a text the server cut, one clipped here, variables not previewed. */
export const caseCut = (variables: VariablePreview[], count: number, expected: { text: string; cut: boolean } | null) =>
  count > variables.length ||
  variables.some(({ nameCut, value, cut }) => nameCut || cut || value.length > LINE_CLIP) ||
  (expected !== null && (expected.cut || expected.text.length > LINE_CLIP));
