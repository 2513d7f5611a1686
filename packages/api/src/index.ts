import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "./root.ts";

export { appRouter, type AppRouter } from "./root.ts";
/** Every procedure's input and answer, inferred once from the router: the web and tools use these. */
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export { createCallerFactory } from "./trpc.ts";
export { createContext, type ApiConfig, type ApiServices, type Context, type RequestInfo } from "./context.ts";
export { createServices, closeServices, type ServicesConfig } from "./services/index.ts";
export { checkHealth, type HealthReport } from "./services/health.ts";
export { pruneExpired, scheduleHousekeeping } from "./services/housekeeping.ts";
export { drainOutbox, startOutboxWorker, type OutboxWorker } from "./services/outbox.ts";
export { avatarFileContentType } from "./services/avatars.ts";
export type { Mailer, SmtpConfig } from "./services/mailer.ts";
export type { Storage, S3Config } from "./services/storage.ts";
