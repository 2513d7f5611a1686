// The card every auth screen sits in: a title, an optional description, the content and a footer line.
import type { ReactNode } from "react";
import { Link } from "@tanstack/react-router";
import { AlertCircle } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from "@/components/ui/card";

export interface AuthCardProps {
  title: string;
  description?: ReactNode;
  footer?: ReactNode;
  children: ReactNode;
}

export function AuthCard({ title, description, footer, children }: AuthCardProps) {
  return (
    <Card>
      <CardHeader>
        <h1 className="text-xl leading-none font-semibold">{title}</h1>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent className="grid gap-4">{children}</CardContent>
      {footer && <CardFooter className="justify-center text-sm text-muted-foreground">{footer}</CardFooter>}
    </Card>
  );
}

/** The footer line: an optional question ('Already have an account?') and the link that answers it. */
export function AuthFooterLink({ to, question, children }: { to: "/auth/signin" | "/auth/signup" | "/auth/forgot-password"; question?: string; children: ReactNode }) {
  return (
    <p>
      {question && `${question} `}
      <Link to={to} className="font-medium text-primary underline-offset-4 hover:underline">
        {children}
      </Link>
    </p>
  );
}

/** What went wrong on an auth screen, under a title in the spec's words. */
export function AuthFailure({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Alert variant="destructive">
      <AlertCircle aria-hidden="true" />
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription>{children}</AlertDescription>
    </Alert>
  );
}
