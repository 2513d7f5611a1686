// The command line (npm run cli -- <command>): `eval <name> ...` runs an evaluation on a running server
// over HTTP (a pipeline step), loading nothing of the database or the API, so it starts in a moment;
// every other command is an administration command of cli-admin.ts, loaded only for them.
import { EVAL_USAGE, parseEvalArgs, runEval } from "./eval/command.ts";

/** `eval <name> ...`: talks to a running server over HTTP, never to the database. Answers the exit code. */
async function evalCommand(args: string[]): Promise<number> {
  const parsed = parseEvalArgs(args, process.env);
  if (!parsed.ok) {
    console.error(`${parsed.message}\nusage: ${EVAL_USAGE.trimStart()}`);
    return 2;
  }
  return runEval(parsed.options, {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
    tty: process.stdout.isTTY === true,
    write: (text) => process.stdout.write(text),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  });
}

if (process.argv[2] === "eval") {
  const code = await evalCommand(process.argv.slice(3));
  process.exit(code);
} else {
  await import("./cli-admin.ts");
}
