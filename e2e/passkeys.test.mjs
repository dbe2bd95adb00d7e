// Browser tests of passkeys, at desktop (1280×800) and phone (390×844)
// size, with Chromium's virtual authenticator (the DevTools protocol's
// WebAuthn domain) standing in for a phone's: in one browser context
// a person who has played adds a passkey to their identity; in a second
// context (another device, the same passkey copied to its authenticator,
// as a synced passkey would be) "Sign in with a passkey" makes that
// browser the same identity, its games and all; removed there, it signs
// nobody in any more. A passkey this server
// never stored signs nobody in, and a cancelled prompt changes nothing.
// WebAuthn needs a domain, not an IP address: the pages are opened at
// http://localhost, the server being told that origin.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, api, audit, SIZES, newContext, watchErrors, joinViaForm } from './helpers.mjs';

let server;
let browser;
let base;

before(async () => {
  // every context asks for its games and passkeys from the one loopback
  // address: the budgets per address are lifted
  server = await startServer({ args: ['--passkey-origin', 'http://localhost', '--join-burst', '500', '--create-burst', '500', '--record-burst', '500'] });
  base = server.base.replace('127.0.0.1', 'localhost');
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

/** A page at `base` with a virtual authenticator of its own (a platform one, with resident keys and user verification). */
async function withAuthenticator(ctx) {
  const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { page, cdp, authenticatorId };
}

/** Opens the lobby's "Your identity on another device" and waits for its passkey buttons. */
async function passkeyBox(page) {
  await page.goto(base + '/');
  await page.locator('#device summary').click();
  await page.locator('#passkeyAdd').waitFor();
}

for (const [size, w, h] of SIZES) {
  test(`${size}: a passkey added on one device signs the same identity in on another`, async (t) => {
    const errors = [];
    const first = await withAuthenticator(await newContext(browser, base, t, { viewport: { width: w, height: h } }));
    watchErrors(first.page, errors);
    // this identity has played: a seat at a table
    const made = await api(server.base, '/api/tables', 'POST', { game: 'bigcheese', players: 3, seats: [{ kind: 'human' }, { kind: 'bot' }, { kind: 'bot' }], bot_delay_ms: 10000 });
    await first.page.goto(base + made.invite);
    await joinViaForm(first.page, 'Ann');
    const key = await first.page.evaluate(() => window.RR.identity());
    await passkeyBox(first.page);
    assert.match(await first.page.locator('#passkeys').innerText(), /has 0 passkeys/);
    await first.page.locator('#passkeyAdd').click();
    await first.page.locator('#passkeySaid', { hasText: 'Passkey added' }).waitFor();
    await first.page.locator('#passkeys', { hasText: 'has 1 passkey.' }).waitFor();
    const { credentials } = await first.cdp.send('WebAuthn.getCredentials', { authenticatorId: first.authenticatorId });
    assert.equal(credentials.length, 1);
    assert.ok(credentials[0].isResidentCredential, 'a passkey the browser offers unasked');

    // another device: a fresh context, its own identity, the passkey synced to its authenticator
    const second = await withAuthenticator(await newContext(browser, base, t, { viewport: { width: w, height: h } }));
    watchErrors(second.page, errors);
    await passkeyBox(second.page);
    const other = await second.page.evaluate(() => window.RR.identity());
    assert.notEqual(other, key);
    // with no passkey on it yet, the prompt finds none: nothing changes
    await second.page.locator('#passkeySignIn').click();
    await second.page.locator('#passkeySaid', { hasText: 'No passkey was used.' }).waitFor({ timeout: 60000 });
    assert.equal(await second.page.evaluate(() => window.RR.identity()), other);
    await second.cdp.send('WebAuthn.addCredential', { authenticatorId: second.authenticatorId, credential: credentials[0] });
    await second.page.locator('#passkeySignIn').click();
    await second.page.locator('#passkeySaid', { hasText: 'Signed in' }).waitFor();
    assert.equal(await second.page.evaluate(() => window.RR.identity()), key, 'the same identity');
    // its games came along: the table Ann sat at is in My games
    await second.page.locator(`#mineList a[href="/t/${made.id}#back"]`).waitFor();

    // a passkey this server never stored signs nobody in
    const third = await withAuthenticator(await newContext(browser, base, t, { viewport: { width: w, height: h } }));
    await passkeyBox(third.page);
    const stranger = await third.page.evaluate(() => window.RR.identity());
    const forged = { ...credentials[0], credentialId: Buffer.from('not a stored credential').toString('base64') };
    await third.cdp.send('WebAuthn.addCredential', { authenticatorId: third.authenticatorId, credential: forged });
    await third.page.locator('#passkeySignIn').click();
    await third.page.locator('#passkeySaid', { hasText: 'keeps no identity' }).waitFor();
    assert.equal(await third.page.evaluate(() => window.RR.identity()), stranger);

    assert.deepEqual(await audit(second.page, size + ' lobby with passkeys'), []);

    // removed from the second device, it signs nobody in any more
    await second.page.locator('#passkeyList li', { hasText: 'Passkey 1' }).waitFor();
    await second.page.getByRole('button', { name: 'Remove passkey 1' }).click();
    await second.page.locator('#passkeySaid', { hasText: 'Passkey removed' }).waitFor();
    await second.page.locator('#passkeys', { hasText: 'has 0 passkeys' }).waitFor();
    const fourth = await withAuthenticator(await newContext(browser, base, t, { viewport: { width: w, height: h } }));
    await passkeyBox(fourth.page);
    await fourth.cdp.send('WebAuthn.addCredential', { authenticatorId: fourth.authenticatorId, credential: credentials[0] });
    await fourth.page.locator('#passkeySignIn').click();
    await fourth.page.locator('#passkeySaid', { hasText: 'keeps no identity' }).waitFor();
    assert.deepEqual(errors.filter((e) => !/403|Forbidden/.test(e)), []);
  });
}
