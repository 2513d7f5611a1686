// `npm run bench -- auth`: auth.me with a valid session (target: p50 under 5 ms) and auth.signIn,
// whose cost should be argon2id's and little else. Sign-in runs with few connections: argon2id
// (19 MiB, 2 passes) runs on libuv's thread pool, so more clients only queue.
import { BENCH_PASSWORD, type Benchmark } from "./types.ts";

const ME = "bench-me@bench.test";
const SIGN_IN = "bench-signin@bench.test";

/** What auth.me reads: the session with its user, then the user, profile and stored role. */
const SESSION_SQL = `
  SELECT s.user_id, s.expires_at, s.two_factor_verified, s.last_active_at, u.email, u.session_timeout_minutes
  FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.user_id = $1 LIMIT 1`;
const ME_SQL = `
  SELECT u.id, u.email, u.email_verified_at, u.last_sign_in_at, u.created_at,
         p.full_name, p.username, p.avatar_key, p.super_user, r.role
  FROM users u LEFT JOIN profiles p ON p.user_id = u.id LEFT JOIN user_roles r ON r.user_id = u.id
  WHERE u.id = $1`;

export const benchmark: Benchmark = {
  description: "auth.me with a valid session, and auth.signIn (email + password, argon2id)",
  async seed({ createAccount }) {
    await createAccount(ME, { fullName: "Bench Me" });
    await createAccount(SIGN_IN, { fullName: "Bench Sign-in" });
  },
  async scenarios({ db }) {
    const { rows } = await db.query<{ id: string; email: string }>(`SELECT id, email FROM users WHERE email = ANY($1)`, [[ME, SIGN_IN]]);
    const idOf = (email: string) => rows.find((row) => row.email === email)!.id;
    return [
      {
        name: "auth.me (signed in, 1 client)",
        procedure: "auth.me",
        as: ME,
        baseline: [{ sql: SESSION_SQL, params: [idOf(ME)] }, { sql: ME_SQL, params: [idOf(ME)] }],
        connections: 1,
      },
      {
        name: "auth.me (signed in, default load)",
        procedure: "auth.me",
        as: ME,
        baseline: [{ sql: SESSION_SQL, params: [idOf(ME)] }, { sql: ME_SQL, params: [idOf(ME)] }],
      },
      {
        name: "auth.signIn (4 clients)",
        procedure: "auth.signIn",
        type: "mutation",
        input: { email: SIGN_IN, password: BENCH_PASSWORD },
        // The baseline only reads the user: the difference is argon2id plus session and login-event writes.
        baseline: [{ sql: `SELECT id, password_hash, email_verified_at FROM users WHERE email = $1`, params: [SIGN_IN] }],
        connections: 4,
      },
    ];
  },
};
