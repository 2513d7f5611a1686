// HTTP hardening shared by every response: security headers and cross-site request refusal.
import type { NextFunction, Request, Response } from "express";

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

export function securityHeaders(opts: { csp: boolean }) {
  return (req: Request, res: Response, next: NextFunction) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("X-Frame-Options", "DENY");
    // Pages such as /auth/reset-password?token=… must never leak their URL to another site.
    res.setHeader("Referrer-Policy", req.path.startsWith("/auth") ? "no-referrer" : "strict-origin-when-cross-origin");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
    if (opts.csp) res.setHeader("Content-Security-Policy", CSP);
    else res.setHeader("Content-Security-Policy", "frame-ancestors 'none'");
    if (req.secure) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    next();
  };
}

/**
 * Refuses cross-site mutations: a browser's cross-site request is marked by Sec-Fetch-Site or
 * carries a foreign Origin, and only JSON bodies are accepted (forms cannot send them cross-site
 * without a preflight). Tools without an Origin header (the typed client) pass.
 */
export function crossSiteGuard(appOrigin: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    const refuse = (message: string) =>
      res.status(403).json({ error: { message, code: -32003, data: { code: "FORBIDDEN", httpStatus: 403 } } });
    if (req.get("sec-fetch-site") === "cross-site") return refuse("Cross-site requests are not allowed");
    const origin = req.get("origin");
    if (origin && origin !== appOrigin && origin !== `${req.protocol}://${req.get("host")}`) {
      return refuse("Cross-site requests are not allowed");
    }
    const type = req.get("content-type") ?? "";
    if (req.headers["content-length"] !== "0" && !type.toLowerCase().startsWith("application/json")) {
      return res.status(415).json({
        error: { message: "Only application/json request bodies are accepted", code: -32600, data: { code: "BAD_REQUEST", httpStatus: 415 } },
      });
    }
    next();
  };
}
