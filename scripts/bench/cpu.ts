// CPU time of processes on this machine, from /proc: what a benchmark's work cost, which the machine's
// other load does not change the way it changes requests per second.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/** A process's CPU time so far (user + system, /proc/<pid>/stat, in ms); null once it has gone. */
export function cpuMsOrNull(pid: number): number | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  const fields = stat.split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** A process's CPU time so far (ms); it must be running. */
export function cpuMs(pid: number): number {
  const ms = cpuMsOrNull(pid);
  if (ms === null) throw new Error(`process ${pid} has gone`);
  return ms;
}
