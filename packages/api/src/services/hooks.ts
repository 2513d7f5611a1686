// What the domains hook onto the platform below them, registered when their modules load; every
// process loads this (through createServices, and the test harness) so all of them are in place:
// audited changes become webhook events (the webhooks listen to the audit trail), and each domain
// writes its own kinds of mail for the outbox (the outbox refuses to start with a kind unwritten).
import "./webhooks/events.ts";
import "./identity/auth-emails.ts";
import "./organizations/team-invites.ts";
import "./organizations/organization-invites.ts";
import "./notifications/notification-inbox.ts";
