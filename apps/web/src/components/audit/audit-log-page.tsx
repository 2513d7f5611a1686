// /audit: the active organization's audit log for its admins and super users: filters by
// actor, action and dates, a table newest first with "Load more", and a CSV of every matching row.
import { useState, type ReactNode } from "react";
import { Download } from "lucide-react";
import { toast } from "sonner";
import { AUDIT_ACTION_LABELS, can, type AuditLogListInput } from "@promptly/shared";
import type { RouterOutputs } from "@promptly/api";
import { GuardSkeleton } from "@/components/guards/role-guard";
import { LoadFailure } from "@/components/layout/load-failure";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { callerOf, useMe } from "@/hooks/use-me";
import { formatDateTime } from "@/lib/dates";
import { trpc } from "@/lib/trpc";
import { accessIn, useWorkspace } from "@/lib/workspace";
import { actionLabel, actorLabel, auditCsv } from "./audit-csv.ts";
import { ActorName } from "./actor-name.tsx";

type AuditEvent = RouterOutputs["auditLog"]["list"]["items"][number];
type Filters = Omit<AuditLogListInput, "organizationId" | "cursor" | "limit">;

const CSV_PAGE = 500;
const selectClass =
  "flex h-9 w-full rounded-md border border-input bg-background px-3 py-1 text-sm shadow-xs outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-1";

/** A date input's day (local time) as the start of that day, or of the day after for the upper bound. */
function dayBound(value: string, next: boolean): Date | undefined {
  if (!value) return undefined;
  const [year, month, day] = value.split("-").map(Number);
  return new Date(year!, month! - 1, day! + (next ? 1 : 0));
}

/** A before/after value in a few words: `version: 2`, `name: Core`. */
function describe(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value !== "object") return String(value);
  return Object.entries(value as Record<string, unknown>)
    .map(([key, v]) => `${key}: ${v === null ? "none" : typeof v === "object" ? JSON.stringify(v) : String(v)}`)
    .join(", ");
}

function Change({ event }: { event: AuditEvent }) {
  if (event.before == null && event.after == null) return <span className="text-muted-foreground">—</span>;
  return (
    <span className="text-xs">
      {event.before != null && <span className="text-muted-foreground">{describe(event.before)}</span>}
      {event.before != null && event.after != null && " → "}
      {event.after != null && <span>{describe(event.after)}</span>}
    </span>
  );
}

function Centered({ children }: { children: ReactNode }) {
  return <div className="space-y-2">{children}</div>;
}

export function AuditLogPage() {
  const { data: me, isPending } = useMe();
  const { activeOrganization, organizationsLoading, organizationsError, organizationsFailure, retryOrganizations } = useWorkspace();
  if (isPending || organizationsLoading) return <GuardSkeleton />;
  if (organizationsError) {
    return <LoadFailure heading="h1" title="The organizations could not be loaded" error={organizationsFailure} onRetry={retryOrganizations} />;
  }
  if (!activeOrganization) {
    return (
      <Centered>
        <h1 className="text-2xl font-bold tracking-tight">Audit log</h1>
        <p className="text-muted-foreground">You are not in an organization yet.</p>
      </Centered>
    );
  }
  if (!can(accessIn(callerOf(me), activeOrganization), "page.audit")) {
    return (
      <Centered>
        <h1 className="text-2xl font-bold tracking-tight">Audit log</h1>
        <p role="alert">Only organization admins and super users can read the audit log.</p>
      </Centered>
    );
  }
  return <AuditLog key={activeOrganization.id} organizationId={activeOrganization.id} organizationName={activeOrganization.name} />;
}

