/** The consent screen: pick or create a simulated account, see the scopes, Authorize or Cancel. */
import { escapeHtml, page } from '../http/html';
import type { Account } from '../world';
import type { AuthorizeRequest } from './service';
import type { OAuthSpec } from './specs';

export function encodeRequest(req: AuthorizeRequest): string {
  return Buffer.from(JSON.stringify(req)).toString('base64url');
}

export function decodeRequest(encoded: string): AuthorizeRequest | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
    if (parsed !== null && typeof parsed === 'object' && 'platform' in parsed && 'clientId' in parsed && 'redirectUri' in parsed)
      return parsed as AuthorizeRequest;
  } catch {
    return undefined;
  }
  return undefined;
}

export function consentPage(spec: OAuthSpec, req: AuthorizeRequest, scopes: string[], accounts: Account[], error?: string): string {
  // Every streamer and bot account is offered; the crowd's viewers (thousands) only up to a page's worth.
  const kindOrder = { streamer: 0, bot: 1, viewer: 2 } as const;
  const ordered = [...accounts].sort((a, b) => kindOrder[a.kind] - kindOrder[b.kind]);
  const people = ordered.filter((a) => a.kind !== 'viewer');
  const sorted = [...people, ...ordered.slice(people.length, people.length + 40)];
  const options = sorted
    .map(
      (a, i) =>
        `<label><input type="radio" name="account" value="${escapeHtml(a.id)}"${i === 0 ? ' checked' : ''}> ${escapeHtml(a.displayName)} <span class="badge">@${escapeHtml(a.login)} · ${a.kind}</span></label>`,
    )
    .join('');
  const scopeList = scopes.length
    ? `<ul class="scopes">${scopes.map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join('')}</ul>`
    : '<p class="muted">No scopes requested (basic identity only).</p>';
  const body = `<main>
<h1>Sign in to ${escapeHtml(spec.label)} <span class="badge">Greenroom local emulator</span></h1>
<p class="muted">An application (<code>${escapeHtml(req.clientId)}</code>) wants to access your ${escapeHtml(spec.label)} account.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/_emulator/oauth/consent">
<input type="hidden" name="request" value="${encodeRequest(req)}">
<h2 id="acc">Account</h2>
<fieldset aria-labelledby="acc"><legend>Choose a simulated account</legend>${options}
<label><input type="radio" name="account" value="new"${sorted.length ? '' : ' checked'}> Create a new account</label>
</fieldset>
<p><label for="display_name">New account display name</label><input type="text" id="display_name" name="display_name" placeholder="e.g. MyStreamer" autocomplete="off"></p>
<h2>Requested permissions</h2>
${scopeList}
<p class="muted">You will be sent back to <code>${escapeHtml(req.redirectUri)}</code>.</p>
<div class="actions"><button type="submit" name="decision" value="deny">Cancel</button><button type="submit" name="decision" value="allow" class="primary" autofocus>Authorize</button></div>
</form>
<script>document.getElementById('display_name').addEventListener('input',function(e){if(e.target.value){var n=document.querySelector('input[name=account][value=new]');if(n)n.checked=true;}});</script>
</main>`;
  return page(`Authorize – ${spec.label}`, body);
}

export function errorPage(spec: OAuthSpec, title: string, message: string): string {
  return page(
    `${spec.label} – error`,
    `<main><h1 class="error">${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p class="muted">${escapeHtml(spec.label)} (Greenroom local emulator) did not redirect back to the application.</p></main>`,
  );
}
