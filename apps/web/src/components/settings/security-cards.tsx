// The parts of the Security page other than two-factor: the score, the session timeout,
// the password health check, recent account activity and the account status with a security tip.
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Lightbulb } from "lucide-react";
import { toast } from "sonner";
import type { RouterOutputs } from "@promptly/api";
import {
  SECURITY_SCORE_HINT, SECURITY_SCORE_HINT_BELOW, SESSION_TIMEOUT_MAX, SESSION_TIMEOUT_MIN, SETTINGS_MSG,
  passwordHealthAdvice, securityScore, securityScoreColor, sessionTimeoutInput,
} from "@promptly/shared";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Progress } from "@/components/ui/progress";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDateTime } from "@/lib/dates";
import { trpc } from "@/lib/trpc";
import { errorMessage } from "./errors.ts";
import { METER_CLASSES } from "./meter.ts";

export type SecurityOverview = RouterOutputs["security"]["overview"];

const formatDate = (date: Date | null) => (date ? formatDateTime(date) : "Never");

export function SecurityScoreCard({ overview }: { overview: SecurityOverview }) {
  const score = securityScore(overview, new Date());
  return (
    <Card>
      <CardHeader>
        <CardTitle>Security Score</CardTitle>
        <CardDescription>How well your account is protected.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-2">
        <div className="flex items-baseline justify-between">
          <span className="text-3xl font-semibold" data-testid="security-score">
            {score}
          </span>
          <span className="text-sm text-muted-foreground">out of 100</span>
        </div>
        <Progress value={score} aria-label="Security score" indicatorClassName={METER_CLASSES[securityScoreColor(score)]} />
        {score < SECURITY_SCORE_HINT_BELOW && <p className="text-sm text-muted-foreground">{SECURITY_SCORE_HINT}</p>}
      </CardContent>
    </Card>
  );
}

export function SessionTimeoutCard({ minutes }: { minutes: number }) {
  const utils = trpc.useUtils();
  const save = trpc.security.updateSessionTimeout.useMutation();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<{ minutes: number }>({
    resolver: zodResolver(sessionTimeoutInput),
    mode: "onSubmit",
    reValidateMode: "onChange",
    defaultValues: { minutes },
  });
  const busy = isSubmitting || save.isPending;

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync(values);
      await utils.security.overview.invalidate();
      toast.success(SETTINGS_MSG.sessionSaved, { description: SETTINGS_MSG.sessionSavedDescription(saved.sessionTimeoutMinutes) });
    } catch (error) {
      toast.error(SETTINGS_MSG.sessionSaveError, { description: errorMessage(error, "Please try again.") });
    }
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Session Timeout</CardTitle>
        <CardDescription>Sign out automatically after this long without activity.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} className="flex flex-wrap items-end gap-3" noValidate>
          <FormField
            label="Session timeout (minutes)"
            error={errors.minutes?.message}
            description={`Between ${SESSION_TIMEOUT_MIN} and ${SESSION_TIMEOUT_MAX} minutes.`}
          >
            <Input type="number" min={SESSION_TIMEOUT_MIN} max={SESSION_TIMEOUT_MAX} step={1} className="w-32" {...register("minutes", { valueAsNumber: true })} />
          </FormField>
          <Button type="submit" disabled={busy} className="mb-7">
            {busy ? "Saving..." : "Save"}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

export function PasswordHealthCard({ overview }: { overview: SecurityOverview }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Password Health</CardTitle>
        <CardDescription>
          {overview.passwordChangedAt ? `Password last changed: ${formatDate(overview.passwordChangedAt)}` : "You have not set a password."}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button
          variant="outline"
          onClick={() => toast(SETTINGS_MSG.passwordHealthCheck, { description: passwordHealthAdvice(overview.passwordChangedAt, new Date()) })}
        >
          Check Password Strength
        </Button>
      </CardContent>
    </Card>
  );
}

export function RecentActivityCard({ overview }: { overview: SecurityOverview }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Recent Account Activity</CardTitle>
        <CardDescription>Your last sign-ins.</CardDescription>
      </CardHeader>
      <CardContent>
        {overview.recentLogins.length === 0 ? (
          <p className="text-sm text-muted-foreground">{SETTINGS_MSG.noLoginActivity}</p>
        ) : (
          <Table aria-label="Recent account activity">
            <TableHeader>
              <TableRow>
                <TableHead>Date</TableHead>
                <TableHead>Device</TableHead>
                <TableHead>Location</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {overview.recentLogins.map((login) => (
                <TableRow key={login.id}>
                  <TableCell>{formatDate(login.date)}</TableCell>
                  <TableCell>{login.device}</TableCell>
                  <TableCell>{login.location}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

export function AccountStatusCard({ overview }: { overview: SecurityOverview }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Account Status</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
          <dt className="text-muted-foreground">Last sign-in</dt>
          <dd data-testid="last-sign-in">{formatDate(overview.lastSignInAt)}</dd>
          <dt className="text-muted-foreground">Email verified</dt>
          <dd data-testid="email-verified">{overview.emailVerified ? "Yes" : "No"}</dd>
        </dl>
        <Alert>
          <Lightbulb aria-hidden="true" />
          <AlertTitle>Security tip</AlertTitle>
          <AlertDescription>
            Use a unique password for every site, turn on two-factor authentication, and sign out on shared computers.
          </AlertDescription>
        </Alert>
      </CardContent>
    </Card>
  );
}
