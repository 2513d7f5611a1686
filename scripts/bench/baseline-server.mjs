// The baseline: a plain Express + pg server answering each scenario with the same SQL as the app.
// Started as its own process by scripts/bench/index.ts; scenarios arrive as JSON in BENCH_SCENARIOS.
import express from "express";
import pg from "pg";

const scenarios = JSON.parse(process.env.BENCH_SCENARIOS ?? "[]");
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
pool.on("error", () => undefined);
const app = express();
app.get("/s/:index", async (req, res) => {
  const scenario = scenarios[Number(req.params.index)];
  if (!scenario) return res.status(404).end();
  const client = await pool.connect();
  try {
    let rows = [];
    for (const query of scenario.baseline) rows = (await client.query(query.sql, query.params ?? [])).rows;
    res.json(rows);
  } catch (error) {
    res.status(500).json({ error: String(error) });
  } finally {
    client.release();
  }
});
const server = app.listen(Number(process.env.PORT), "127.0.0.1", () => process.send?.("ready"));
process.on("SIGTERM", () => server.close(() => pool.end().then(() => process.exit(0))));
