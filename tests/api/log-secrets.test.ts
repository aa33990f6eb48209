import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../../server/platform/http/log-redaction.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { loginAs } from '../fixtures/factories.js';
import { makeAccountWithAnswer, outboxMailsTo, recoveryClient } from '../fixtures/settings.js';

/** Every log line the server writes while people recover their accounts, at the most detailed level. */
let t: TestApp;
const lines: string[] = [];
beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => lines.push(chunk.toString('utf8')));
  t = await createTestApp({ logLevel: 'trace' }, { logStream: stream });
});
afterAll(async () => {
  await t.close();
});

describe('no reset, recovery or sign-in token reaches a log line', () => {
  it('through the emailed link (old ?token= links too), the security question and a sign-in', async () => {
    const acc = await makeAccountWithAnswer(t.ctx);
    const cookie = await loginAs(t.app, acc);
    expect((await t.app.inject({ method: 'POST', url: '/api/profile/reset-email', headers: { cookie } })).statusCode).toBe(200);
    // The outbox is written after the answer: wait for the message.
    await expect.poll(() => outboxMailsTo(t.ctx, acc.email).length).toBeGreaterThan(0);
    const mail = outboxMailsTo(t.ctx, acc.email).at(-1)!.replace(/=3D/g, '=');
    const linkToken = decodeURIComponent(mail.match(/reset-password#token=([\w%-]+)/)![1]!);
    // The browser never sends a fragment; a link of the older form sends the token in the query.
    // (The page itself is the browser build's, absent when only the API is tested: 200 or 404.)
    expect([200, 404]).toContain((await t.app.inject({ url: `/reset-password?token=${encodeURIComponent(linkToken)}` })).statusCode);
    const c = recoveryClient(t.app);
    expect((await c.checkLink(linkToken)).statusCode).toBe(200);
    const identified = (await c.identify(acc.username)).json();
    const resetToken = await c.tokenFor(acc);
    expect((await c.reset(resetToken, 'Recovered#2026', 'Recovered#2026')).statusCode).toBe(200);
    const secrets = [linkToken, encodeURIComponent(linkToken), identified.recoveryId as string, resetToken];
    const log = lines.join('');
    expect(log).toContain('/reset-password?token=%5Bredacted%5D');
    for (const secret of secrets) expect(log).not.toContain(secret);
  });

  it('redacts the values of secret-looking query parameters and nothing else', () => {
    expect(redactUrl('/api/varieties?q=rc%20222&page=2')).toBe('/api/varieties?q=rc%20222&page=2');
    expect(redactUrl('/reset-password?token=abc&x=1')).toBe('/reset-password?token=%5Bredacted%5D&x=1');
    expect(redactUrl('/x?resetToken=a&challenge=b&code=c')).not.toMatch(/=(a|b|c)(&|$)/);
    expect(redactUrl('/plain')).toBe('/plain');
  });
});
