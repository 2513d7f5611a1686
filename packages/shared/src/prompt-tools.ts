// The tools a version lets the model call and the shape its answer must take: their input schemas,
// limits and texts, and their translation to and from OpenAI's names (the Langfuse API's `config`
// carries `tools` and `response_format` as OpenAI's SDK takes them). Whether a schema is a valid JSON
// Schema is checked by the server at save (jsonSchemaProblem in packages/api): here only the shapes.
import { z } from "zod";
import { multilineText } from "./validation.ts";

const TOOLS_MAX = 128;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const TOOL_DESCRIPTION_MAX = 1024;
const SCHEMA_MAX_BYTES = 32 * 1024;

export const TOOLS_MSG = {
  tooManyTools: `A version has at most ${TOOLS_MAX} tools`,
  toolNameInvalid: "A tool name uses 1-64 letters, digits, '_' and '-'",
  toolNameRepeated: (name: string) => `Two tools are named '${name}': each tool needs its own name`,
  toolDescriptionTooLong: `A tool description has at most ${TOOL_DESCRIPTION_MAX.toLocaleString("en-US")} characters`,
  schemaNotObject: "A JSON Schema is a JSON object",
  schemaTooLarge: `A JSON Schema has at most ${SCHEMA_MAX_BYTES / 1024} kB`,
  /** `tools[0].parameters/properties/city/type: must be equal to one of the allowed values`. */
  schemaInvalid: (path: string, problem: string) => `${path} is not a valid JSON Schema: ${problem}`,
  responseFormatNameInvalid: "A response schema's name uses 1-64 letters, digits, '_' and '-'",
  /** The Langfuse API's `config.tools` or `config.response_format` in no shape OpenAI or Anthropic take. */
  configToolsInvalid: "config.tools is a list of tools as OpenAI takes them ({ type: 'function', function: { name, description, parameters } }) or as Anthropic does ({ name, description, input_schema })",
  configResponseFormatInvalid:
    "config.response_format is { type: 'text' }, { type: 'json_object' } or { type: 'json_schema', json_schema: { name, schema, strict } } as OpenAI takes it",
  /** A run's answer against a JSON response format. */
  answerNotJson: "The answer is not JSON",
  answerNotObject: "The answer is not a JSON object",
  /** The editor's tools or response format field holds text that is not JSON. */
  fieldNotJson: "This is not JSON",
  /** What the editor says above the tools and the response schema. */
  notCompiled: "Variables are not filled in tools and schemas: they are sent to the model as written.",
} as const;

/** A JSON Schema as a version stores it: a JSON object, at most 32 kB (its keywords are checked by the server). */
const jsonSchemaObject = z
  .record(z.string(), z.unknown(), { error: TOOLS_MSG.schemaNotObject })
  .refine((schema) => new TextEncoder().encode(JSON.stringify(schema)).length <= SCHEMA_MAX_BYTES, TOOLS_MSG.schemaTooLarge);

export const promptToolSchema = z.object({
  name: z.string().regex(TOOL_NAME, TOOLS_MSG.toolNameInvalid),
  description: multilineText().max(TOOL_DESCRIPTION_MAX, TOOLS_MSG.toolDescriptionTooLong).optional(),
  /** The arguments' JSON Schema (an object schema; the default takes no arguments). */
  parameters: jsonSchemaObject.optional(),
});
export type PromptTool = { name: string; description?: string; parameters?: Record<string, unknown> };

export const promptToolsSchema = z
  .array(promptToolSchema)
  .max(TOOLS_MAX, TOOLS_MSG.tooManyTools)
  .superRefine((tools, ctx) => {
    const seen = new Set<string>();
    tools.forEach((tool, index) => {
      if (seen.has(tool.name)) ctx.addIssue({ code: "custom", message: TOOLS_MSG.toolNameRepeated(tool.name), path: [index, "name"] });
      seen.add(tool.name);
    });
  });

export const responseFormatSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text") }),
  z.object({ type: z.literal("json_object") }),
  z.object({
    type: z.literal("json_schema"),
    name: z.string().regex(TOOL_NAME, TOOLS_MSG.responseFormatNameInvalid),
    description: multilineText().max(TOOL_DESCRIPTION_MAX, TOOLS_MSG.toolDescriptionTooLong).optional(),
    schema: jsonSchemaObject,
    /** The provider must keep to the schema exactly (OpenAI's strict mode); false lets it only aim at it. */
    strict: z.boolean().optional(),
  }),
]);
export type ResponseFormat =
  | { type: "text" }
  | { type: "json_object" }
  | { type: "json_schema"; name: string; description?: string; schema: Record<string, unknown>; strict?: boolean };

