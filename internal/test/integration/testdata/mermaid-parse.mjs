import { JSDOM } from 'jsdom';
import fs from 'fs';
const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window; globalThis.document = dom.window.document;
Object.defineProperty(globalThis, 'navigator', {value: dom.window.navigator, configurable: true});
globalThis.DOMPurify = undefined;
const { default: mermaid } = await import('mermaid');
mermaid.initialize({ startOnLoad: false });
let bad = 0;
for (const f of process.argv.slice(2)) {
  const text = fs.readFileSync(f, 'utf8');
  try { await mermaid.parse(text); console.log('ok', f); }
  catch (e) { bad++; console.log('FAIL', f, String(e.message || e).slice(0, 500)); }
}
process.exit(bad ? 1 : 0);
