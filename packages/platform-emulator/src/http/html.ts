/** A dark, minimal page shell for the emulator's HTML (authorize pages, control page). */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

export const baseStyles = `
:root { color-scheme: dark; --bg:#0e0e10; --panel:#18181b; --line:#2f2f35; --text:#efeff1; --muted:#adadb8; --accent:#2fb36c; --danger:#e5484d; }
* { box-sizing: border-box; }
body { margin:0; font:15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; background:var(--bg); color:var(--text); }
main { max-width: 560px; margin: 40px auto; padding: 24px; background: var(--panel); border: 1px solid var(--line); border-radius: 12px; }
h1 { font-size: 20px; margin: 0 0 8px; } h2 { font-size: 15px; margin: 20px 0 8px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
p { margin: 8px 0; } code { background:#26262c; padding:1px 5px; border-radius:4px; }
ul.scopes { margin: 0; padding-left: 20px; }
fieldset { border: 1px solid var(--line); border-radius: 8px; margin: 0; padding: 8px 12px; max-height: 260px; overflow: auto; }
legend { color: var(--muted); padding: 0 4px; }
label { display:block; padding: 4px 0; cursor: pointer; }
input[type=text] { width: 100%; padding: 8px 10px; background:#0e0e10; color:var(--text); border:1px solid var(--line); border-radius:6px; font: inherit; }
button { font: inherit; padding: 8px 18px; border-radius: 6px; border: 1px solid var(--line); background: #26262c; color: var(--text); cursor: pointer; }
button.primary { background: var(--accent); border-color: var(--accent); color: #04140b; font-weight: 600; }
button:focus-visible, input:focus-visible, select:focus-visible { outline: 2px solid #8fd9b0; outline-offset: 2px; }
.actions { display:flex; gap: 12px; justify-content: flex-end; margin-top: 20px; }
.muted { color: var(--muted); } .error { color: var(--danger); }
.badge { font-size: 12px; color: var(--muted); margin-left: 6px; }
`;

export function page(title: string, body: string, extraHead = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${baseStyles}</style>${extraHead}</head><body>${body}</body></html>`;
}
