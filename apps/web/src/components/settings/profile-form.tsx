// Profile: avatar, Full Name, Username, read-only Email, 'Save Changes'.
import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "sonner";
import type { RouterOutputs } from "@promptly/api";
import { AVATAR_MAX_BYTES, SETTINGS_MSG, initials, updateProfileInput } from "@promptly/shared";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { trpc } from "@/lib/trpc";
import { AvatarPicker, readFileAsBase64 } from "./avatar-picker.tsx";
import { errorCode, errorMessage, isAvatarError } from "./errors.ts";

type OwnProfile = RouterOutputs["profile"]["get"];
interface ProfileFields {
  fullName: string;
  username: string;
}

export function ProfileForm({ profile }: { profile: OwnProfile }) {
  const utils = trpc.useUtils();
  const update = trpc.profile.update.useMutation();
  const [avatarFile, setAvatarFile] = useState<File | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<ProfileFields>({
    resolver: zodResolver(updateProfileInput),
    mode: "onSubmit",
    reValidateMode: "onChange",
    defaultValues: { fullName: profile.fullName ?? "", username: profile.username ?? "" },
  });
  const saving = isSubmitting || update.isPending;

  const onSubmit = handleSubmit(async (values) => {
    let avatar: { fileName: string; contentType: string; dataBase64: string } | undefined;
    if (avatarFile) {
      // The server checks everything again; this only spares a large upload.
      if (avatarFile.size > AVATAR_MAX_BYTES) {
        toast.error(SETTINGS_MSG.avatarUploadError, { description: SETTINGS_MSG.avatarTooLarge });
        return;
      }
      try {
        avatar = { fileName: avatarFile.name, contentType: avatarFile.type, dataBase64: await readFileAsBase64(avatarFile) };
      } catch {
        toast.error(SETTINGS_MSG.avatarUploadError, { description: SETTINGS_MSG.avatarUnreadable });
        return;
      }
    }
    try {
      const saved = await update.mutateAsync({ ...values, avatar });
      utils.profile.get.setData(undefined, saved);
      await utils.auth.me.invalidate();
      reset({ fullName: saved.fullName ?? "", username: saved.username ?? "" });
      setAvatarFile(null);
      toast.success(SETTINGS_MSG.profileUpdated, { description: SETTINGS_MSG.profileUpdatedDescription });
    } catch (error) {
      const message = errorMessage(error, "Something went wrong. Please try again.");
      if (isAvatarError(error)) {
        toast.error(SETTINGS_MSG.avatarUploadError, { description: message });
        return;
      }
      // Once: under the username when it is taken, otherwise in a toast.
      if (errorCode(error) === "CONFLICT") setError("username", { message });
      else toast.error(SETTINGS_MSG.profileUpdateError, { description: message });
    }
  });

  const fullName = watch("fullName");
  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile</CardTitle>
        <CardDescription>How you appear to your teams.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} className="grid gap-6" noValidate>
          <AvatarPicker
            currentUrl={profile.avatarUrl}
            initials={initials(fullName || profile.fullName, profile.email)}
            file={avatarFile}
            onFileChange={setAvatarFile}
            disabled={saving}
          />
          <FormField label="Full Name" error={errors.fullName?.message}>
            <Input autoComplete="name" {...register("fullName")} />
          </FormField>
          <FormField label="Username" error={errors.username?.message}>
            <Input autoComplete="username" {...register("username")} />
          </FormField>
          <FormField label="Email" description="Your email address cannot be changed here.">
            <Input type="email" value={profile.email} readOnly aria-readonly="true" className="bg-muted text-muted-foreground" />
          </FormField>
          <div>
            <Button type="submit" disabled={saving}>
              {saving ? "Saving..." : "Save Changes"}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
