import { Type } from 'typebox';
import { principalOf } from '../auth/resolve.ts';
import type { Deps } from '../deps.ts';
import { pageRequest } from '../db/paging.ts';
import type { App } from '../http/app-type.ts';
import { Envelope, ListOf, ok } from '../http/envelope.ts';
import { write } from '../http/idempotency.ts';
import { Email, EmailListQuery, EmailSettings, EmailSettingsChange, EmailSummary } from './schemas.ts';
import * as service from './service.ts';
import * as contract from './contract.ts';

/** Our addition (docs/email.md): the brand's outbox and its mail settings. */
export function mailRoutes(app: App, deps: Pick<Deps, 'db' | 'config'>) {
  const { db } = deps;
  const read = { auth: { scope: 'customers:read' as const } };

  app.get('/emails', {
    schema: {
      summary: 'List emails',
      description: 'Our addition (docs/email.md). Mail the service sent or queued for the brand in the key\'s mode (and mail about its '
        + 'dashboard team), newest first. Without a mail server (SMTP_URL) every message stays here as `unsent`.',
      tags: ['Emails'],
      querystring: EmailListQuery,
      response: { 200: Envelope(ListOf(EmailSummary)) },
    },
    config: { ...read, operation: contract.listEmails },
  }, async (req) => {
    const { kind, status, to } = req.query;
    return ok('Emails retrieved', await service.listEmails(db, principalOf(req), pageRequest('emails', req.query), { kind, status, to }));
  });

  app.get('/emails/:id', {
    schema: {
      summary: 'Get an email',
      description: 'Our addition (docs/email.md). One message whole: its HTML and text parts, headers, and the log of every try with the SMTP server\'s answer.',
      tags: ['Emails'],
      params: Type.Object({ id: Type.String({ description: 'The email id (`msg_…`).' }) }),
      response: { 200: Envelope(Email) },
    },
    config: { ...read, operation: contract.getEmail },
  }, async (req) => ok('Email retrieved', await service.getEmail(db, principalOf(req), req.params.id, deps.config.publicUrl)));

  app.get('/email-settings', {
    schema: {
      summary: 'Get email settings',
      description: 'Our addition (docs/email.md). The sender name, reply-to address and colour of the brand\'s mail, and which kinds of buyer mail are on.',
      tags: ['Emails'],
      response: { 200: Envelope(EmailSettings) },
    },
    config: { ...read, operation: contract.getEmailSettings },
  }, async (req) => ok('Email settings retrieved', await service.getSettings(db, principalOf(req))));

  app.patch('/email-settings', {
    schema: {
      summary: 'Update email settings',
      description: 'Our addition (docs/email.md). Changes only the fields given; `null` goes back to the default. `buyerEmails` turns kinds of buyer mail '
        + 'on or off (`{"receipt": false}`); mail to the brand\'s owners and dashboard users cannot be turned off.',
      tags: ['Emails'],
      body: EmailSettingsChange,
      response: { 200: Envelope(EmailSettings) },
    },
    config: { operation: contract.updateEmailSettings, auth: { scope: 'customers:write' as const } },
  }, async (req, reply) => write(db, req, reply, (tx) => service.updateSettings(tx, principalOf(req), req.body), 'Email settings updated'));
}
