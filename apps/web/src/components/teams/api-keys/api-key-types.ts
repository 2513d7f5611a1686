// Types of the API keys panel, inferred from the server's router (never written by hand).
import type { RouterOutputs } from "@promptly/api";

export type ApiKey = RouterOutputs["apiKeys"]["list"][number];
