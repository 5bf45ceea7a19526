import type { PagePromise } from '../pagination.ts';
import type { Requester, RequestOptions } from '../request.ts';
import type { Email, EmailListParams, EmailSettings, EmailSettingsUpdateParams, EmailSummary } from '../types.ts';
import { list, segment } from './resource.ts';

/** Our addition (docs/email.md): the brand's outbox and mail settings. */
export class Emails {
  readonly #r: Requester;
  constructor(requester: Requester) { this.#r = requester; }

  /** GET /emails: mail sent or queued in the key's mode, newest first. Scope `customers:read`. */
  list(params?: EmailListParams, options?: RequestOptions): PagePromise<EmailSummary> {
    return list(this.#r, '/emails', params, options);
  }

  /** GET /emails/{id}: the HTML and text parts, headers and sending log. Scope `customers:read`. */
  get(emailId: string, options?: RequestOptions): Promise<Email> {
    return this.#r.request({ method: 'GET', path: `/emails/${segment(emailId, 'emailId')}`, options });
  }

  /** GET /email-settings. Scope `customers:read`. */
  settings(options?: RequestOptions): Promise<EmailSettings> {
    return this.#r.request({ method: 'GET', path: '/email-settings', options });
  }

  /** PATCH /email-settings: sender name, reply-to, colour, buyer mail kinds on or off. Scope `customers:write`. */
  updateSettings(params: EmailSettingsUpdateParams, options?: RequestOptions): Promise<EmailSettings> {
    return this.#r.request({ method: 'PATCH', path: '/email-settings', body: params, options });
  }
}
