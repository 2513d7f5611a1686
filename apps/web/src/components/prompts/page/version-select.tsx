// A labelled select of a prompt's versions, newest first, each with its labels ("v3 · latest", "v2 · production").
// Versions are numbered 1..latest without gaps, so the list needs no extra request.
import { useId } from "react";
import { LATEST_LABEL, versionLabel } from "@promptly/shared";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { cn } from "@/lib/utils";
import type { PromptDetail } from "./types.ts";

type VersionFacts = Pick<PromptDetail, "latestVersion" | "labels">;

/** "v3 · latest, staging": the version and every label pointing at it. */
export function versionText(prompt: VersionFacts, version: number): string {
  const names = [
    ...(version === prompt.latestVersion ? [LATEST_LABEL] : []),
    ...prompt.labels.filter((label) => label.version === version).map((label) => label.name),
  ];
  return names.length ? `${versionLabel(version)} · ${names.join(", ")}` : versionLabel(version);
}

interface VersionSelectProps {
  label: string;
  prompt: VersionFacts;
  value: number;
  onValueChange(version: number): void;
  className?: string;
}

export function VersionSelect({ label, prompt, value, onValueChange, className }: VersionSelectProps) {
  const id = useId();
  const versions = Array.from({ length: prompt.latestVersion }, (_, index) => prompt.latestVersion - index);
  return (
    <div className={cn("grid min-w-0 gap-1.5", className)}>
      <Label htmlFor={id}>{label}</Label>
      <Select value={String(value)} onValueChange={(next) => onValueChange(Number(next))}>
        <SelectTrigger id={id} className="w-full min-w-40 sm:w-fit">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {versions.map((version) => (
            <SelectItem key={version} value={String(version)}>
              {versionText(prompt, version)}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
