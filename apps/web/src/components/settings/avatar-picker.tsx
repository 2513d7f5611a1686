// The avatar with its 'Change avatar' picker: images only, previewed locally, uploaded on save.
import { useEffect, useId, useRef, useState } from "react";
import { Camera } from "lucide-react";
import { toast } from "sonner";
import { AVATAR_CONTENT_TYPES, AVATAR_MAX_BYTES, IMAGE_SIGNATURE_BYTES, SETTINGS_MSG, detectImageFormat } from "@promptly/shared";
import { Avatar, AvatarFallback, AvatarImage } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";

export interface AvatarPickerProps {
  currentUrl: string | null;
  initials: string;
  file: File | null;
  onFileChange(file: File | null): void;
  disabled?: boolean;
}

export function AvatarPicker({ currentUrl, initials, file, onFileChange, disabled }: AvatarPickerProps) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);

  useEffect(() => {
    if (!file) {
      setPreviewUrl(null);
      if (inputRef.current) inputRef.current.value = "";
      return;
    }
    const url = URL.createObjectURL(file);
    setPreviewUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const shown = previewUrl ?? currentUrl;
  return (
    <div className="flex items-center gap-4">
      <Avatar className="size-20">
        {shown && <AvatarImage src={shown} alt="Your avatar" data-testid="profile-avatar-image" />}
        <AvatarFallback className="text-lg">{initials}</AvatarFallback>
      </Avatar>
      <div className="grid gap-1">
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          accept={AVATAR_CONTENT_TYPES.join(",")}
          className="peer sr-only"
          disabled={disabled}
          onChange={async (event) => {
            const input = event.currentTarget;
            const picked = input.files?.[0];
            if (!picked) return;
            // A mirror of the server's checks, so a wrong file is named at once (the server decides).
            const problem = await checkAvatarFile(picked);
            if (problem) {
              input.value = "";
              toast.error(SETTINGS_MSG.avatarUploadError, { description: problem });
              return;
            }
            onFileChange(picked);
          }}
        />
        <Button variant="outline" size="sm" asChild>
          {/* The visually hidden input keeps the keyboard focus; the label shows it. */}
          <label
            htmlFor={inputId}
            className={cn("peer-focus-visible:ring-2 peer-focus-visible:ring-ring peer-focus-visible:ring-offset-2", disabled && "pointer-events-none opacity-50")}
          >
            <Camera aria-hidden="true" />
            Change avatar
          </label>
        </Button>
        <p className="text-xs text-muted-foreground">
          {file ? `${file.name} will be uploaded when you save.` : "PNG, JPEG, GIF or WebP, at most 2 MB."}
        </p>
      </div>
    </div>
  );
}

/** Why a picked file cannot be an avatar, or null: by its leading bytes and size, not its name. */
async function checkAvatarFile(file: File): Promise<string | null> {
  if (file.size > AVATAR_MAX_BYTES) return SETTINGS_MSG.avatarTooLarge;
  try {
    const head = new Uint8Array(await file.slice(0, IMAGE_SIGNATURE_BYTES).arrayBuffer());
    return detectImageFormat(head) ? null : SETTINGS_MSG.avatarType;
  } catch {
    return SETTINGS_MSG.avatarUnreadable;
  }
}

/** The file's bytes as base64, without the data: prefix. */
export function readFileAsBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ""));
    reader.onerror = () => reject(reader.error ?? new Error("The file could not be read."));
    reader.readAsDataURL(file);
  });
}
