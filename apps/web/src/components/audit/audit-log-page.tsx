// /audit: the active organization's audit log for its admins and super users: filters by
// actor, action and dates, a table newest first with "Load more", and a CSV of every matching row.
// A row's change shows in a line and opens in full (each before and after value on a line of its own).
import { useId, useState, type ReactNode } from "react";
import { ChevronDown, Download } from "lucide-react";
import { toast } from "sonner";
import { AUDIT_ACTION_LABELS, can, type AuditLogListInput } from "@promptly/shared";
import type { RouterOutputs } from "@promptly/api";
import { GuardSkeleton } from "@/components/guards/role-guard";
import { LoadFailure } from "@/components/layout/load-failure";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { FilterSelect } from "@/components/ui/filter-select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { callerOf, useMe } from "@/hooks/use-me";
import { formatDateTime } from "@/lib/dates";
import { trpc } from "@/lib/trpc";
import { saveFile } from "@/lib/save-file";
import { accessIn, useWorkspace } from "@/lib/workspace";
import { actionLabel, actorLabel, auditCsv } from "./audit-csv.ts";
import { ActorName } from "./actor-name.tsx";

type AuditEvent = RouterOutputs["auditLog"]["list"]["items"][number];
type Filters = Omit<AuditLogListInput, "organizationId" | "cursor" | "limit">;

const CSV_PAGE = 500;
/** A select's value for "no filter" (a select item cannot have an empty value). */

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

/** A before/after value as its fields, one per line. */
function Fields({ title, value }: { title: string; value: unknown }) {
  if (value == null) return null;
  const entries = typeof value === "object" ? Object.entries(value as Record<string, unknown>) : [["value", value] as const];
  return (
    <div className="grid gap-0.5">
      <p className="font-medium">{title}</p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-2">
        {entries.map(([key, v]) => (
          <div key={key} className="contents">
            <dt className="text-muted-foreground">{key}</dt>
            <dd className="wrap-anywhere whitespace-pre-wrap">{v === null ? "none" : typeof v === "object" ? JSON.stringify(v, null, 2) : String(v)}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function Change({ event }: { event: AuditEvent }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  if (event.before == null && event.after == null) return <span className="text-muted-foreground">—</span>;
  const line = [event.before != null ? describe(event.before) : null, event.after != null ? describe(event.after) : null].filter(Boolean).join(" → ");
  return (
    <div className="grid max-w-sm min-w-48 gap-1 text-xs">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((value) => !value)}
        className="relative flex min-w-0 items-center gap-1 rounded-sm text-left hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        <ChevronDown aria-hidden="true" className={open ? "size-3.5 shrink-0 rotate-180" : "size-3.5 shrink-0"} />
        <span className="sr-only">{open ? "Hide change: " : "Show change: "}</span>
        <span className={open ? "wrap-anywhere whitespace-normal" : "truncate"}>{line}</span>
      </button>
      {open && (
        <div id={id} className="grid gap-2 rounded-md border border-border p-2 whitespace-normal" data-testid="audit-change-details">
          <Fields title="Before" value={event.before} />
          <Fields title="After" value={event.after} />
        </div>
      )}
    </div>
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
      saveFile(`audit-log-${new Date().toISOString().slice(0, 10)}.csv`, auditCsv(rows), "text/csv;charset=utf-8");
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
        <FilterSelect
          id="audit-actor"
          label="Actor"
          anyLabel="Everyone"
          className="space-y-1"
          value={actorId || undefined}
          options={(actors.data ?? []).filter((actor) => actor.id).map((actor) => ({ value: actor.id!, label: actorLabel(actor) }))}
          onChange={(next) => setActorId(next ?? "")}
        />
        <FilterSelect
          id="audit-action"
          label="Action"
          anyLabel="All actions"
          className="space-y-1"
          value={action || undefined}
          options={Object.entries(AUDIT_ACTION_LABELS).map(([value, label]) => ({ value, label }))}
          onChange={(next) => setAction(next ?? "")}
        />
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
                  <TableCell className="align-top">
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
