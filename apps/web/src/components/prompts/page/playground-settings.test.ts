import { describe, expect, it } from "vitest";
import { RUN_MSG } from "@promptly/shared";
import { configWithParameters, parametersOf, settingsFromVersion, type ColumnSettings } from "./playground-settings.ts";

const settings = (change: Partial<ColumnSettings>): ColumnSettings => ({ ...settingsFromVersion("gpt-4o-mini", {}), ...change });

describe("a column's settings", () => {
  it("start from the version's config under any spelling the server reads", () => {
    expect(settingsFromVersion("m", { temperature: 0.4, max_completion_tokens: 300, topP: 0.9, stop: "END", seed: 7 })).toEqual({
      connectionId: "", model: "m", temperature: "0.4", maxTokens: "300", topP: "0.9", stop: "END",
    });
    expect(settingsFromVersion("m", { temperature: "hot", stop: ["a", 1, "b"] })).toMatchObject({ temperature: "", stop: "a\nb" });
  });

  it("become the run's parameters (empty: the provider's default), or the server's own message per field", () => {
    expect(parametersOf(settings({ temperature: "0.2", maxTokens: "", topP: "1", stop: "###\n\nEND" }))).toEqual({ parameters: { temperature: 0.2, topP: 1, stop: ["###", "END"] } });
    expect(parametersOf(settings({ temperature: "3", maxTokens: "1.5", topP: "x" }))).toEqual({
      errors: { temperature: RUN_MSG.temperatureInvalid, maxTokens: RUN_MSG.maxTokensInvalid, topP: RUN_MSG.topPInvalid },
    });
  });
});

describe("the config a saved version keeps them in", () => {
  it("sets each parameter under the config's own spelling, else the usual one, removes cleared ones and keeps the rest", () => {
    expect(configWithParameters({ maxTokens: 100, top_p: 0.5, temperature: 1, seed: 7 }, { maxTokens: 200, stop: ["END"] })).toEqual({ maxTokens: 200, stop: ["END"], seed: 7 });
    expect(configWithParameters({}, { temperature: 0, topP: 0.9, maxTokens: 50 })).toEqual({ temperature: 0, top_p: 0.9, max_tokens: 50 });
  });
});
