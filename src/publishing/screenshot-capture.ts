/**
 * Captures a website as the directory shows it: headless Chromium (Debian's package, driven
 * by playwright-core, which brings no browser of its own) at 1280×800, once the page has
 * settled, encoded as WebP by sharp with a 640-wide variant. Nothing on the page is clicked
 * or hidden: a consent banner the site shows is part of what a visitor sees, and guessing
 * which button closes it could as well accept tracking or leave the page.
 *
 * Every connection the page makes goes through a proxy that applies the address policy
 * after resolving the host name (checking-proxy.ts): the URL given, each redirect, what the
 * page loads, WebSockets. (Playwright's request interception was not enough: it does not
 * see the hops of a redirect.) A connection to an address that is not public is refused
 * before anything is sent to it; when it is the page itself, the capture fails and says
 * why. At most 10 redirects are followed, counted before each hop is sent (capRedirects);
 * WebRTC may not bypass the proxy over UDP.
 */
import { createHash } from 'node:crypto';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import sharp from 'sharp';
import { SCREENSHOT_VARIANT_WIDTH } from '../domain.js';
import { AddressPolicy, RefusedAddressError } from './address-policy.js';
import { startCheckingProxy } from './checking-proxy.js';

export const VIEWPORT = { width: 1280, height: 800 } as const;
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';
/** Headless, no sandbox (a root user in a container has none), no GPU, and no traffic of Chromium's own. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--force-webrtc-ip-handling-policy=disable_non_proxied_udp'];

export interface CaptureOptions {
  /** Time allowed for the page's `load` event, in ms. */
  timeoutMs: number;
  /** How long the page must go without a DOM change to count as settled, in ms. */
  quietMs: number;
  /** The longest wait for the network and the DOM to settle after `load`, in ms. */
  settleMs: number;
  /** Redirects followed by one request, at most. */
  maxRedirects: number;
  /** Which addresses may be fetched (default: public ones only). */
  addresses?: AddressPolicy;
}

export const DEFAULT_CAPTURE: CaptureOptions = { timeoutMs: 30_000, quietMs: 500, settleMs: 10_000, maxRedirects: 10 };

export function launchChromium(executablePath: string, extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/** The viewport of `url` as a PNG, once loaded and settled. */
export async function capturePage(browser: Browser, url: string, options: CaptureOptions = DEFAULT_CAPTURE): Promise<Buffer> {
  const addresses = options.addresses ?? new AddressPolicy();
  await addresses.check(new URL(url));
  // Every connection of this page goes through a proxy that checks it (checking-proxy.ts).
  const proxy = await startCheckingProxy(addresses);
  const context = await browser
    .newContext({
      viewport: VIEWPORT,
      deviceScaleFactor: 1,
      locale: 'fr-FR',
      colorScheme: 'light',
      // A service worker could fetch outside the page's requests; none is needed for a capture.
      serviceWorkers: 'block',
      // Chromium bypasses a proxy for loopback addresses unless told not to.
      proxy: { server: proxy.url, bypass: '<-loopback>' },
    })
    .catch(async (err: unknown) => {
      await proxy.close();
      throw err;
    });
  try {
    const page = await context.newPage();
    // The page's own navigations, each redirect included: the last one is the page shown.
    let last = url;
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) last = request.url();
    });
    const tooMany = await capRedirects(context, page, options.maxRedirects);
    /** What the proxy said about the page's last navigation: refused by the policy, or (`failures`) not connected. */
    const refusal = (failures: boolean): Error | null => {
      if (tooMany.error !== null) return tooMany.error;
      const target = new URL(last);
      const port = target.port === '' ? (target.protocol === 'https:' ? '443' : '80') : target.port;
      const found = [...proxy.refusals].reverse().find((r) => r.target === `${target.hostname}:${port}` && (r.refused || failures));
      if (found === undefined) return null;
      const where = `${last === url ? '' : 'redirect '}${found.message}`;
      return found.refused ? new RefusedAddressError(`${where} (${last.slice(0, 200)})`) : new Error(`${where} (${last.slice(0, 200)})`);
    };
    const response = await page.goto(url, { waitUntil: 'load', timeout: options.timeoutMs }).catch((err: unknown) => {
      throw refusal(true) ?? err;
    });
    const refused = refusal(false);
    if (refused !== null) throw refused;
    if (response && response.status() >= 400) throw new Error(`the page answered HTTP ${response.status()}`);
    const deadline = Date.now() + options.settleMs;
    // Late requests (fonts, images, scripts that render the page) first, then a quiet DOM.
    await page.waitForLoadState('networkidle', { timeout: options.settleMs }).catch(() => {});
    const left = Math.max(0, deadline - Date.now());
    await page.evaluate(`(${SETTLE})(${JSON.stringify({ quietMs: options.quietMs, maxMs: Math.max(left, options.quietMs) })})`);
    return await page.screenshot({ type: 'png', animations: 'disabled', caret: 'hide', timeout: options.timeoutMs });
  } finally {
    await context.close().catch(() => {});
    await proxy.close();
  }
}

