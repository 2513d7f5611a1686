// Types of the webhooks panel, inferred from the server's router (never written by hand).
import type { RouterOutputs } from "@promptly/api";

export type Webhook = RouterOutputs["webhooks"]["list"][number];
