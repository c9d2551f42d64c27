#!/usr/bin/env node
// Bundles the owner app (src/main.tsx) into dist/ for the quire binary to embed.
//
//   node ui/build.mjs           build dist/index.html + dist/assets/app-<hash>.{js,css}
//                               + the tab icon (public/icon.svg) as dist/assets/icon-<hash>.svg
//                               and dist/icon.svg (what the server answers /favicon.ico with)
//   node ui/build.mjs --check   typecheck with `tsc --noEmit` first, then build
//
// With `splitting`, screens the app imports with `import()` (the catalog, settings, replies, the editor) are
// chunks of their own, dist/assets/chunk-<hash>.js, fetched when first shown. Every text file of dist/assets/
// of 1 KiB or more is then stored only precompressed, as NAME.br (brotli, quality 11) and NAME.gz (gzip -9):
// the server sends whichever the client accepts and unpacks the .gz for the rare client that takes neither,
// so the binary carries no uncompressed copy.
//
// Paths resolve relative to this file, so it runs from any working directory.
// dist/index.html carries the <!--QUIRE_CONFIG--> marker in <head>; the server
// replaces it with the JSON config script that src/config/app-config.ts reads.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';

const uiDir = path.dirname(fileURLToPath(import.meta.url));
const distDir = path.join(uiDir, 'dist');
const entry = path.join(uiDir, 'src', 'main.tsx');
const iconSource = path.join(uiDir, 'public', 'icon.svg');
const CONFIG_MARKER = '<!--QUIRE_CONFIG-->';

function fail(message) {
  console.error(`ui build failed: ${message}`);
  process.exit(1);
}

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--check');
if (unknown.length > 0) fail(`unknown argument(s) ${unknown.join(' ')} (usage: node build.mjs [--check])`);
const check = args.includes('--check');

if (!existsSync(path.join(uiDir, 'node_modules'))) {
  fail(`${path.join(uiDir, 'node_modules')} is missing; run \`npm ci\` in ${uiDir} first`);
}
const require = createRequire(path.join(uiDir, 'package.json'));

if (check) {
  const tsc = require.resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '--noEmit', '-p', path.join(uiDir, 'tsconfig.json')], {
    cwd: uiDir,
    stdio: 'inherit',
  });
  if (result.error) fail(`could not run tsc: ${result.error.message}`);
  if (result.status !== 0) fail('typecheck (tsc --noEmit) reported errors, see above');
  console.log('ui: typecheck passed');
}

const esbuild = require('esbuild');

// react-router's package exports only its development build (identical but for dev-only warnings);
// use the production build that ships beside it when it is there.
const routerProduction = path.join(uiDir, 'node_modules', 'react-router', 'dist', 'production', 'index.mjs');
const plugins = existsSync(routerProduction)
  ? [
      {
        name: 'react-router-production',
        setup(build) {
          build.onResolve({ filter: /^react-router$/ }, () => ({ path: routerProduction }));
        },
      },
    ]
  : [];

rmSync(distDir, { recursive: true, force: true });
mkdirSync(path.join(distDir, 'assets'), { recursive: true });

let result;
try {
  result = await esbuild.build({
    absWorkingDir: uiDir,
    entryPoints: [entry],
    outdir: distDir,
    entryNames: 'assets/app-[hash]',
    chunkNames: 'assets/chunk-[hash]',
    splitting: true,
    assetNames: 'assets/[name]-[hash]',
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    jsx: 'automatic',
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    charset: 'utf8',
    define: { 'process.env.NODE_ENV': '"production"' },
    metafile: true,
    plugins,
    logLevel: 'silent',
  });
} catch (error) {
  // esbuild's BuildFailure carries structured errors; print them the way esbuild would.
  if (Array.isArray(error?.errors) && error.errors.length > 0) {
    const formatted = await esbuild.formatMessages(error.errors, { kind: 'error', color: process.stderr.isTTY });
    console.error(formatted.join(''));
    fail(`esbuild reported ${error.errors.length} error(s), see above`);
  }
  fail(error instanceof Error ? error.message : String(error));
}

if (result.warnings.length > 0) {
  const formatted = await esbuild.formatMessages(result.warnings, { kind: 'warning', color: process.stderr.isTTY });
  console.warn(formatted.join(''));
}

