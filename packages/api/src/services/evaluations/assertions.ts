// PLACEHOLDER (dropped at merge): the real checker comes from the test-cases branch. Same signature, equals/contains only.
import type { Assertion, AssertionType } from "@promptly/shared";

export interface AssertionOutcome { type: AssertionType; value?: string; pass: boolean; reason?: string }
export interface RunFacts { output: string; latencyMs: number; cost: number | null; expected?: string | null }
/** judge: runs a rubric against a connection/model and answers pass/fail with a reason; injected so the checker stays pure. */
export type Judge = (assertion: Assertion, facts: RunFacts) => Promise<{ pass: boolean; reason: string }>;

export async function checkAssertions(assertions: Assertion[], facts: RunFacts, judge: Judge): Promise<AssertionOutcome[]> {
  const outcomes: AssertionOutcome[] = [];
  for (const assertion of assertions) {
    const value = assertion.value ?? "";
    if (assertion.type === "equals") outcomes.push({ type: "equals", value, pass: facts.output === value });
    else if (assertion.type === "contains") outcomes.push({ type: "contains", value, pass: facts.output.includes(value) });
    else if (assertion.type === "judge") outcomes.push({ type: "judge", value, ...(await judge(assertion, facts)) });
    else outcomes.push({ type: assertion.type, value, pass: false, reason: "not implemented" });
  }
  return outcomes;
}
