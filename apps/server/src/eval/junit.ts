// JUnit XML of an evaluation, for CI systems that show test reports: a <testsuite> per version, a
// <testcase> per case (failed: its failing assertions with their reasons; error: the provider's
// reason; cancelled or never run: skipped), the output kept in <system-out>.
import type { EvaluationItemsAnswer, EvaluationVersionSummary } from "@promptly/shared";

type Item = EvaluationItemsAnswer["items"][number];

/** Characters XML 1.0 cannot hold at all (control characters but tab, LF and CR; lone surrogates; U+FFFE/U+FFFF). */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text safe inside an element or a double-quoted attribute. */
export function xmlEscape(text: string): string {
  return text
    .replace(NOT_XML, "\uFFFD")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

const attributes = (values: Record<string, string | number>) =>
  Object.entries(values)
    .map(([name, value]) => ` ${name}="${xmlEscape(String(value))}"`)
    .join("");

const seconds = (ms: number | null) => ((ms ?? 0) / 1000).toFixed(3);

function testcase(prompt: string, item: Item): string {
  const name = `case ${item.position + 1}`;
  const head = `    <testcase${attributes({ name, classname: `${prompt}.v${item.version}`, time: seconds(item.latencyMs) })}`;
  const body: string[] = [];
  if (item.status === "failed") {
    const failing = (item.results ?? []).filter((result) => !result.pass);
    const lines = failing.map((result) => `${result.type}${result.value !== undefined ? ` ${JSON.stringify(result.value)}` : ""}: ${result.reason ?? "failed"}`);
    const message = failing.length === 1 ? lines[0]! : `${failing.length} assertions failed`;
    body.push(`      <failure${attributes({ message, type: "assertion" })}>${xmlEscape(lines.join("\n"))}</failure>`);
  } else if (item.status === "error") {
    body.push(`      <error${attributes({ message: item.error ?? "The case could not be run", type: "provider" })}/>`);
  } else if (item.status === "cancelled" || item.status === "pending") {
    body.push(`      <skipped${attributes({ message: item.status === "cancelled" ? "The evaluation was cancelled" : "Not run" })}/>`);
  }
  const out = [`variables: ${JSON.stringify(item.variables)}`, ...(item.output !== null ? [`output:\n${item.output}`] : [])].join("\n");
  body.push(`      <system-out>${xmlEscape(out)}</system-out>`);
  return `${head}>\n${body.join("\n")}\n    </testcase>`;
}

/** The evaluation of `prompt` as a JUnit XML document. */
export function junitXml(prompt: string, evaluationId: string, versions: EvaluationVersionSummary[], items: Item[]): string {
  const suites = versions.map((version) => {
    const mine = items.filter((item) => item.version === version.version).sort((a, b) => a.position - b.position);
    const count = (status: Item["status"]) => mine.filter((item) => item.status === status).length;
    const time = mine.reduce((sum, item) => sum + (item.latencyMs ?? 0), 0);
    const head = attributes({
      name: `${prompt} v${version.version}`,
      tests: mine.length,
      failures: count("failed"),
      errors: count("error"),
      skipped: count("cancelled") + count("pending"),
      time: seconds(time),
    });
    const properties = [
      ["evaluation", evaluationId],
      ["passRate", String(version.passRate ?? "")],
      ["p50Ms", String(version.p50Ms ?? "")],
      ["tokens", String(version.tokens)],
      ["cost", String(version.cost ?? "")],
    ].map(([name, value]) => `      <property${attributes({ name: name!, value: value! })}/>`);
    return [`  <testsuite${head}>`, "    <properties>", ...properties, "    </properties>", ...mine.map((item) => testcase(prompt, item)), "  </testsuite>"].join("\n");
  });
  const all = (status: Item["status"]) => items.filter((item) => item.status === status).length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name: `promptly eval ${prompt}`, tests: items.length, failures: all("failed"), errors: all("error") })}>`,
    ...suites,
    "</testsuites>",
    "",
  ].join("\n");
}
