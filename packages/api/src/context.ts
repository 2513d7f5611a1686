import type { ApiServices } from "./services/types.ts";
import type { RequestInfo } from "./request.ts";
import type { Principal } from "./principal.ts";
import { resolveRequestSession } from "./auth/session.ts";

export type { ApiServices } from "./services/types.ts";

export interface Context extends ApiServices {
  req: RequestInfo;
  principal: Principal | null;
}

export async function createContext(services: ApiServices, req: RequestInfo): Promise<Context> {
  const principal = await resolveRequestSession(services, req);
  return { ...services, req, principal };
}