function AuditLog({ organizationId, organizationName }: { organizationId: string; organizationName: string }) {
  const [actorId, setActorId] = useState("");
  const [action, setAction] = useState("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [downloading, setDownloading] = useState(false);
  const filters: Filters = {
    actorId: actorId || undefined,
    action: action || undefined,
    from: dayBound(from, false),
    to: dayBound(to, true),
  };
  const actors = trpc.auditLog.actors.useQuery({ organizationId });
  const events = trpc.auditLog.list.useInfiniteQuery({ organizationId, ...filters }, { getNextPageParam: (page) => page.nextCursor ?? undefined });
  const utils = trpc.useUtils();

  async function downloadCsv() {
    setDownloading(true);
    try {
      const rows: AuditEvent[] = [];
      let cursor: string | undefined;
      do {
        const page = await utils.client.auditLog.list.query({ organizationId, ...filters, cursor, limit: CSV_PAGE });
        rows.push(...page.items);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      const url = URL.createObjectURL(new Blob([auditCsv(rows)], { type: "text/csv;charset=utf-8" }));
      const link = document.createElement("a");
      link.href = url;
      link.download = `audit-log-${new Date().toISOString().slice(0, 10)}.csv`;
      document.body.append(link);
      link.click();
      link.remove();
      URL.revokeObjectURL(url);
    } catch {
      toast.error("The audit log could not be downloaded", { description: "Check your connection and try again." });
    } finally {
      setDownloading(false);
    }
  }

  const items = events.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight">Audit log</h1>
          <p className="text-sm text-muted-foreground">Every change in {organizationName}, newest first. Nobody can edit or delete an entry.</p>
        </div>
        <Button variant="outline" onClick={() => void downloadCsv()} disabled={downloading || !events.isSuccess}>
          <Download aria-hidden="true" />
          {downloading ? "Preparing CSV…" : "Download CSV"}
        </Button>
      </div>

      <form className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" aria-label="Filter the audit log" onSubmit={(event) => event.preventDefault()}>
        <div className="space-y-1">
          <Label htmlFor="audit-actor">Actor</Label>
          <select id="audit-actor" className={selectClass} value={actorId} onChange={(event) => setActorId(event.target.value)}>
            <option value="">Everyone</option>
            {(actors.data ?? []).filter((actor) => actor.id).map((actor) => (
              <option key={`${actor.kind}:${actor.id}`} value={actor.id!}>
                {actorLabel(actor)}
              </option>
            ))}
          </select>
        </div>
        <div className="space-y-1">
          <Label htmlFor="audit-action">Action</Label>
          <select id="audit-action" className={selectClass} value={action} onChange={(event) => setAction(event.target.value)}>
            <option value="">All actions</option>
            {Object.entries(AUDIT_ACTION_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="space-y-1">
          <Label htmlFor="audit-from">From</Label>
          <Input id="audit-from" type="date" value={from} max={to || undefined} onChange={(event) => setFrom(event.target.value)} />
        </div>
        <div className="space-y-1">
          <Label htmlFor="audit-to">To</Label>
          <Input id="audit-to" type="date" value={to} min={from || undefined} onChange={(event) => setTo(event.target.value)} />
        </div>
      </form>

      {events.isPending ? (
        <GuardSkeleton />
      ) : events.isError ? (
        <LoadFailure title="The audit log could not be loaded" error={events.error} onRetry={events.refetch} />
      ) : items.length === 0 ? (
        <p className="text-muted-foreground">No events match these filters.</p>
      ) : (
        <>
          <Table aria-label="Audit events">
            <TableHeader>
              <TableRow>
                <TableHead>Time</TableHead>
                <TableHead>Actor</TableHead>
                <TableHead>Action</TableHead>
                <TableHead>Target</TableHead>
                <TableHead>Team</TableHead>
                <TableHead>Change</TableHead>
                <TableHead>Address</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {items.map((event) => (
                <TableRow key={event.id}>
                  <TableCell className="whitespace-nowrap">{formatDateTime(event.createdAt)}</TableCell>
                  <TableCell>
                    <ActorName actor={event.actor} />
                  </TableCell>
                  <TableCell>{actionLabel(event.action)}</TableCell>
                  <TableCell>
                    <span className="text-muted-foreground">{event.target.type.replace("_", " ")} </span>
                    {event.target.name ?? event.target.id}
                  </TableCell>
                  <TableCell>{event.teamName ?? "—"}</TableCell>
                  <TableCell>
                    <Change event={event} />
                  </TableCell>
                  <TableCell className="whitespace-nowrap">{event.ip ?? "—"}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {events.hasNextPage && (
            <Button variant="outline" onClick={() => void events.fetchNextPage()} disabled={events.isFetchingNextPage}>
              {events.isFetchingNextPage ? "Loading…" : "Load more"}
            </Button>
          )}
        </>
      )}
    </div>
  );
}
