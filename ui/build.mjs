#!/usr/bin/env node
// Bundles the owner app (src/main.tsx) into dist/ for the quire binary to embed.
//
//   node ui/build.mjs           build dist/index.html + dist/assets/app-<hash>.{js,css}
//                               + the tab icon (public/icon.svg) as dist/assets/icon-<hash>.svg
//                               and dist/icon.svg (what the server answers /favicon.ico with)
//   node ui/build.mjs --check   typecheck with `tsc --noEmit` first, then build
//
// Paths resolve relative to this file, so it runs from any working directory.
// dist/index.html carries the <!--QUIRE_CONFIG--> marker in <head>; the server
// replaces it with the JSON config script that src/config/app-config.ts reads.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

// Output paths are relative to absWorkingDir (ui/), e.g. "dist/assets/app-ABC123.js".
const publicUrl = (outPath) => '/' + toPosix(path.relative(distDir, path.join(uiDir, outPath)));
const jsUrl = publicUrl(jsPath);
const cssUrl = publicUrl(cssPath);

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
<script type="module" src="${jsUrl}"></script>
</head>
<body>
<div id="root"></div>
<noscript>Quire needs JavaScript to run.</noscript>
</body>
</html>
`;
writeFileSync(path.join(distDir, 'index.html'), html);

const kb = (outPath) => `${(statSync(path.join(uiDir, outPath)).size / 1024).toFixed(1)} kB`;
console.log(`ui: built dist/index.html, dist${jsUrl} (${kb(jsPath)}), dist${cssUrl} (${kb(cssPath)})`);
