import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openSecret, sealSecret } from '../security/secret-box.ts';
import { deliveryHeaders, newSigningSecret, serviceSignature, standardSignature } from './signing.ts';
import { checkEndpointUrl, forbiddenAddress } from '../security/url-guard.ts';
import { randomBytes } from 'node:crypto';

describe('signatures', () => {
  it('matches the Standard Webhooks reference vector', () => {
    // From the Standard Webhooks / Svix documentation.
    const sig = standardSignature('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    assert.equal(sig, 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('keys X-Service-Signature with the whole secret string, prefix included', () => {
    const secret = newSigningSecret();
    const body = '{"id":"evt_1"}';
    const h = deliveryHeaders(secret, 'evt_1', body, 1_700_000_000_000);
    assert.equal(h['x-service-signature'], serviceSignature(secret, body));
    assert.equal(h['webhook-timestamp'], '1700000000');
    assert.equal(h['webhook-signature'], standardSignature(secret, 'evt_1', 1_700_000_000, body));
    assert.notEqual(serviceSignature(secret, body), serviceSignature(secret.slice(6), body));
  });

  it('signs webhook-signature with the new secret first and the previous one second during a roll, X-Service-Signature with the new only', () => {
    const [fresh, old] = [newSigningSecret(), newSigningSecret()];
    const body = '{"id":"evt_2"}';
    const h = deliveryHeaders(fresh, 'evt_2', body, 1_700_000_000_000, old);
    assert.equal(h['webhook-signature'], `${standardSignature(fresh, 'evt_2', 1_700_000_000, body)} ${standardSignature(old, 'evt_2', 1_700_000_000, body)}`);
    assert.equal(h['x-service-signature'], serviceSignature(fresh, body));
  });
});

describe('sealed secrets', () => {
  it('opens only with the same key and the same endpoint', () => {
    const key = randomBytes(32);
    const sealed = sealSecret(key, 'whsec_abc', 'brand_1/we_1');
    assert.equal(openSecret(key, sealed, 'brand_1/we_1'), 'whsec_abc');
    assert.throws(() => openSecret(key, sealed, 'brand_1/we_2'));
    assert.throws(() => openSecret(randomBytes(32), sealed, 'brand_1/we_1'));
    assert.ok(!sealed.includes('abc'));
  });
});

describe('url guard', () => {
  it('classifies addresses', () => {
    for (const a of ['127.0.0.1', '10.2.3.4', '172.31.255.255', '192.168.0.1', '169.254.169.254', '100.100.100.200', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00:ec2::254', '::ffff:127.0.0.1', '::ffff:7f00:1', '64:ff9b::a00:1', '224.0.0.1']) {
      assert.ok(forbiddenAddress(a), `${a} is forbidden`);
    }
    for (const a of ['93.184.215.14', '8.8.8.8', '2606:4700::1111', '172.32.0.1']) assert.equal(forbiddenAddress(a), undefined, a);
  });

  it('asks DNS for names and refuses any private answer', async () => {
    const lookup = async (host: string) => (host === 'mixed.example.com'
      ? [{ address: '93.184.215.14', family: 4 }, { address: '10.0.0.7', family: 4 }]
      : [{ address: '93.184.215.14', family: 4 }]);
    assert.equal((await checkEndpointUrl('https://mixed.example.com/x', 'live', lookup)).ok, false);
    assert.equal((await checkEndpointUrl('https://public.example.com/x', 'live', lookup)).ok, true);
    assert.equal((await checkEndpointUrl('https://slow.example.com/x', 'live', () => new Promise(() => {}), 50)).ok, true, 'a name DNS cannot answer yet is checked again at delivery');
  });
});
