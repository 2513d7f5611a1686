// The web build's assets in the encodings the build wrote beside them (`<file>.br`, `<file>.gz`,
// apps/web/vite.config.ts): a browser that accepts one gets those bytes as they are, with no
// compression work per request (the `compression` middleware leaves an answer that has its
// Content-Encoding alone). Anything else falls through to express.static, which serves the file itself.
import { readdirSync } from "node:fs";
import { extname, join } from "node:path";
import type { RequestHandler } from "express";

const ENCODINGS = [
  { name: "br", suffix: ".br" },
  { name: "gzip", suffix: ".gz" },
] as const;

/** Serves `dir`'s files from their precompressed copies; the list of copies is read once, at start-up. */
export function precompressedAssets(dir: string, options: { maxAge: string; immutable: boolean }): RequestHandler {
  let names: Set<string>;
  try {
    names = new Set(readdirSync(dir));
  } catch {
    names = new Set();
  }
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const name = req.path.slice(1);
    // Only a file of the folder itself (no sub-path, no dot-segment) that has a copy.
    if (!name || name.includes("/") || !names.has(name)) return next();
    const offered = ENCODINGS.filter((encoding) => names.has(name + encoding.suffix));
    if (!offered.length) return next();
    res.vary("Accept-Encoding");
    // The smallest the browser takes: brotli over gzip, whatever order its header lists them in.
    const encoding = offered.find((candidate) => req.acceptsEncodings(candidate.name) === candidate.name);
    if (!encoding) return next();
    // The type of the file, not of its compressed copy.
    res.type(extname(name));
    res.setHeader("Content-Encoding", encoding.name);
    res.sendFile(join(dir, name + encoding.suffix), { maxAge: options.maxAge, immutable: options.immutable, dotfiles: "deny" }, (error?: Error & { code?: string; syscall?: string }) => {
      // A browser that left mid-file (a page closed) is no failure of ours, as express.static treats it.
      if (!error || error.code === "ECONNABORTED" || error.syscall === "write" || res.headersSent) return;
      // Nothing was sent: whatever answers next (the file itself, when only its copy has gone since
      // start-up; a 404; an error) must not go out labelled with this copy's encoding and type.
      res.removeHeader("Content-Encoding");
      res.removeHeader("Content-Type");
      next(error.code === "ENOENT" ? undefined : error);
    });
  };
}
