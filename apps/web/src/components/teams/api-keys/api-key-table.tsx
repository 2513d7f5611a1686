// The team's API keys, newest first: name, the key's first characters (never the key),
// its public half for the Langfuse SDKs (with Copy), labels, scopes, author and dates; a revoked or expired key says so, and only a live one can be revoked.
import { Ban, Copy } from "lucide-react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { authorName } from "@/components/prompts/author";
import { formatDate, formatDateTime } from "@/lib/dates";
import type { ApiKey } from "./api-key-types.ts";

/** The public key to the clipboard: it is not secret, the list always shows it. */
async function copyPublicKey(publicKey: string) {
  try {
    await navigator.clipboard.writeText(publicKey);
    toast.success("Copied");
  } catch {
    toast.error("Could not copy", { description: "The browser did not allow access to the clipboard. Select the public key and copy it." });
  }
}

export function ApiKeyTable({ apiKeys, onRevoke }: { apiKeys: ApiKey[]; onRevoke(apiKey: ApiKey): void }) {
  return (
    <Table aria-label="API keys">
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead>Key</TableHead>
          <TableHead>Public key</TableHead>
          <TableHead>Labels</TableHead>
          <TableHead>Scopes</TableHead>
          <TableHead>Created by</TableHead>
          <TableHead>Created</TableHead>
          <TableHead>Last used</TableHead>
          <TableHead>Expires</TableHead>
          <TableHead className="text-right">Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {apiKeys.map((apiKey) => (
          <TableRow key={apiKey.id} data-testid="api-key-row" data-name={apiKey.name}>
            <TableCell className="font-medium">
              <div className="flex items-center gap-2">
                <span className="max-w-60 truncate" title={apiKey.name}>
                  {apiKey.name}
                </span>
                {apiKey.revokedAt ? <Badge variant="destructive">Revoked</Badge> : apiKey.expired && <Badge variant="outline">Expired</Badge>}
              </div>
            </TableCell>
            <TableCell className="font-mono text-xs">{apiKey.prefix}…</TableCell>
            <TableCell>
              <div className="flex items-center gap-1">
                <span className="max-w-40 truncate font-mono text-xs" title={apiKey.publicKey}>
                  {apiKey.publicKey}
                </span>
                <Button variant="ghost" size="icon" aria-label={`Copy the public key of ${apiKey.name}`} onClick={() => void copyPublicKey(apiKey.publicKey)}>
                  <Copy aria-hidden="true" />
                </Button>
              </div>
            </TableCell>
            <TableCell>
              {apiKey.labels ? (
                <div className="flex gap-1">
                  {apiKey.labels.map((label) => (
                    <Badge key={label} variant="secondary">
                      {label}
                    </Badge>
                  ))}
                </div>
              ) : (
                <span className="text-muted-foreground">Any label</span>
              )}
            </TableCell>
            <TableCell>{apiKey.scopes.join(", ")}</TableCell>
            <TableCell>{authorName(apiKey.author)}</TableCell>
            <TableCell className="text-muted-foreground">{formatDate(apiKey.createdAt)}</TableCell>
            <TableCell className="text-muted-foreground">{apiKey.lastUsedAt ? formatDateTime(apiKey.lastUsedAt) : "Never"}</TableCell>
            <TableCell className="text-muted-foreground">{apiKey.expiresAt ? formatDate(apiKey.expiresAt) : "Never"}</TableCell>
            <TableCell className="text-right">
              {!apiKey.revokedAt && (
                <Button variant="ghost" size="sm" aria-label={`Revoke ${apiKey.name}`} onClick={() => onRevoke(apiKey)}>
                  <Ban aria-hidden="true" />
                  Revoke
                </Button>
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
