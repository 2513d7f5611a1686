import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError, z } from "zod";
import type { Context } from "./context.ts";
import { DOMAIN_ERRORS } from "./error-table.ts";
import { DomainError } from "./errors.ts";
import { transformer } from "./transformer.ts";

const UNEXPECTED_ERROR = "An unexpected error occurred";

const t = initTRPC.context<Context>().create({
  transformer,
  errorFormatter({ shape, error }) {
    const zodError = error.cause instanceof ZodError ? error.cause : null;
    const reason = error.cause instanceof DomainError ? error.cause.reason : undefined;
    // A 5xx carries no internal message (a driver's text, an address, a path): those go to the log.
    const internal = shape.data.httpStatus >= 500 && !(error.cause instanceof DomainError);
    // Stack traces never leave the server, in any mode.
    const { stack: _stack, ...data } = shape.data;
    return {
      ...shape,
      // A form shows one clear message: the first field's, exactly as the shared schema words it.
      message: internal ? UNEXPECTED_ERROR : (zodError?.issues[0]?.message ?? shape.message),
      data: {
        ...data,
        // Field messages for forms: { fieldErrors: { email: ["Invalid email address"] }, formErrors: [] }
        zodError: zodError ? z.flattenError(zodError) : null,
        reason: reason ?? null,
      },
    };
  },
});

/** The failure a request asked for under TEST_FAULTS: a 500 like any other, so the interface is tested against the real thing. */
export class TestFault extends Error {}

/** The tRPC answer of a refusal: the one error table's code for the DomainError, which stays its cause. */
const trpcRefusal = (cause: DomainError) => new TRPCError({ code: DOMAIN_ERRORS[cause.code].code, message: cause.message, cause });

/**
 * What every procedure does around its own middlewares, in one step of tRPC's chain (each step copies
 * the call's options and context):
 * - a test fault the request asked for (TEST_FAULTS) fails it with a 500;
 * - a request that brought an API key it may not use is refused, whatever it asks (see Principal);
 * - a mutation may end sessions or change what a session carries (many paths do): the session cache
 *   keeps nothing while it runs and forgets everything when it ends, so the next request here reads
 *   the database (other processes learn of it from the database's notification);
 * - a service's DomainError is mapped through the one error table (its reason goes to the error's data),
 *   also one a subscription throws while it streams (a run's record refused, its prompt deleted while it
 *   ran); anything else passes through.
 */
const everyProcedure = t.middleware(async ({ ctx, type, path, next }) => {
  const failing = ctx.req.failing;
  if (failing && (failing.has(path) || failing.has("*"))) {
    throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: new TestFault(`Test fault requested for ${path}`) });
  }
  if (ctx.principal?.kind === "refusedKey") throw new TRPCError({ code: DOMAIN_ERRORS[ctx.principal.code].code, message: ctx.principal.message });
  const ended = type === "mutation" ? ctx.sessions.beginWrite() : null;
  try {
    const result = await next();
    if (!result.ok && result.error.cause instanceof DomainError) {
      throw trpcRefusal(result.error.cause);
    }
    if (result.ok && type === "subscription" && isAsyncIterable(result.data)) return { ...result, data: refusalsMapped(result.data) };
    return result;
  } finally {
    ended?.();
  }
});

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  typeof value === "object" && value !== null && Symbol.asyncIterator in value;

/** A subscription's events, a DomainError thrown while they stream answered as the one error table says (not a 500). */
async function* refusalsMapped<T>(events: AsyncIterable<T>): AsyncGenerator<T> {
  try {
    // yield* hands a return (the subscriber gone) on to the events themselves.
    yield* events;
  } catch (error) {
    throw error instanceof DomainError ? trpcRefusal(error) : error;
  }
}

export const router = t.router;
export const middleware = t.middleware;
export const createCallerFactory = t.createCallerFactory;
export const baseProcedure = t.procedure.use(everyProcedure);
