// PLACEHOLDER (dropped at merge): the real judge comes from the test-cases branch.
import type { Db } from "@promptly/db";
import type { ApiConfig } from "../types.ts";
import type { Judge } from "./assertions.ts";

export function createJudge(_deps: { db: Db; config: ApiConfig; organizationId: string; teamId: string }): Judge {
  return async () => {
    throw new Error("not implemented");
  };
}
