// Ports of the end-to-end server (kept apart from `npm start`'s defaults so both can run).
export const E2E = {
  port: 3100,
  appUrl: "http://localhost:3100",
  mailboxUrl: "http://127.0.0.1:3180",
  smtpPort: 3125,
  postgresPort: 54339,
  s3Port: 4579,
  dataDir: "/tmp/promptly-e2e",
};
