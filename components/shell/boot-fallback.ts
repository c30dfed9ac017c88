// The boot script (theme, zone cookie) runs from the server's <head>. A page Next could not render
// on the server (a 404 from notFound(): Next answers an empty error shell and the browser renders
// the page) has no such <head>, and a script React inserts on the client never runs: the theme
// would be unset (light in a dark browser). Run the same script once, under the page's CSP nonce.
import { THEME_BOOT_SCRIPT } from './theme-script';
import { ZONE_BOOT_SCRIPT } from '@/lib/ui/zone-cookie';

export function runBootScriptIfSkipped(): void {
  const root = document.documentElement;
  if (root.dataset.theme) return;
  // Next's own scripts carry the nonce; the property (not the attribute) holds it.
  const nonce = document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce;
  const script = document.createElement('script');
  if (nonce) script.nonce = nonce;
  script.textContent = THEME_BOOT_SCRIPT + ZONE_BOOT_SCRIPT;
  document.head.appendChild(script);
  script.remove();
}
