// The JUnit XML of an evaluation: well-formed XML whatever the outputs hold (markup, quotes,
// ampersands, control characters), read back here by a small strict reader: a suite per version with
// its counts, a case per item with its failure, error or skip, and the texts as they were.
import { describe, expect, it } from "vitest";
import type { EvaluationItemsAnswer } from "@promptly/shared";
import { junitXml, xmlEscape } from "./junit.ts";
import { readXml } from "../../test/xml-reader.ts";

type Item = EvaluationItemsAnswer["items"][number];
const item = (overrides: Partial<Item>): Item => ({ position: 0, version: 1, status: "passed", variables: {}, output: "ok", results: [], error: null, latencyMs: 100, ...overrides });

const nasty = `<b>"Tom" & 'Jerry'</b> ]]> \u0001bell\u0007 &amp; 😀`;

describe("junitXml", () => {
  const items: Item[] = [
    item({ position: 0, version: 2, variables: { q: "a & b" }, output: nasty, results: [{ type: "contains", value: "x", pass: true }] }),
    item({
      position: 1, version: 2, status: "failed", output: "No.",
      results: [{ type: "contains", value: "<yes>", pass: false, reason: 'The output does not contain "<yes>"' }, { type: "json", pass: true }],
    }),
    item({ position: 2, version: 2, status: "error", output: null, error: "The provider failed (500): <html>", latencyMs: null }),
    item({ position: 0, version: 3, status: "cancelled", output: null, latencyMs: null }),
    item({
      position: 1, version: 3, status: "failed", output: "{",
      results: [{ type: "json", pass: false, reason: "The output is not JSON" }, { type: "maxLength", value: "1", pass: false, reason: "too long" }],
    }),
  ];
  const versions = [
    // The case in error is not in the pass rate: one passed of two judged.
    { version: 2, passed: 1, failed: 1, errors: 1, passRate: 50, p50Ms: 100, tokens: 30, cost: 0.002 },
    { version: 3, passed: 0, failed: 1, errors: 0, passRate: 0, p50Ms: null, tokens: 0, cost: null },
  ];
  const xml = junitXml("ops/summary & co", "eval-1", versions, items);
  const root = readXml(xml);

  it("is well-formed: a testsuites root with the totals, a testsuite per version with its counts and figures", () => {
    expect(root.name).toBe("testsuites");
    expect(root.attributes).toEqual({ name: "promptly eval ops/summary & co", tests: "5", failures: "2", errors: "1" });
    expect(root.children.map((suite) => [suite.name, suite.attributes])).toEqual([
      ["testsuite", { name: "ops/summary & co v2", tests: "3", failures: "1", errors: "1", skipped: "0", time: "0.200" }],
      ["testsuite", { name: "ops/summary & co v3", tests: "2", failures: "1", errors: "0", skipped: "1", time: "0.100" }],
    ]);
    const properties = root.children[0]!.children[0]!;
    expect(Object.fromEntries(properties.children.map((property) => [property.attributes.name, property.attributes.value]))).toEqual({
      evaluation: "eval-1", passRate: "50", p50Ms: "100", tokens: "30", cost: "0.002",
    });
  });

  it("a testcase per item: a failure with the failing assertions' reasons, an error with the provider's, a skip; outputs kept as text", () => {
    const [passed, failed, errored] = root.children[0]!.children.slice(1);
    expect(passed!.attributes).toEqual({ name: "case 1", classname: "ops/summary & co.v2", time: "0.100" });
    expect(passed!.children.map((child) => child.name)).toEqual(["system-out"]);
    // The output comes back as written, but for the characters XML cannot hold.
    expect(passed!.children[0]!.text).toBe(`variables: {"q":"a & b"}\noutput:\n${nasty.replace(/[\u0001\u0007]/g, "\uFFFD")}`);
    expect(failed!.children[0]).toMatchObject({ name: "failure", attributes: { type: "assertion", message: 'contains "<yes>": The output does not contain "<yes>"' } });
    expect(errored!.children[0]).toMatchObject({ name: "error", attributes: { message: "The provider failed (500): <html>" } });
    const [cancelled, twoFailures] = root.children[1]!.children.slice(1);
    expect(cancelled!.children[0]).toMatchObject({ name: "skipped", attributes: { message: "The evaluation was cancelled" } });
    expect(twoFailures!.children[0]!.attributes.message).toBe("2 assertions failed");
    expect(twoFailures!.children[0]!.text).toBe('json: The output is not JSON\nmaxLength "1": too long');
  });

  it("the strict reader refuses what is not well-formed (so the checks above can fail)", () => {
    expect(() => readXml('<?xml version="1.0" encoding="UTF-8"?>\n<a>x & y</a>')).toThrow("bare");
    expect(() => readXml('<?xml version="1.0" encoding="UTF-8"?>\n<a><b></a>')).toThrow("closes");
    expect(() => readXml('<?xml version="1.0" encoding="UTF-8"?>\n<a b="1" b="2"/>')).toThrow("twice");
    expect(() => readXml('<?xml version="1.0" encoding="UTF-8"?>\n<a>\u0001</a>')).toThrow("cannot hold");
  });

  it("xmlEscape escapes markup and quotes and replaces what XML cannot hold", () => {
    expect(xmlEscape(`<a href="x">'&'</a>\u0000\uFFFF`)).toBe("&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;\uFFFD\uFFFD");
  });
});
