// The 'Auth Debugger' card (development builds only): status, email, name, and the raw
// user and session data on demand. The session's secret id is never readable by scripts (httpOnly).
import { useState } from "react";
import { TriangleAlert } from "lucide-react";
import { SETTINGS_MSG } from "@promptly/shared";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useMe } from "@/hooks/use-me";

export function AuthDebugger() {
  const { data: me, isPending, isFetching, refetch } = useMe();
  const [expanded, setExpanded] = useState(false);
  const status = isPending ? "Loading" : me ? "Authenticated" : "Not Authenticated";

  return (
    <Card>
      <CardHeader>
        <div className="flex items-center justify-between gap-2">
          <CardTitle>Auth Debugger</CardTitle>
          <Badge variant="outline">Development only</Badge>
        </div>
        <CardDescription>Inspect the current authentication state.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <Alert variant="destructive">
          <TriangleAlert aria-hidden="true" />
          <AlertTitle>Sensitive data</AlertTitle>
          <AlertDescription>This page shows sensitive account data. Do not share screenshots of it.</AlertDescription>
        </Alert>
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
          <dt className="text-muted-foreground">Status</dt>
          <dd data-testid="auth-status">{status}</dd>
          <dt className="text-muted-foreground">User email</dt>
          <dd>{me?.user.email ?? "—"}</dd>
          <dt className="text-muted-foreground">Name</dt>
          <dd>{me?.profile.fullName?.trim() || "Not set"}</dd>
          <dt className="text-muted-foreground">Dev Mode</dt>
          <dd>Disabled</dd>
        </dl>
        {!isPending && !me && <p className="text-sm text-muted-foreground">{SETTINGS_MSG.noActiveUserSession}</p>}
        <div className="flex gap-2">
          <Button variant="outline" onClick={() => setExpanded((value) => !value)} aria-expanded={expanded}>
            {expanded ? "Hide Details" : "Show Details"}
          </Button>
          <Button variant="outline" onClick={() => void refetch()} disabled={isFetching}>
            Refresh
          </Button>
        </div>
        {expanded && (
          <div className="grid gap-3">
            <section className="grid gap-1">
              <h4 className="text-sm font-medium">User</h4>
              <pre className="overflow-x-auto rounded-md bg-muted p-3 text-xs">{JSON.stringify(me ? { ...me.user, ...me.profile } : null, null, 2)}</pre>
            </section>
            <section className="grid gap-1">
              <h4 className="text-sm font-medium">Session</h4>
              <pre className="overflow-x-auto rounded-md bg-muted p-3 text-xs">
                {JSON.stringify(me ? { authenticated: true, role: me.role, isSuperUser: me.isSuperUser, lastSignInAt: me.user.lastSignInAt } : null, null, 2)}
              </pre>
            </section>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

/** What production builds show instead. */
export function AuthDebuggerUnavailable() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Auth Debugger</CardTitle>
        <CardDescription>The Auth Debugger is only available in development builds.</CardDescription>
      </CardHeader>
    </Card>
  );
}