const toPosix = (p) => p.split(path.sep).join('/');
const entryRel = toPosix(path.relative(uiDir, entry));
const outputs = Object.entries(result.metafile.outputs);
const js = outputs.find(([, out]) => out.entryPoint === entryRel);
if (!js) fail(`esbuild produced no output for ${entryRel}`);
const [jsPath, jsMeta] = js;
const cssPath = jsMeta.cssBundle;
if (!cssPath) fail('esbuild produced no CSS bundle (src/main.tsx must import the styles)');

// esbuild also writes a stylesheet for each chunk, which nothing would load: the app's stylesheet holds the
// styles of every screen, lazy ones included. Check that it does, then drop them.
const cssInputs = new Set(Object.keys(result.metafile.outputs[cssPath].inputs));
for (const [out, meta] of outputs) {
  if (out === cssPath || !out.endsWith('.css')) continue;
  const missing = Object.keys(meta.inputs).filter((input) => !cssInputs.has(input));
  if (missing.length > 0) fail(`${out} has styles the app's stylesheet lacks: ${missing.join(', ')}`);
  rmSync(path.join(uiDir, out));
}

// Output paths are relative to absWorkingDir (ui/), e.g. "dist/assets/app-ABC123.js".
const publicUrl = (outPath) => '/' + toPosix(path.relative(distDir, path.join(uiDir, outPath)));
const jsUrl = publicUrl(jsPath);
const cssUrl = publicUrl(cssPath);
// The chunks the entry script imports statically (directly or through another chunk), preloaded beside it so
// that the browser does not wait for the entry script before asking for them.
const preloaded = [];
const walk = (outPath) => {
  for (const { path: chunk, kind } of result.metafile.outputs[outPath].imports) {
    if (kind !== 'import-statement' || preloaded.includes(chunk)) continue;
    preloaded.push(chunk);
    walk(chunk);
  }
};
walk(jsPath);
const preloads = preloaded.map((chunk) => `<link rel="modulepreload" href="${publicUrl(chunk)}">\n`).join('');

// The tab icon (the logo's page mark): content-hashed under assets/ for the <link>, and unhashed at
// the root of dist/ for the server's /favicon.ico, which browsers request on their own.
if (!existsSync(iconSource)) fail(`${iconSource} is missing`);
const iconHash = createHash('sha256').update(readFileSync(iconSource)).digest('hex').slice(0, 8).toUpperCase();
const iconUrl = `/assets/icon-${iconHash}.svg`;
copyFileSync(iconSource, path.join(distDir, iconUrl));
copyFileSync(iconSource, path.join(distDir, 'icon.svg'));

const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="description" content="Quire is a free blogging platform">
<title>Quire</title>
<link rel="icon" href="${iconUrl}" type="image/svg+xml">
${CONFIG_MARKER}
<link rel="stylesheet" href="${cssUrl}">
${preloads}<script type="module" src="${jsUrl}"></script>
</head>
<body>
<div id="root"></div>
<noscript>Quire needs JavaScript to run.</noscript>
</body>
</html>
`;
writeFileSync(path.join(distDir, 'index.html'), html);

// Precompresses the text files of dist/assets (see the top of this file); returns [name, raw, gzip, brotli] sizes.
function precompress() {
  const sizes = [];
  const assets = path.join(distDir, 'assets');
  for (const name of readdirSync(assets).sort()) {
    if (!/\.(js|css|svg|json)$/.test(name)) continue;
    const file = path.join(assets, name);
    const raw = readFileSync(file);
    if (raw.length < 1024) continue;
    const br = brotliCompressSync(raw, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
      },
    });
    const gz = gzipSync(raw, { level: 9 });
    writeFileSync(`${file}.br`, br);
    writeFileSync(`${file}.gz`, gz);
    rmSync(file);
    sizes.push([name, raw.length, gz.length, br.length]);
  }
  return sizes;
}

const kb = (outPath) => `${(statSync(path.join(uiDir, outPath)).size / 1024).toFixed(1)} kB`;
const entrySizes = `dist${jsUrl} (${kb(jsPath)}), dist${cssUrl} (${kb(cssPath)})`;
const chunks = outputs.filter(([out]) => /\/chunk-[^/]+\.js$/.test(out)).length;
const packed = precompress();
const total = (i) => `${(packed.reduce((sum, sizes) => sum + sizes[i], 0) / 1024).toFixed(1)} kB`;
console.log(
  `ui: built dist/index.html, ${entrySizes} and ${chunks} chunks; ${packed.length} files stored as .br/.gz ` +
    `(${total(1)} raw, ${total(2)} gzip, ${total(3)} brotli)`,
);
