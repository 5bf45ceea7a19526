import type { FastifyBaseLogger } from 'fastify';
import type { MailSettings } from '../config.ts';
import type { Db } from '../db/client.ts';
import { attachmentsOf } from './attachments.ts';
import { consentsToMarketing } from '../memberships/repository.ts';
import type { WorkSource } from '../worker/loop.ts';
import type { MailKind } from './kinds.ts';
import * as repo from './repository.ts';
import { brandLook, envelopeOf, queueOwnerMail } from './service.ts';
import { renderMail } from './templates.ts';

/**
 * The worker's mail work: sends due messages through SMTP (nodemailer) with retries on
 * MAIL_RETRY_SCHEDULE and a log row per try, or, with no SMTP_URL, marks them "not sent: no mail
 * server" once rendered, so the outbox shows exactly what would have gone out. Also looks for
 * webhook endpoints the delivery worker disabled and tells the brand's owners (webhooks/claim.ts
 * disables them in SQL and knows nothing of mail).
 */
export function mailSource(deps: { db: Db; log: FastifyBaseLogger; config: { publicUrl: string; mail: MailSettings }; noticeEveryMs?: number }): WorkSource {
  const { db, log } = deps;
  const settings = deps.config.mail;
  // nodemailer is loaded when the first message goes out, not at start (docs/embedded.md).
  let transport: Promise<import('nodemailer').Transporter> | undefined;
  const smtp = () => {
    transport ??= import('nodemailer').then(({ default: nodemailer }) => {
      const made = nodemailer.createTransport(settings.smtpUrl!, {});
      // An SMTP server that never answers must not hold a message past its lease.
      Object.assign(made.options, { connectionTimeout: settings.leaseMs / 3, greetingTimeout: settings.leaseMs / 3, socketTimeout: settings.leaseMs / 3 });
      return made;
    });
    return transport;
  };
  const noticeEveryMs = deps.noticeEveryMs ?? 10_000;
  let lastNoticeScan = 0;
  const inFlight = new Set<Promise<void>>();

  async function sendOne(m: repo.MailRow): Promise<void> {
    // Marketing queued before the buyer unsubscribed is not sent: the unsubscribe holds from its POST on.
    if (m.class === 'marketing' && m.mode && !(await consentsToMarketing(db, m.brand_id, m.mode, m.to_address))) {
      await repo.recordAttempt(db, m, 'unsent', null, { status: 'unsent', detail: 'not sent: the buyer unsubscribed after it was queued' });
      return;
    }
    const { look, settings: brandSettings } = await brandLook(db, m.brand_id, deps.config.publicUrl);
    const rendered = m.html !== null && m.text_body !== null && m.headers
      ? { subject: m.subject, html: m.html, text: m.text_body }
      : await renderMail(m.kind as MailKind, m.data, look);
    const envelope = envelopeOf(brandSettings, look, settings.from);
    const domain = settings.from.split('@')[1] ?? 'localhost';
    // Marketing mail only (RFC 2369, RFC 8058): the mail program's own "Unsubscribe", one POST to our signed address.
    const unsubscribe = m.class === 'marketing' && typeof m.data.unsubscribeUrl === 'string' ? {
      'List-Unsubscribe': `<${m.data.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    } : undefined;
    const headers: Record<string, string> = {
      From: `"${envelope.from.name}" <${envelope.from.address}>`,
      To: m.to_name ? `"${m.to_name.replace(/["\r\n]/g, '')}" <${m.to_address}>` : m.to_address,
      Subject: rendered.subject,
      'Message-ID': `<${m.id}@${domain}>`,
      ...(envelope.replyTo ? { 'Reply-To': envelope.replyTo } : {}),
      ...unsubscribe,
    };
    if (m.html === null || m.headers === null) await repo.saveRendered(db, m.brand_id, m.id, { html: rendered.html, text: rendered.text, headers });
    if (!settings.smtpUrl) {
      await repo.recordAttempt(db, m, 'unsent', null, { status: 'unsent', detail: 'not sent: no mail server (SMTP_URL is not set)' });
      return;
    }
    try {
      const info = await (await smtp()).sendMail({
        from: envelope.from,
        to: m.to_name ? { name: m.to_name, address: m.to_address } : m.to_address,
        replyTo: envelope.replyTo,
        subject: rendered.subject,
        html: rendered.html,
        text: rendered.text,
        messageId: headers['Message-ID'],
        ...(unsubscribe ? { headers: unsubscribe } : {}),
        attachments: attachmentsOf(m.kind as MailKind, m.data, look),
      });
      await repo.recordAttempt(db, m, 'sent', String(info.response ?? ''), { status: 'sent', detail: null });
    } catch (err) {
      const e = err as { responseCode?: number; response?: string; message?: string; code?: string };
      const answer = e.response ?? `${e.code ?? 'error'}: ${e.message ?? String(err)}`;
      // 5xx: the server refused this message for good (no such mailbox, rejected): a bounce.
      if (e.responseCode && e.responseCode >= 500) {
        await repo.recordAttempt(db, m, 'bounced', answer, { status: 'failed', detail: `refused by the mail server: ${answer}` });
        return;
      }
      const delay = settings.retryScheduleMs[m.attempts - 1];
      if (delay === undefined) {
        await repo.recordAttempt(db, m, 'failed', answer, { status: 'failed', detail: `gave up after ${m.attempts} tries: ${answer}` });
      } else {
        await repo.recordAttempt(db, m, 'failed', answer, { status: 'queued', retryInMs: delay, detail: `try ${m.attempts} failed: ${answer}` });
      }
      log.warn({ messageId: m.id, attempt: m.attempts, response: answer }, 'mail: send failed');
    }
  }

  async function noticeDisabledEndpoints(): Promise<number> {
    return db.transaction(async (tx) => {
      const found = await repo.claimEndpointNotices(tx, 20);
      for (const w of found) {
        await queueOwnerMail(tx, {
          brandId: w.brand_id, mode: w.mode, kind: 'endpoint_disabled',
          data: { url: w.url, endpointId: w.id, mode: w.mode, reason: w.disabled_reason, dashboardPath: `/dashboard/developers/webhooks/${w.id}` },
          dedupeKey: `endpoint:${w.id}:${w.disabled_reason}`,
        });
      }
      return found.length;
    });
  }

  return {
    name: 'mail',
    async runOnce() {
      let did = 0;
      if (Date.now() - lastNoticeScan >= noticeEveryMs) {
        lastNoticeScan = Date.now();
        did += await noticeDisabledEndpoints();
      }
      const due = await repo.claimDueMail(db, settings.leaseMs, 10);
      const batch = Promise.all(due.map((m) => sendOne(m).catch((err) => log.error({ err, messageId: m.id }, 'mail: could not handle a message'))))
        .then(() => undefined);
      inFlight.add(batch);
      try { await batch; } finally { inFlight.delete(batch); }
      return did + due.length;
    },
    async stop() {
      await Promise.all(inFlight);
      if (transport) (await transport).close();
    },
  };
}
