// How many requests each fast path answered itself in this process. Their answers are the full
// stack's, byte for byte, so this count is the one way to tell who answered: the test of FAST_PATHS
// reads it to show that off really sends every request through the stack. directAnswer counts the
// tRPC fast path's queries whose data PostgreSQL wrote (@promptly/api's directAnswers).
export const fastPathAnswers = { trpcQuery: 0, runtimeFetch: 0, directAnswer: 0 };
