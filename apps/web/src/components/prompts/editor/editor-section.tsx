// One titled part of the editor (a card with an h2 under the page's h1).
import type { ReactNode } from "react";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";

interface EditorSectionProps {
  title: string;
  description?: ReactNode;
  children: ReactNode;
}

export function EditorSection({ title, description, children }: EditorSectionProps) {
  return (
    <Card className="min-w-0">
      <CardHeader>
        <h2 className="leading-none font-semibold">{title}</h2>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4">{children}</CardContent>
    </Card>
  );
}
