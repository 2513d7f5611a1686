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
export { createServices, closeServices } from "./services/index.ts";
export { checkHealth } from "./services/health.ts";
export { setSuperUser } from "./services/super-users.ts";
export { scheduleHousekeeping } from "./services/housekeeping.ts";
export { startOutboxWorker } from "./services/outbox.ts";
export { configureNotificationMail } from "./services/notify.ts";
export { startRuntimeSync } from "./services/runtime-cache.ts";
export { avatarFileContentType } from "./services/avatars.ts";
export { DomainError } from "./errors.ts";
export { DOMAIN_ERRORS, ERROR_STATUS } from "./error-table.ts";
export { authenticateBearer } from "./services/api-keys.ts";
export { exportLibraryForCli, importLibraryForCli } from "./services/library.ts";
export {
  compileRuntimePrompt, createRuntimePrompt, createRuntimeVersion, listRuntimePrompts, runtimeSelector, serveRuntimePrompt, setRuntimeLabel,
} from "./services/runtime-prompts.ts";
export * as metrics from "./services/metrics.ts";
