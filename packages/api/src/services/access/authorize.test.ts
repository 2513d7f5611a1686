import { describe, expect, it } from "vitest";
import { API_KEY_MSG, MSG, RUNTIME_MSG, accessOf, type PromptAccess, type PromptFacts } from "@promptly/shared";
import { authorize } from "./authorize.ts";
import { commandLineCaller, keyCaller } from "./visibility.ts";

const readKey = keyCaller({ id: "k1", teamId: "t1", scopes: ["read"], labels: null });
const writeKey = keyCaller({ id: "k2", teamId: "t1", scopes: ["read", "write"], labels: null });
const boundKey = keyCaller({ id: "k3", teamId: "t1", scopes: ["read"], labels: ["production"] });
const runKey = keyCaller({ id: "k4", teamId: "t1", scopes: ["read", "run"], labels: null });
const boundRunKey = keyCaller({ id: "k5", teamId: "t1", scopes: ["read", "run"], labels: ["production"] });
const deleteKey = keyCaller({ id: "k6", teamId: "t1", scopes: ["read", "delete"], labels: null });
const boundDeleteKey = keyCaller({ id: "k7", teamId: "t1", scopes: ["read", "delete"], labels: ["staging"] });
const teamPrompt = (caller: typeof readKey): { facts: PromptFacts; access: PromptAccess } => ({
  facts: { visibility: "team", authorId: null },
  access: { ...accessOf(caller, { teamRole: caller.apiKey!.teamRole, organizationRole: "member" }), userId: caller.userId },
});
const forbidden = (message: string) => ({ ok: false, code: "FORBIDDEN", message });

describe("authorize: what the key alone decides comes before the resource", () => {
  it.each([
    ["a read key's write, before any lookup", readKey, "prompt.write", {}, forbidden(RUNTIME_MSG.readOnlyKey)],
    ["a read key's write on a prompt it cannot see", readKey, "prompt.write", { prompt: null }, forbidden(RUNTIME_MSG.readOnlyKey)],
    ["a write key moving production on a prompt it cannot see", writeKey, "prompt.write", { label: "production", prompt: null }, forbidden(RUNTIME_MSG.protectedLabel)],
    ["a write key deleting, before any lookup: write does not imply delete", writeKey, "prompt.delete", {}, forbidden(RUNTIME_MSG.deleteScopeNeeded)],
    ["a write key deleting its team's prompt", writeKey, "prompt.delete", { prompt: teamPrompt(writeKey) }, forbidden(RUNTIME_MSG.deleteScopeNeeded)],
    ["a delete key deleting, before any lookup", deleteKey, "prompt.delete", {}, { ok: true }],
    // The delete scope stands in for the team admin level that prompt.delete asks (the table's keyScope), on what the key reads.
    ["a delete key deleting its team's prompt", deleteKey, "prompt.delete", { prompt: teamPrompt(deleteKey) }, { ok: true }],
    ["a delete key deleting a prompt it cannot see", deleteKey, "prompt.delete", { prompt: null }, { ok: false, code: "NOT_FOUND", message: MSG.notFound }],
    ["a delete key deleting what production points to", deleteKey, "prompt.delete", { label: "production", prompt: teamPrompt(deleteKey) }, forbidden(RUNTIME_MSG.deleteProduction)],
    ["a delete key writing: delete does not imply write", deleteKey, "prompt.write", {}, forbidden(RUNTIME_MSG.readOnlyKey)],
    ["a delete key bound to labels deleting", boundDeleteKey, "prompt.delete", { label: "staging" }, forbidden(RUNTIME_MSG.labelsOnly(["staging"]))],
    ["a write key moving staging on a prompt it cannot see", writeKey, "prompt.write", { label: "staging", prompt: null }, { ok: false, code: "NOT_FOUND", message: MSG.notFound }],
    ["a write key moving staging", writeKey, "prompt.write", { label: "staging", prompt: teamPrompt(writeKey) }, { ok: true }],
    ["a bound key fetching its label", boundKey, "prompt.read", { fetch: { label: "production" } }, { ok: true }],
    ["a bound key fetching another label", boundKey, "prompt.read", { fetch: { label: "latest" } }, forbidden(RUNTIME_MSG.labelsOnly(["production"]))],
    ["a bound key fetching a version", boundKey, "prompt.read", { fetch: { version: 1 } }, forbidden(RUNTIME_MSG.labelsOnly(["production"]))],
    ["a bound key reading a prompt without a label", boundKey, "prompt.read", { prompt: null }, forbidden(API_KEY_MSG.labelBound(["production"]))],
    ["a bound key listing", boundKey, "organization.read", { place: accessOf(boundKey, { organizationRole: "member" }) }, { ok: true }],
    ["a read key reading its team's prompt", readKey, "prompt.read", { prompt: teamPrompt(readKey) }, { ok: true }],
    ["a read key running, before any lookup", readKey, "prompt.run", { fetch: { label: "production" } }, forbidden(RUNTIME_MSG.runScopeNeeded)],
    ["a write key running: write does not imply run", writeKey, "prompt.run", {}, forbidden(RUNTIME_MSG.runScopeNeeded)],
    ["a run key running any version", runKey, "prompt.run", { fetch: { version: 3 } }, { ok: true }],
    ["a run key writing: run does not imply write", runKey, "prompt.write", {}, forbidden(RUNTIME_MSG.readOnlyKey)],
    ["a bound run key running its label", boundRunKey, "prompt.run", { fetch: { label: "production" } }, { ok: true }],
    ["a bound run key running another label", boundRunKey, "prompt.run", { fetch: { label: "staging" } }, forbidden(RUNTIME_MSG.labelsOnly(["production"]))],
    // The whole decision, the prompt included: the run scope stands in for the editor role a viewer key lacks (the table's keyScope).
    ["a run key running its team's prompt", runKey, "prompt.run", { fetch: { label: "production" }, prompt: teamPrompt(runKey) }, { ok: true }],
    ["a run key running a prompt it cannot see", runKey, "prompt.run", { fetch: { label: "production" }, prompt: null }, { ok: false, code: "NOT_FOUND", message: MSG.notFound }],
    ["a read key running its team's prompt", readKey, "prompt.run", { prompt: teamPrompt(readKey) }, forbidden(RUNTIME_MSG.runScopeNeeded)],
  ] as const)("%s", (_name, caller, action, resource, decision) => {
    expect(authorize(caller, action, resource)).toEqual(decision);
  });
});

describe("authorize: the operator's command line on the server", () => {
  const cli = commandLineCaller();
  const team = accessOf(cli, { teamRole: null, organizationRole: null });
  it.each([
    ["importing into any team", "prompt.write", { place: team }, { ok: true }],
    ["exporting any team", "prompt.read", { place: team }, { ok: true }],
    ["moving production", "prompt.write", { label: "production", place: team }, { ok: true }],
    ["a team that does not exist", "prompt.write", { place: null }, { ok: false, code: "NOT_FOUND", message: MSG.notFound }],
  ] as const)("%s", (_name, action, resource, decision) => {
    expect(authorize(cli, action, resource)).toEqual(decision);
  });
});
