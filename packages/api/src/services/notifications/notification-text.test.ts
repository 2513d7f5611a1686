// What each kind of notification says and where it leads (the bell and the mail use the same words).
import { describe, expect, it } from "vitest";
import { notificationHref, notificationText, type NotificationFacts } from "./notification-text.ts";

const ids = { promptId: "p1", teamId: "t1", commentId: "c1", changeRequestId: "r1" };
const facts = (kind: NotificationFacts["kind"], data: Record<string, unknown>): NotificationFacts => ({ kind, ...ids, data: { actorName: "Ana Lima", ...data } });
const on = { promptName: "support/refund-policy" };

describe("notification text and link", () => {
  it.each<[NotificationFacts, string, string]>([
    [facts("comment", on), "Ana Lima commented on support/refund-policy", "/prompts/p1?tab=comments&comment=c1"],
    [facts("reply", on), "Ana Lima replied to your comment on support/refund-policy", "/prompts/p1?tab=comments&comment=c1"],
    [facts("mention", on), "Ana Lima mentioned you in a comment on support/refund-policy", "/prompts/p1?tab=comments&comment=c1"],
    [facts("review_requested", on), "Ana Lima asks for your review of a change to production of support/refund-policy", "/reviews/r1"],
    [facts("review_decided", { ...on, decision: "approved" }), "Ana Lima approved your change request on support/refund-policy", "/reviews/r1"],
    [facts("review_decided", { ...on, decision: "rejected" }), "Ana Lima rejected your change request on support/refund-policy", "/reviews/r1"],
    [facts("review_decided", { ...on, decision: "merged" }), "Ana Lima approved your change request on support/refund-policy: production moved", "/reviews/r1"],
    [facts("review_decided", { ...on, decision: "archived" }), "Ana Lima approved your change request on support/refund-policy: the prompt is archived", "/reviews/r1"],
    [facts("production_moved", { ...on, version: 4 }), "Ana Lima moved production of support/refund-policy to v4", "/prompts/p1?tab=history"],
    [facts("production_moved", { ...on, version: 4, actorName: null }), "Production of support/refund-policy now serves v4", "/prompts/p1?tab=history"],
    [facts("team_added", { teamName: "Support", organizationId: "o1" }), "Ana Lima added you to team Support", "/?organizationId=o1&teamId=t1"],
    [facts("team_added", { teamName: "Support" }), "Ana Lima added you to team Support", "/"],
    [facts("invite_accepted", { teamName: "Support", organizationId: "o1", teamsPage: false }), "Ana Lima accepted your invitation to team Support", "/?organizationId=o1&teamId=t1"],
    [facts("invite_accepted", { organizationName: "Acme", teamsPage: true }), "Ana Lima accepted your invitation to Acme", "/teams"],
  ])("case %#", (notification, text, href) => {
    expect(notificationText(notification)).toBe(text);
    expect(notificationHref(notification)).toBe(href);
  });
});
