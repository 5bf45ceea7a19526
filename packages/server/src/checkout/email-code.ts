import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { findSettings } from '../mail/repository.ts';
import { queueMail } from '../mail/service.ts';
import * as codes from './code-repository.ts';
import type { PaymentLinkRow } from './repository.ts';

/**
 * Checkout email verification (issue 24 item 3, docs/checkout.md): when the brand turns it on,
 * the hosted page asks the buyer for a 6-digit code mailed to the link's address before it takes
 * a payment. Links made with `checkoutOtpVerificationSkipped: true` skip it (the brand's own
 * site checked the address already).
 */

export const codeTtlMs = 10 * 60_000;
/** Wrong codes before a code stops working (a new one may be sent). */
export const maxTries = 5;
/** Between two sends of one link, and sends per link in all. */
export const resendAfterMs = 60_000;
export const maxSends = 5;

const hashOf = (link: PaymentLinkRow, code: string) => createHash('sha256').update(`${link.brand_id}:${link.id}:${code}`).digest('hex');

/** What the page must show: nothing to do, the code form, or the pay form. */
export async function codeState(db: Queryable, link: PaymentLinkRow): Promise<'not_needed' | 'verified' | 'unsent' | 'sent'> {
  if (link.extras?.checkoutOtpVerificationSkipped === true) return 'not_needed';
  const settings = await findSettings(db, link.brand_id);
  if (!settings?.checkout_email_verification) return 'not_needed';
  const code = await codes.findCode(db, link.brand_id, link.id);
  if (code?.verified_at) return 'verified';
  return code ? 'sent' : 'unsent';
}

/** Mails a new code to the link's buyer; refused in words when asked again too soon or too often. */
export async function sendCode(tx: Queryable, link: PaymentLinkRow, brandName: string): Promise<void> {
  const current = await codes.findCode(tx, link.brand_id, link.id, { forUpdate: true });
  if (current?.verified_at) return;
  if (current && current.sends >= maxSends) {
    throw new AppError('rate_limited', `We have sent ${maxSends} codes for this checkout, which is the most we send. Ask ${brandName} for a new checkout link.`);
  }
  if (current && Date.now() - current.sent_at.getTime() < resendAfterMs) {
    const wait = Math.ceil((resendAfterMs - (Date.now() - current.sent_at.getTime())) / 1000);
    throw new AppError('rate_limited', `A code was sent to ${link.buyer_email} moments ago. Check your inbox (and spam folder), or ask for a new code in ${wait} seconds.`);
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await codes.saveCode(tx, link.brand_id, link.id, hashOf(link, code), codeTtlMs);
  await queueMail(tx, {
    // No mode: the code is a secret for the buyer alone, so it stays out of the brand's GET /emails (like account mail).
    brandId: link.brand_id, mode: null, kind: 'checkout_code', to: { email: link.buyer_email, name: link.buyer_name },
    data: { buyerName: link.buyer_name, code, expiresAt: new Date(Date.now() + codeTtlMs).toISOString() },
    dedupeKey: `checkout_code:${link.id}:${(current?.sends ?? 0) + 1}`,
  });
}

/**
 * Checks a code typed by the buyer: null when right (the link may be paid), else what is wrong
 * and what to do, in words. Answers rather than throws, so a wrong try is counted even so.
 */
export async function checkCode(tx: Queryable, link: PaymentLinkRow, typed: string): Promise<string | null> {
  const code = await codes.findCode(tx, link.brand_id, link.id, { forUpdate: true });
  if (!code) return 'No code has been sent for this checkout yet: ask for one first.';
  if (code.verified_at) return null;
  const clean = typed.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(clean)) return 'The code is the 6 digits in the mail we sent you.';
  if (code.attempts >= maxTries) return `That code was entered wrongly ${maxTries} times, so it no longer works. Ask for a new code.`;
  if (code.expires_at.getTime() <= Date.now()) return 'That code has expired (codes last 10 minutes). Ask for a new code.';
  if (!timingSafeEqual(Buffer.from(code.code_hash, 'hex'), Buffer.from(hashOf(link, clean), 'hex'))) {
    await codes.countWrongTry(tx, link.brand_id, link.id);
    const left = maxTries - code.attempts - 1;
    return left > 0 ? `That code is not right. ${left === 1 ? '1 try' : `${left} tries`} left.` : 'That code is not right, and that was the last try for it. Ask for a new code.';
  }
  await codes.markVerified(tx, link.brand_id, link.id);
  return null;
}
