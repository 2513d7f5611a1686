import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/prisma/client.ts";

export { Prisma, PrismaClient } from "./generated/prisma/client.ts";
export type * from "./generated/prisma/models.ts";
export * from "./generated/prisma/enums.ts";

export type Db = PrismaClient;
/** The client inside `db.$transaction(async (tx) => ...)`. */
export type DbTransaction = Parameters<Parameters<Db["$transaction"]>[0]>[0];
/** Services accept either the client or a transaction. */
export type DbOrTx = Db | DbTransaction;

export interface CreateDbOptions {
  url: string;
  /** Pool size of node-postgres; the default suits one small server process. */
  max?: number;
}

/** One client per process: create it at start-up and pass it down as `ctx.db`. */
export function createDb({ url, max = 10 }: CreateDbOptions): Db {
  const adapter = new PrismaPg({ connectionString: url, max });
  return new PrismaClient({ adapter });
}

/** True when `error` is Prisma's unique-constraint violation (P2002). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: string }).code === "P2002";
}
