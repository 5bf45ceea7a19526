/**
 * What the OpenAPI document and the MCP tool list say about this folder's operations beyond their
 * schemas (http/operation.ts): each route passes its entry as `config.operation`.
 */
import { readTool, type Operation } from '../http/operation.ts';

/** GET /emails */
export const listEmails: Operation = {
  id: 'listEmails',
  sdk: "for await (const email of client.emails.list({ kind: 'receipt' })) {\n  console.log(email.id, email.to, email.status);\n}",
  mcp: {
    name: 'list_emails',
    description: "List the mail sent or queued for the brand (receipts, notices), newest first, with each one's delivery status.",
    ...readTool
  }
};

/** GET /emails/{id} */
export const getEmail: Operation = {
  id: 'getEmail',
  sdk: "const email = await client.emails.get('msg_…');\nconsole.log(email.text);",
  mcp: {
    name: 'get_email',
    description: 'Get one email: its text and HTML parts, headers and the log of its sending tries.',
    ...readTool
  }
};

/** GET /email-settings */
export const getEmailSettings: Operation = { id: 'getEmailSettings', sdk: 'const settings = await client.emails.settings();' };

/** PATCH /email-settings */
export const updateEmailSettings: Operation = {
  id: 'updateEmailSettings',
  sdk: "const settings = await client.emails.updateSettings({ replyTo: 'help@example.com', buyerEmails: { cancellation: false } });",
  body: { replyTo: 'help@example.com', buyerEmails: { cancellation: false } }
};
