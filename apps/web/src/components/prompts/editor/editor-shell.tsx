// The editor page's frame: its h1 and intro, the loading state, and the notice shown instead of the form.
import type { ReactNode } from "react";
import { Card, CardDescription, CardHeader } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";

export function EditorShell({ title, intro, children }: { title: string; intro: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto grid w-full max-w-5xl min-w-0 grid-cols-1 gap-6">
      <header className="grid gap-1">
        <h1 className="text-2xl font-bold tracking-tight break-words">{title}</h1>
        <p className="text-sm text-muted-foreground">{intro}</p>
      </header>
      {children}
    </div>
  );
}

export function EditorLoading() {
  return (
    <div className="grid gap-4" aria-busy="true" aria-label="Loading the editor">
      <Skeleton className="h-40 w-full" />
      <Skeleton className="h-64 w-full" />
    </div>
  );
}

/** Why there is no form. */
export function EditorNotice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <h2 className="leading-none font-semibold">{title}</h2>
        <CardDescription>{children}</CardDescription>
      </CardHeader>
    </Card>
  );
}