/**
 * Holds every document request of `page` (its own, its frames', each redirect hop) until
 * it is counted, through Chromium's Fetch domain on a session of our own: the hop past
 * `max` redirects is failed before it is sent. The `request` event cannot do this: it
 * reaches Node while Chromium goes on following the redirects, so how many hops pass
 * before it is seen depends on the machine's load. `error` is set when the page itself
 * (not a frame it loads) went past the limit.
 */
async function capRedirects(context: BrowserContext, page: Page, max: number): Promise<{ error: Error | null }> {
  const state: { error: Error | null } = { error: null };
  const session = await context.newCDPSession(page);
  const { frameTree } = await session.send('Page.getFrameTree');
  const hops = new Map<string, number>();
  session.on('Fetch.requestPaused', (event) => {
    const count = event.redirectedRequestId === undefined ? 0 : (hops.get(event.redirectedRequestId) ?? 0) + 1;
    hops.set(event.requestId, count);
    if (count <= max) {
      session.send('Fetch.continueRequest', { requestId: event.requestId }).catch(() => {});
      return;
    }
    if (event.frameId === frameTree.frame.id && state.error === null) state.error = new RefusedAddressError(`refused: more than ${max} redirects`);
    session.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' }).catch(() => {});
  });
  await session.send('Fetch.enable', { patterns: [{ urlPattern: '*', resourceType: 'Document', requestStage: 'Request' }] });
  return state;
}

/**
 * Runs in the page: resolves once fonts are loaded and the DOM has not changed for `quietMs`
 * (or after `maxMs`), then two frames so the last change is painted. Kept as text: a
 * function would be sent as its compiled source, which a TypeScript loader may decorate
 * with helpers the page does not have.
 */
const SETTLE = `({ quietMs, maxMs }) => new Promise((resolve) => {
  const started = performance.now();
  let last = performance.now();
  const observer = new MutationObserver(() => { last = performance.now(); });
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const check = () => {
    const now = performance.now();
    if (now - last >= quietMs || now - started >= maxMs) {
      observer.disconnect();
      requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
    } else setTimeout(check, 50);
  };
  (document.fonts ? document.fonts.ready : Promise.resolve()).then(() => setTimeout(check, quietMs));
})`;

export interface EncodedScreenshot {
  /** `<slug>-<first 12 hex digits of the WebP's SHA-256>.webp` */
  file: string;
  webp: Buffer;
  variant: Buffer;
  width: number;
  height: number;
}

/** The capture as WebP, named by its fingerprint, and its 640-wide variant. */
export async function encodeScreenshot(slug: string, png: Buffer): Promise<EncodedScreenshot> {
  const webp = await sharp(png).webp({ quality: 80, effort: 5 }).toBuffer();
  const variant = await sharp(png).resize({ width: SCREENSHOT_VARIANT_WIDTH }).webp({ quality: 80, effort: 5 }).toBuffer();
  const { width, height } = await sharp(webp).metadata();
  const fingerprint = createHash('sha256').update(webp).digest('hex').slice(0, 12);
  return { file: `${slug}-${fingerprint}.webp`, webp, variant, width: width!, height: height! };
}
