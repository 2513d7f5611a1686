// Sign-up from an invitation (/auth/signup?invite=id&token=…, from the emailed link): the invited address is filled in and fixed,
// and one submit creates the account, accepts the invitation and signs in (auth.signUpWithInvite:
// the invitation's link is the address's confirmation, checked on the server). The person lands in
// the team (or organization) just joined.
import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "@tanstack/react-router";
import type { z } from "zod";
import { toast } from "sonner";
import type { RouterOutputs } from "@promptly/api";
import { MSG, can, signUpForm } from "@promptly/shared";
import { Skeleton } from "@/components/ui/skeleton";
import { api, trpc } from "@/lib/trpc";
import { accessIn, chooseWorkspace } from "@/lib/workspace";
import { SignUpFields, type SignUpValues } from "./sign-up-fields.tsx";
import { AuthCard, AuthFailure, AuthFooterLink } from "./auth-card.tsx";
import { describeFailure } from "./auth-errors.ts";

type InviteSummary = RouterOutputs["invites"]["get"];

const inviteSignInLink = (inviteId: string) => `/auth/signin?redirect=${encodeURIComponent(`/auth/accept-invite?id=${inviteId}`)}`;

export function InvitedSignUpForm({ inviteId, token }: { inviteId: string; token: string }) {
  const invite = trpc.invites.get.useQuery({ id: inviteId }, { retry: false });
  if (invite.isPending) {
    return (
      <AuthCard title="Create an account">
        <Skeleton className="h-40 w-full" aria-label="Loading invitation" />
      </AuthCard>
    );
  }
  if (invite.isError) {
    return (
      <AuthCard title="Create an account" footer={<AuthFooterLink to="/auth/signup">Sign up without an invitation</AuthFooterLink>}>
        <AuthFailure title="Invitation">{MSG.inviteNotFound}</AuthFailure>
      </AuthCard>
    );
  }
  return <InvitedForm inviteId={inviteId} token={token} summary={invite.data} />;
}

function InvitedForm({ inviteId, token, summary }: { inviteId: string; token: string; summary: InviteSummary }) {
  const router = useRouter();
  const [failure, setFailure] = useState<{ title: string; message: string } | null>(null);
  const signUp = trpc.auth.signUpWithInvite.useMutation();
  const form = useForm<SignUpValues, unknown, z.output<typeof signUpForm>>({
    resolver: zodResolver(signUpForm),
    mode: "onSubmit",
    reValidateMode: "onChange",
    defaultValues: { fullName: "", email: summary.email, password: "", confirmPassword: "" },
  });
  const { register, handleSubmit, formState } = form;
  const place = summary.teamName ? `${summary.teamName} in ${summary.organizationName}` : summary.organizationName;

  const onSubmit = handleSubmit(async ({ fullName, email, password }) => {
    setFailure(null);
    try {
      const { accepted } = await signUp.mutateAsync({ inviteId, token, fullName, email, password });
      // The place just joined becomes the active one.
      chooseWorkspace(accepted.organizationId, accepted.teamId ?? undefined);
      await api.auth.me.invalidate();
      const me = await api.auth.me.fetch();
      toast.success("Invitation accepted", { description: `Welcome! You are now a member of ${accepted.teamName ?? accepted.organizationName}.` });
      await router.navigate({ to: can(accessIn(me, null), "page.teams") ? "/teams" : "/", replace: true });
    } catch (error) {
      const { message, expected } = describeFailure(error);
      setFailure({ title: expected ? "Registration failed" : "Registration error", message });
    }
  });

  return (
    <AuthCard
      title="Create an account"
      description={
        <>
          You have been invited to join <strong>{place}</strong>. Choose a password to create your account and join in one step.
        </>
      }
      footer={
        <p>
          Already have an account?{" "}
          <a href={inviteSignInLink(inviteId)} className="font-medium text-primary underline-offset-4 hover:underline">
            Sign in
          </a>
        </p>
      }
    >
      {failure && <AuthFailure title={failure.title}>{failure.message}</AuthFailure>}
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <SignUpFields register={register} errors={formState.errors} submitting={formState.isSubmitting} submitLabel="Sign Up and Join" invited />
      </form>
    </AuthCard>
  );
}
