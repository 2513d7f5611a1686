export { appRouter, type AppRouter } from "./root.ts";
export { createCallerFactory } from "./trpc.ts";
export { createContext, type ApiConfig, type ApiServices, type Context, type RequestInfo } from "./context.ts";
export { createServices, closeServices, type ServicesConfig } from "./services/index.ts";
export { checkHealth, type HealthReport } from "./services/health.ts";
export { pruneExpired, scheduleHousekeeping } from "./services/housekeeping.ts";
export { avatarFileContentType } from "./services/avatars.ts";
export type { Mailer, SmtpConfig } from "./services/mailer.ts";
export type { Storage, S3Config } from "./services/storage.ts";
