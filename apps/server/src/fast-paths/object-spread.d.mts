import type { Plugin } from "esbuild";

/** A module's source with tRPC's object-spread helper replaced; null when the module does not define it. */
export function withFastObjectSpread(source: string): string | null;
/** esbuild plugin: bundles @trpc/server's modules with the fast helper; fails the build when none defined it. */
export function fastObjectSpread(): Plugin;
