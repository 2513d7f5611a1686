// A playground column's model settings as typed (text fields), their defaults from the version's
// config, the parameters a run takes, and the config a saved version keeps them in.
import { runParametersSchema, type RunParameters } from "@promptly/shared";

export interface ColumnSettings {
  connectionId: string;
  model: string;
  temperature: string;
  maxTokens: string;
  topP: string;
  /** One stop sequence per line. */
  stop: string;
}

type ParameterName = keyof RunParameters;
export type ParameterErrors = Partial<Record<ParameterName, string>>;

/** Where a version's config may say each parameter; the first spelling is the one a new key gets. Read as the server reads them. */
const CONFIG_KEYS: Record<ParameterName, string[]> = {
  temperature: ["temperature"],
  maxTokens: ["max_tokens", "maxTokens", "max_completion_tokens"],
  topP: ["top_p", "topP"],
  stop: ["stop"],
};

const configValue = (config: Record<string, unknown>, name: ParameterName) => CONFIG_KEYS[name].map((key) => config[key]).find((value) => value !== undefined);

const numberText = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? String(value) : "");

/** A new column's settings: the version's model and its config's parameters. */
export function settingsFromVersion(model: string, config: Record<string, unknown>): ColumnSettings {
  const stop = configValue(config, "stop");
  return {
    connectionId: "",
    model,
    temperature: numberText(configValue(config, "temperature")),
    maxTokens: numberText(configValue(config, "maxTokens")),
    topP: numberText(configValue(config, "topP")),
    stop: typeof stop === "string" ? stop : Array.isArray(stop) ? stop.filter((item) => typeof item === "string").join("\n") : "",
  };
}

const parsedNumber = (text: string) => (text.trim() === "" ? undefined : Number(text));

/** The run's parameters, or what is wrong with each field (the server's own messages). An empty field is the provider's default. */
export function parametersOf(settings: ColumnSettings): { parameters: RunParameters } | { errors: ParameterErrors } {
  const stop = settings.stop.split("\n").filter((line) => line !== "");
  const parsed = runParametersSchema.safeParse({
    temperature: parsedNumber(settings.temperature),
    maxTokens: parsedNumber(settings.maxTokens),
    topP: parsedNumber(settings.topP),
    stop: stop.length ? stop : undefined,
  });
  if (parsed.success) return { parameters: parsed.data };
  const errors: ParameterErrors = {};
  for (const issue of parsed.error.issues) {
    const name = issue.path[0] as ParameterName;
    errors[name] ??= issue.message;
  }
  return { errors };
}

/**
 * The version's config with the column's parameters in it: each set one under the key the config
 * already uses (else the usual one), each cleared one removed; everything else the config holds stays.
 */
export function configWithParameters(config: Record<string, unknown>, parameters: RunParameters): Record<string, unknown> {
  const next = { ...config };
  for (const name of Object.keys(CONFIG_KEYS) as ParameterName[]) {
    const key = CONFIG_KEYS[name].find((candidate) => candidate in next) ?? CONFIG_KEYS[name][0]!;
    for (const alias of CONFIG_KEYS[name]) delete next[alias];
    if (parameters[name] !== undefined) next[key] = parameters[name];
  }
  return next;
}
