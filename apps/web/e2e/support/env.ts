// Ports of the end-to-end server, apart from `npm start`'s defaults so both can run at once.
// E2E_PORT_OFFSET moves them all, so several suites can run side by side on one machine.
const offset = Number(process.env.E2E_PORT_OFFSET ?? 0);

export const E2E = {
  port: 3100 + offset,
  appUrl: `http://localhost:${3100 + offset}`,
  mailboxUrl: `http://127.0.0.1:${3180 + offset}`,
  smtpPort: 3125 + offset,
  mailboxPort: 3180 + offset,
  postgresPort: 54339 + offset,
  s3Port: 4579 + offset,
  dataDir: `/tmp/promptly-e2e-${offset}`,
};
