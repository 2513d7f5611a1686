// Include tags parse as Langfuse parses them: the name first, exactly two parts, a version that is a
// number, else a label; anything else is plain text. Each tag once, from a template or chat contents.
import { describe, expect, it } from "vitest";
import { bodyIncludeTally, bodyIncludes } from "./prompt-includes.ts";

const text = (template: string) => bodyIncludes({ type: "text", template });

describe("bodyIncludes", () => {
  it("reads a label and a version include, names with folders and dots", () => {
    expect(text("A @@@langfusePrompt:name=support/tone.v2|label=production@@@ B @@@langfusePrompt:name=x|version=3@@@")).toEqual([
      { tag: "@@@langfusePrompt:name=support/tone.v2|label=production@@@", name: "support/tone.v2", label: "production" },
      { tag: "@@@langfusePrompt:name=x|version=3@@@", name: "x", version: 3 },
    ]);
  });

  it("leaves as text what Langfuse does not parse", () => {
    for (const template of [
      "@@@langfusePrompt:label=production|name=x@@@", // the name is not first
      "@@@langfusePrompt:name=x@@@", // one part
      "@@@langfusePrompt:name=x|label=a|version=1@@@", // three parts
      "@@@langfusePrompt:name=x|version=two@@@", // not a number
      "@@@langfusePrompt:name=x|tag=a@@@", // neither label nor version
      "@@langfusePrompt:name=x|label=a@@",
    ]) {
      expect(text(template), template).toEqual([]);
    }
  });

  it("lists a tag once, across the messages of a chat prompt", () => {
    const tag = "@@@langfusePrompt:name=x|label=a@@@";
    const found = bodyIncludes({ type: "chat", messages: [{ content: `${tag} ${tag}` }, { content: `and ${tag}` }] });
    expect(found).toEqual([{ tag, name: "x", label: "a" }]);
  });
});

describe("bodyIncludeTally", () => {
  it("counts every tag as written, across messages, and not what does not parse", () => {
    const [a, b] = ["@@@langfusePrompt:name=x|label=a@@@", "@@@langfusePrompt:name=y|version=2@@@"];
    const contents = [`${a}${a} ${b}`, `${a} @@@langfusePrompt:name=z@@@`];
    const tally = bodyIncludeTally({ type: "chat", messages: contents.map((content) => ({ content })) });
    expect(tally.includes.map((include) => include.tag)).toEqual([a, b]);
    expect([...tally.times]).toEqual([[a, 3], [b, 1]]);
    expect(tally.tags).toBe(4);
    expect(tally.length).toBe(contents[0]!.length + contents[1]!.length);
  });
});
