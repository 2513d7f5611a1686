// Every route of the app that a signed-in person can open, for the checks that go through all of them
// (axe-core, no sideways scroll at 375 px).
export function everyRoute(ids: { organizationId: string; promptId: string; changeRequestId: string }): string[] {
  const prompt = `/prompts/${ids.promptId}`;
  return [
    "/", "/prompts", "/bookmarks", "/analytics", "/teams", "/organizations", `/organizations/${ids.organizationId}/members`,
    prompt, `${prompt}?tab=try`, `${prompt}?tab=history`, `${prompt}?tab=compare`, `${prompt}?tab=runs`, `${prompt}?tab=usage`, `${prompt}?tab=activity`, "/audit", "/providers",
    "/prompts/new", `/reviews/${ids.changeRequestId}`, "/settings/profile", "/settings/password", "/settings/notifications", "/settings/security",
  ];
}
