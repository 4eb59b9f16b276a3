/**
 * A real headless Chromium for the browser tests, with nothing to install by hand: the binary ships inside the
 * npm package @sparticuz/chromium (unpacked to the temp directory on first use) and playwright-core drives it.
 */
import chromiumBinary from '@sparticuz/chromium';
import { chromium, type Browser } from 'playwright-core';

/**
 * The package's flags made for serverless hosts, less the two that would turn the browser's security off: a test
 * of what a page of another origin can read (CORS) or load (mixed content) needs the checks a user's browser makes.
 */
const UNSAFE_FLAGS = new Set(['--disable-web-security', '--allow-running-insecure-content']);

/** No calls home (updates, sync, field trials): the tests run offline, on loopback only. */
const OFFLINE_FLAGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

export async function launchChromium(): Promise<Browser> {
  const executablePath = await chromiumBinary.executablePath();
  const args = [...chromiumBinary.args.filter((flag) => !UNSAFE_FLAGS.has(flag)), ...OFFLINE_FLAGS];
  return chromium.launch({ executablePath, args, headless: true });
}
