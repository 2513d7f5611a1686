// The settings pages, each reading data its route loader put in the query cache.
import { trpc } from "@/lib/trpc";
import { AuthDebugger, AuthDebuggerUnavailable } from "./auth-debugger.tsx";
import { NotificationsForm } from "./notifications-form.tsx";
import { PasswordForm } from "./password-form.tsx";
import { ProfileForm } from "./profile-form.tsx";
import {
  AccountStatusCard, PasswordHealthCard, RecentActivityCard, SecurityScoreCard, SessionTimeoutCard,
} from "./security-cards.tsx";
import { SettingsSkeleton } from "./settings-skeleton.tsx";
import { TwoFactorCard } from "./two-factor-card.tsx";

export function ProfilePage() {
  const { data } = trpc.profile.get.useQuery();
  return data ? <ProfileForm profile={data} /> : <SettingsSkeleton />;
}

export function PasswordPage() {
  return <PasswordForm />;
}

export function NotificationsPage() {
  const { data } = trpc.profile.notificationPreferences.useQuery();
  return data ? <NotificationsForm preferences={data} /> : <SettingsSkeleton />;
}

export function SecurityPage() {
  const { data } = trpc.security.overview.useQuery();
  if (!data) return <SettingsSkeleton />;
  return (
    <div className="grid gap-6">
      <SecurityScoreCard overview={data} />
      <TwoFactorCard enabled={data.twoFactorEnabled} recoveryCodesRemaining={data.recoveryCodesRemaining} />
      <SessionTimeoutCard minutes={data.sessionTimeoutMinutes} />
      <PasswordHealthCard overview={data} />
      <RecentActivityCard overview={data} />
      <AccountStatusCard overview={data} />
    </div>
  );
}

export function DebugPage() {
  return import.meta.env.DEV ? <AuthDebugger /> : <AuthDebuggerUnavailable />;
}
