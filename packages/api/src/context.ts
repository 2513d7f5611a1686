import type { ApiServices } from "./services/types.ts";
import type { RequestInfo } from "./request.ts";
import type { Principal } from "./principal.ts";
import { resolveRequestSession } from "./auth/session.ts";
import { authenticateBearer } from "./services/identity/api-keys.ts";
import { keyCaller } from "./services/access/visibility.ts";

export type { ApiServices } from "./services/types.ts";

export interface Context extends ApiServices {
  req: RequestInfo;
  principal: Principal | null;
}

export interface ContextOptions {
  /** Requests a minute one API key may make (shared with /api/v1); null or absent: no limit. */
  apiKeyRatePerMinute?: number | null;
}

/**
 * The caller of one request: an API key when the request has an Authorization header (the session
 * cookie is then not read: a tool says who it is once), else the session cookie's person, else nobody.
 */
export async function createContext(services: ApiServices, req: RequestInfo, options: ContextOptions = {}): Promise<Context> {
  return { ...services, req, principal: await resolvePrincipal(services, req, options) };
}

async function resolvePrincipal(services: ApiServices, req: RequestInfo, options: ContextOptions): Promise<Principal | null> {
  if (!req.authorization) return resolveRequestSession(services, req);
  const key = await authenticateBearer(services, req.authorization, { ratePerMinute: options.apiKeyRatePerMinute ?? null, ip: req.ip, calls: req.calls });
  return key.ok ? { kind: "apiKey", caller: keyCaller(key.apiKey) } : { kind: "refusedKey", code: key.code, message: key.message };
}
