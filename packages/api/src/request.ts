// What the host (Express, a test) tells the API about one HTTP request. Only the context and the
// cookie helpers of the procedures read it; services get plain values (services/types.ts).
export interface RequestInfo {
  ip: string;
  userAgent: string | null;
  cookieHeader: string | null;
  /** The Authorization header: `Bearer <API key>` makes the key the caller instead of the session cookie. */
  authorization?: string | null;
  /** The procedure calls the request carries (a batch's): an API key's limit counts each. One if absent. */
  calls?: number;
  /** True when the request reached us over https (directly or via a trusted proxy). */
  secure: boolean;
  /** Adds a Set-Cookie header to the response. */
  setCookie(serialized: string): void;
  /**
   * Test-only (the host's TEST_FAULTS): procedure paths this request asks to fail with a 500, "*" for all.
   * Absent in a real installation.
   */
  failing?: ReadonlySet<string>;
}

/** The plain facts services need about the caller. */
export const clientOf = (req: RequestInfo) => ({ ip: req.ip, userAgent: req.userAgent });
