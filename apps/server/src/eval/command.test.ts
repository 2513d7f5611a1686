// The eval command's arguments: the prompt, --label or --version, --min-pass, --junit, and the server's
// URL and key from options or the environment; every mistake said in words.
import { describe, expect, it } from "vitest";
import { parseEvalArgs } from "./command.ts";

const env = { PROMPTLY_URL: "http://localhost:3000/", PROMPTLY_API_KEY: "pk_env" };

describe("parseEvalArgs", () => {
  it("reads the options, the URL and key from the environment unless given", () => {
    expect(parseEvalArgs(["ops/summary", "--label", "staging", "--min-pass", "90", "--junit", "out.xml"], env)).toEqual({
      ok: true,
      options: { name: "ops/summary", label: "staging", version: undefined, minPass: 90, junit: "out.xml", url: "http://localhost:3000", key: "pk_env", pollMs: 1_000 },
    });
    expect(parseEvalArgs(["greeter", "--version", "3", "--url", "https://p.example", "--key", "pk_opt"], env)).toMatchObject({
      ok: true, options: { version: 3, url: "https://p.example", key: "pk_opt", minPass: undefined },
    });
  });

  it("says what is wrong", () => {
    const wrong = (args: string[], environment: Record<string, string | undefined> = env) => {
      const parsed = parseEvalArgs(args, environment);
      return parsed.ok ? "ok" : parsed.message;
    };
    expect(wrong([])).toBe("Name one prompt to evaluate");
    expect(wrong(["a", "b"])).toBe("Name one prompt to evaluate");
    expect(wrong(["a", "--label", "x", "--version", "2"])).toBe("Give --label or --version, not both");
    expect(wrong(["a", "--min-pass", "101"])).toBe("--min-pass is a number from 0 to 100");
    expect(wrong(["a", "--version", "1.5"])).toBe("--version is a whole number");
    expect(wrong(["a", "--label"])).toBe("--label needs a value");
    expect(wrong(["a", "--fast"])).toBe("Unknown option --fast");
    expect(wrong(["a"], { PROMPTLY_API_KEY: "k" })).toBe("Give the server's URL: --url or PROMPTLY_URL");
    expect(wrong(["a"], { PROMPTLY_URL: "http://x" })).toBe("Give an API key with the run scope: --key or PROMPTLY_API_KEY");
    expect(wrong(["a", "--url", "nope"])).toBe("The server's URL is not a URL: nope");
  });
});
