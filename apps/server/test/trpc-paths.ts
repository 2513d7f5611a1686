// What the fast-path tests send and compare: tRPC query paths as the clients write them, and an answer
// without how it travelled.

/** One query as a plain GET (`?input=` in superjson's envelope). */
export const trpcQuery = (procedure: string, input?: unknown) =>
  `/trpc/${procedure}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify({ json: input }))}`}`;

/** One query as httpBatchLink sends it (the web app, @promptly/client): a batch of one. */
export const trpcBatchOfOne = (procedure: string, input?: unknown) =>
  `/trpc/${procedure}?batch=1&input=${encodeURIComponent(JSON.stringify(input === undefined ? {} : { 0: { json: input } }))}`;

/**
 * An answer apart from its framing and encoding: the adapter streams (chunked, gzipped over 1 kB), a
 * fast path sends it whole. Every other header, Vary with it, stays compared.
 */
export function withoutFraming<T extends { headers: Record<string, string | string[] | undefined> }>({ headers, ...answer }: T) {
  const { "content-encoding": _encoding, "content-length": _length, "transfer-encoding": _chunked, ...compared } = headers;
  return { ...answer, headers: compared };
}
