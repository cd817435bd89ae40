// Screenshot of Neo4j Browser showing one of the saved queries in cypher/explore, styled with
// cypher/explore/engram.grass (used for docs/browser.png).
//
// Needs a running Neo4j with auth disabled (`make run` or `engram neo4j start`) holding some
// data, Chromium (Debian: apt-get install -y chromium) and playwright-core, which this repo
// does not ship: install it in a scratch directory outside the repo and run from there.
// playwright-core never downloads a browser; this script drives the system Chromium.
//
//   mkdir -p /tmp/shot && cd /tmp/shot && npm install playwright-core
//   cd /tmp/shot && node /path/to/engram/scripts/browser_screenshot.mjs
//
// docs/browser.png is these defaults (BROWSER_URL and BOLT_URL pointed at a scratch server)
// after `engram ingest` of a file holding only the first conversation of the LoCoMo dev set.
//
// Settings (environment variables, defaults in brackets):
//   BROWSER_URL  Neo4j Browser            [http://127.0.0.1:7474/browser/]
//   BOLT_URL     Bolt URL Browser uses    [bolt://127.0.0.1:7687]
//   QUERY        saved query to run       [cypher/explore/entity_timeline.cypher]
//   PARAMS       JSON of its parameters   [{"tenant":"default","name":"LGBTQ"}]
//   OUT          PNG to write             [docs/browser.png]
//   CHROMIUM     browser executable       [/usr/bin/chromium]
//   WIDTH, HEIGHT viewport                [1280, 800]
//   SETTLE_MS    time for the layout      [6000]
// Relative paths are taken from the repository root.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fromRepo = (p) => (path.isAbsolute(p) ? p : path.join(repo, p));
const env = (name, fallback) => process.env[name] || fallback;

const browserUrl = env('BROWSER_URL', 'http://127.0.0.1:7474/browser/');
const boltUrl = env('BOLT_URL', 'bolt://127.0.0.1:7687');
const queryFile = fromRepo(env('QUERY', 'cypher/explore/entity_timeline.cypher'));
const params = JSON.parse(env('PARAMS', '{"tenant":"default","name":"LGBTQ"}'));
const out = fromRepo(env('OUT', 'docs/browser.png'));
const grassFile = path.join(repo, 'cypher/explore/engram.grass');
const width = Number(env('WIDTH', '1280'));
const height = Number(env('HEIGHT', '800'));
const settleMs = Number(env('SETTLE_MS', '6000'));

// playwright-core is resolved from the current directory (the scratch install), not the repo.
const { chromium } = createRequire(path.join(process.cwd(), 'noop.js'))('playwright-core');

// A Browser :param value from JSON: strings quoted for Cypher, numbers, booleans and null as
// they are, and {"cypher": "..."} as a Cypher expression, e.g. {"cypher": "datetime('2023-06-01')"}.
function cypherLiteral(value) {
  if (value === null) return 'null';
  if (typeof value === 'object' && typeof value.cypher === 'string') return value.cypher;
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new Error(`PARAMS: unsupported value ${JSON.stringify(value)}`);
}

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-shot-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: env('CHROMIUM', '/usr/bin/chromium'),
  headless: true,
  viewport: { width, height },
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

const page = context.pages()[0] || (await context.newPage());
try {
  await page.goto(`${browserUrl}?connectURL=${encodeURIComponent(boltUrl)}`, { waitUntil: 'load' });

  // Auth is off on the local server: pick "No authentication" in the connect form.
  const connected = page.getByText('You are connected', { exact: false }).first();
  const authSelect = page.getByTestId('authenticationMethod');
  const shown = (locator) => locator.waitFor({ timeout: 30000 }).then(() => true, () => false);
  await Promise.race([shown(connected), shown(authSelect)]);
  if (await authSelect.isVisible()) {
    await authSelect.selectOption('NO_AUTH');
    await page.getByTestId('connect').click();
  }
  await connected.waitFor({ timeout: 30000 });

  // Run one command from the main editor (replacing what is in it).
  const editor = page.getByTestId('activeEditor');
  async function run(command) {
    await editor.locator('.monaco-editor').first().click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    // Paste rather than type: typed text gets auto-closed brackets and indentation.
    await page.evaluate((text) => {
      const clipboardData = new DataTransfer();
      clipboardData.setData('text/plain', text);
      document.activeElement.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }));
    }, command);
    await page.keyboard.press('Control+Enter');
    await page.waitForTimeout(800);
  }

  // Load the style the way a person would: drop engram.grass onto the Browser window.
  const grass = fs.readFileSync(grassFile, 'utf8');
  const dataTransfer = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'engram.grass', { type: 'text/plain' }));
    return dt;
  }, grass);
  await page.getByTestId('main').dispatchEvent('drop', { dataTransfer });
  await page.waitForTimeout(800);

  for (const [name, value] of Object.entries(params)) await run(`:param ${name} => ${cypherLiteral(value)}`);
  await run(':clear');

  await run(fs.readFileSync(queryFile, 'utf8').trim());
  const frame = page.getByTestId('frame').first();
  await frame.locator('svg .node').first().waitFor({ timeout: 30000 });
  await frame.getByTitle('Fullscreen').click(); // the result frame fills the window
  await frame.getByTitle('Collapse the node properties display').click(); // graph gets the width
  await page.waitForTimeout(settleMs); // let the force layout settle
  await frame.getByLabel('zoom-to-fit').click();
  await page.waitForTimeout(1500);

  fs.mkdirSync(path.dirname(out), { recursive: true });
  await page.screenshot({ path: out });
  console.log(`wrote ${out} (${fs.statSync(out).size} bytes)`);
} catch (err) {
  const shot = path.join(os.tmpdir(), 'engram-shot-failure.png');
  await page.screenshot({ path: shot }).catch(() => {});
  console.error(`failed; the page as it was: ${shot}`);
  throw err;
} finally {
  await context.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
