import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "./root.ts";

export { appRouter, type AppRouter } from "./root.ts";
/**
 * Every procedure's input and answer, inferred once from the router: the web and tools use these.
 * @public
 */
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export { createContext, type ApiServices } from "./context.ts";
export { TestFault } from "./trpc.ts";
export { MALFORMED_ENVELOPE, serializeToJsonText } from "./transformer.ts";
export { directAnswers } from "./direct-answers.ts";
export type { SignInRefusal } from "./procedures.ts";
export { createServices, closeServices } from "./services/index.ts";
export { createS3Storage } from "./services/platform/storage.ts";
export { checkHealth } from "./services/platform/health.ts";
export { setSuperUser } from "./services/identity/super-users.ts";
export { setAppRole } from "./services/identity/app-roles.ts";
export { scheduleHousekeeping } from "./services/platform/housekeeping.ts";
export { startOutboxWorker } from "./services/platform/outbox.ts";
export { warmRunConnections, warmStoredProviderSdks } from "./services/models/connections.ts";
export { streamModelAnswer } from "./services/models/provider-client.ts";
export { configureNotificationMail } from "./services/notifications/notify.ts";
export { startRuntimeSync } from "./services/runtime/runtime-cache.ts";
export { avatarFileContentType } from "./services/identity/avatars.ts";
export { DomainError, invalidInput } from "./errors.ts";
export { DOMAIN_ERRORS, ERROR_STATUS, JSON_RPC_ERROR } from "./error-table.ts";
export { authenticateBearer, authenticateKeyPair, bearerKey, countKeyCalls, countKeyNow, knownApiKey, type BearerRefusal } from "./services/identity/api-keys.ts";
export { allowOrFail, authorize, keyScopeFor, type Decision, type Resource } from "./services/access/authorize.ts";
export { keyCaller, type KeyCaller } from "./services/access/visibility.ts";
export { exportLibraryForCli, importLibraryForCli } from "./services/prompts/library-cli.ts";
export { findTeamForCommandLine } from "./services/organizations/teams.ts";
export {
  cachedRuntimePrompt, compileRuntimePrompt, countRuntimeUse, createRuntimePrompt, createRuntimeVersion, deleteRuntimePrompt, saveRuntimePrompt, listRuntimePrompts, resolveRuntimePrompt, runtimeSelector,
  runtimeLabelsToMove, runtimeVersionLabels, serveRuntimePrompt, serveRuntimeVersion, setRuntimeLabel, setRuntimeLabels,
} from "./services/runtime/runtime-prompts.ts";
export { keyProject, pageRuntimePromptVersions } from "./services/runtime/runtime-langfuse.ts";
export type { ResolvedPrompt } from "./services/runtime/runtime-cache.ts";
export { startRuntimeRun } from "./services/runtime/runtime-runs.ts";
export { getRuntimeEvaluation, readRuntimeEvaluationItems, startRuntimeEvaluation } from "./services/evaluations/runtime-evaluations.ts";
export { runsRecorded, type RunEvent } from "./services/runs/runs.ts";
export { runtimeGenerationPages, runtimeGenerations, runtimeProductionMetrics } from "./services/production/runtime-production.ts";
export * as metrics from "./services/platform/metrics.ts";
export { createApiScore, createLangfuseScore, ingestLangfuseBatch, ingestOtlpTraces } from "./services/production/production-api.ts";
export { ingestSettled, mergeElsewhere, retrySetAsideIngestion, startIngestMerges, type StoredGeneration } from "./services/production/ingest.ts";
