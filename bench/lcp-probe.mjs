#!/usr/bin/env node
// Which element is the largest contentful paint, and when: loads pages in Debian's
// Chromium at a phone's size with a 4× slower CPU and a slow network (like Lighthouse's mobile
// preset), and prints every LCP candidate the browser reported (time, element, size).
// Usage: node bench/lcp-probe.mjs <origin> <path> [path ...]
import { chromium } from 'playwright-core';

const [origin, ...paths] = process.argv.slice(2);
if (!origin || paths.length === 0) {
  console.error('usage: node bench/lcp-probe.mjs <origin> <path> [path ...]');
  process.exit(2);
}
const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  for (const path of paths) {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
    await page.addInitScript(() => {
      const w = window;
      w.__lcp = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          const el = e.element;
          w.__lcp.push({ t: Math.round(e.startTime), size: e.size, el: el ? `<${el.tagName.toLowerCase()} class="${el.className}">` : '(removed)', text: el?.textContent?.slice(0, 40) ?? '', url: e.url });
        }
      }).observe({ type: 'largest-contentful-paint', buffered: true });
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') w.__fcp = Math.round(e.startTime);
      }).observe({ type: 'paint', buffered: true });
    });
    await page.goto(origin + path, { waitUntil: 'networkidle', timeout: 120_000 });
    await page.waitForTimeout(1500);
    const out = await page.evaluate(() => ({ fcp: window.__fcp, lcp: window.__lcp }));
    console.log(`${path}  FCP ${out.fcp} ms`);
    for (const c of out.lcp) console.log(`  ${String(c.t).padStart(6)} ms  size ${String(c.size).padStart(7)}  ${c.el} ${c.url ? c.url : JSON.stringify(c.text)}`);
    await context.close();
  }
} finally {
  await browser.close();
}
