/* Passkeys that keep this browser's identity (the lobby's "My games",
   beside the identity link): "Keep it with a passkey" adds one to the
   identity this browser holds; "Sign in with a passkey" on another
   device asks the browser for any passkey of this site and makes this
   browser that identity (the server's side: crates/server/src/passkeys/).

   The WebAuthn options come from the server as JSON with their binary
   fields in base64url; the browser's API wants ArrayBuffers, and its
   credential goes back as JSON the same way. addPasskey() and
   passkeySignIn() do that round trip; each resolves to what to say, or
   throws an Error whose message is for people. */

import { api } from './connection.js';
import { identity, saveIdentity } from './store.js';

/** base64url text as bytes. */
function bytes(s) {
  const b = atob(String(s).replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4));
  return Uint8Array.from(b, (c) => c.charCodeAt(0)).buffer;
}

/** Bytes as base64url text. */
function text(buf) {
  let s = '';
  for (const b of new Uint8Array(buf)) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Whether this browser can use passkeys at all. */
export const passkeysHere = () => typeof window !== 'undefined' && !!window.PublicKeyCredential && !!navigator.credentials;

/** Adds a passkey to the identity this browser holds. */
export async function addPasskey() {
  const me = { 'X-Ratrace-Key': identity() };
  const { ceremony, options } = await api('/api/passkeys/register', 'POST', undefined, me);
  const pk = options.publicKey;
  pk.challenge = bytes(pk.challenge);
  pk.user.id = bytes(pk.user.id);
  for (const c of pk.excludeCredentials || []) c.id = bytes(c.id);
  const cred = await navigator.credentials.create({ publicKey: pk });
  await api('/api/passkeys/register/' + encodeURIComponent(ceremony), 'POST', {
    id: cred.id,
    rawId: text(cred.rawId),
    type: cred.type,
    response: {
      attestationObject: text(cred.response.attestationObject),
      clientDataJSON: text(cred.response.clientDataJSON),
    },
    extensions: cred.getClientExtensionResults(),
  });
}

/** Signs in with a passkey: this browser becomes its identity; returns its short id. */
export async function passkeySignIn() {
  const { ceremony, options } = await api('/api/passkeys/login', 'POST');
  const pk = options.publicKey;
  pk.challenge = bytes(pk.challenge);
  for (const c of pk.allowCredentials || []) c.id = bytes(c.id);
  const cred = await navigator.credentials.get({ publicKey: pk });
  const r = cred.response;
  const got = await api('/api/passkeys/login/' + encodeURIComponent(ceremony), 'POST', {
    id: cred.id,
    rawId: text(cred.rawId),
    type: cred.type,
    response: {
      authenticatorData: text(r.authenticatorData),
      clientDataJSON: text(r.clientDataJSON),
      signature: text(r.signature),
      userHandle: r.userHandle ? text(r.userHandle) : null,
    },
    extensions: cred.getClientExtensionResults(),
  });
  saveIdentity(got.key);
  return got.player;
}

/** Removes passkey `id` (its credential id) from the identity this browser holds. */
export async function removePasskey(id) {
  await api('/api/me/passkeys/' + encodeURIComponent(id), 'DELETE', undefined, { 'X-Ratrace-Key': identity() });
}