/** A tool call the model made: the tool's name and its arguments as the model wrote them (JSON text). */
export const toolCallSchema = z.object({ id: z.string().max(200), name: z.string().max(200), arguments: z.string() });
export type ToolCall = z.infer<typeof toolCallSchema>;

/** The JSON Schemas of a version, each with the path a refusal names (`tools[0].parameters`, `responseFormat.schema`). */
export function versionSchemas(tools: readonly PromptTool[] | undefined, responseFormat: ResponseFormat | null | undefined): { path: string; schema: Record<string, unknown> }[] {
  const schemas = (tools ?? []).flatMap((tool, index) => (tool.parameters ? [{ path: `tools[${index}].parameters`, schema: tool.parameters }] : []));
  if (responseFormat?.type === "json_schema") schemas.push({ path: "responseFormat.schema", schema: responseFormat.schema });
  return schemas;
}

/** The tools as OpenAI's chat completions take them (and Langfuse's `config.tools` carries them). */
export const openAiTools = (tools: readonly PromptTool[]) =>
  tools.map((tool) => ({
    type: "function" as const,
    function: { name: tool.name, ...(tool.description !== undefined ? { description: tool.description } : {}), parameters: tool.parameters ?? { type: "object", properties: {} } },
  }));

/** The response format as OpenAI's chat completions take it (and Langfuse's `config.response_format` carries it). */
export function openAiResponseFormat(format: ResponseFormat) {
  if (format.type !== "json_schema") return { type: format.type };
  return {
    type: "json_schema" as const,
    json_schema: {
      name: format.name,
      ...(format.description !== undefined ? { description: format.description } : {}),
      schema: format.schema,
      ...(format.strict !== undefined ? { strict: format.strict } : {}),
    },
  };
}

const openAiToolIn = z.object({
  type: z.literal("function"),
  function: z.object({ name: z.string(), description: z.string().optional(), parameters: z.record(z.string(), z.unknown()).optional(), strict: z.boolean().optional() }),
});
const anthropicToolIn = z.object({ name: z.string(), description: z.string().optional(), input_schema: z.record(z.string(), z.unknown()) });
const openAiResponseFormatIn = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text") }),
  z.object({ type: z.literal("json_object") }),
  z.object({
    type: z.literal("json_schema"),
    json_schema: z.object({ name: z.string(), description: z.string().optional(), schema: z.record(z.string(), z.unknown()), strict: z.boolean().nullish() }),
  }),
]);

/**
 * A Langfuse config split into the version's tools, response format and the rest of its parameters:
 * `tools` as OpenAI or Anthropic write them and `response_format` as OpenAI does; a config without
 * them keeps everything. The parts are then checked by the version's own rules.
 */
export function splitLangfuseConfig(config: Record<string, unknown>):
  | { config: Record<string, unknown>; tools?: PromptTool[]; responseFormat?: ResponseFormat }
  | { problem: string; path: string } {
  const { tools, response_format: responseFormat, ...rest } = config;
  const split: { config: Record<string, unknown>; tools?: PromptTool[]; responseFormat?: ResponseFormat } = { config: rest };
  if (tools !== undefined) {
    const parsed = z.array(z.union([openAiToolIn, anthropicToolIn])).safeParse(tools);
    if (!parsed.success) return { problem: TOOLS_MSG.configToolsInvalid, path: "config.tools" };
    split.tools = parsed.data.map((tool) =>
      "function" in tool
        ? { name: tool.function.name, ...(tool.function.description !== undefined ? { description: tool.function.description } : {}), ...(tool.function.parameters ? { parameters: tool.function.parameters } : {}) }
        : { name: tool.name, ...(tool.description !== undefined ? { description: tool.description } : {}), parameters: tool.input_schema },
    );
  }
  if (responseFormat !== undefined) {
    const parsed = openAiResponseFormatIn.safeParse(responseFormat);
    if (!parsed.success) return { problem: TOOLS_MSG.configResponseFormatInvalid, path: "config.response_format" };
    const format = parsed.data;
    split.responseFormat =
      format.type === "json_schema"
        ? {
            type: "json_schema",
            name: format.json_schema.name,
            ...(format.json_schema.description !== undefined ? { description: format.json_schema.description } : {}),
            schema: format.json_schema.schema,
            ...(format.json_schema.strict != null ? { strict: format.json_schema.strict } : {}),
          }
        : { type: format.type };
  }
  return split;
}

/** A version's config as the Langfuse API answers it: its parameters with `tools` and `response_format` in OpenAI's names. */
export function langfuseConfigOf(config: Record<string, unknown>, tools: readonly PromptTool[], responseFormat: ResponseFormat | null) {
  return {
    ...config,
    ...(tools.length ? { tools: openAiTools(tools) } : {}),
    ...(responseFormat ? { response_format: openAiResponseFormat(responseFormat) } : {}),
  };
}
