// Starting and stopping a real quire binary for the end-to-end tests:
//   $QUIRE_BIN serve --listen 127.0.0.1:$PORT --host localhost:$PORT --data-dir <fresh temp dir> [extra flags]
// QUIRE_BIN defaults to <repo>/target/debug/quire. QUIRE_E2E_KEEP_DATA=1 keeps the data dirs.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const uiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const repoDir = path.resolve(uiDir, '..');
const START_TIMEOUT_MS = 60_000;

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('could not pick a free port'));
      });
    });
  });
}

/** The binary under test: $QUIRE_BIN or the debug build of this repo. */
export function quireBin(): string {
  const bin = path.resolve(process.env.QUIRE_BIN ?? path.join(repoDir, 'target', 'debug', 'quire'));
  if (!existsSync(bin)) {
    throw new Error(`quire binary not found at ${bin}: run \`cargo build\` in ${repoDir} or set QUIRE_BIN`);
  }
  return bin;
}

async function waitUntilUp(url: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let lastProblem = 'no answer yet';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `quire exited (${child.exitCode ?? child.signalCode}) before answering ${url}. Its output:\n${readFileSync(logFile, 'utf8')}`,
      );
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
      lastProblem = `status ${response.status}`;
    } catch (error) {
      lastProblem = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(
    `quire did not answer ${url} within ${START_TIMEOUT_MS / 1000} s (${lastProblem}). Its output:\n${readFileSync(logFile, 'utf8')}`,
  );
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** A running quire. */
export interface QuireServer {
  /** `http://localhost:PORT`: the app's origin. */
  baseUrl: string;
  port: number;
  /** Where its output goes. */
  logFile: string;
  /** Stops the process and deletes its data dir (unless it was given, or QUIRE_E2E_KEEP_DATA is set). */
  stop: () => Promise<void>;
}

/**
 * Starts quire on `port` (a free one by default) and waits until it answers. Without `dataDir` it
 * gets a fresh one that `stop` deletes; a given `dataDir` (created when missing) stays, so a test
 * can start quire on it again, e.g. with another sign-in provider.
 */
export async function startQuire(
  options: { port?: number; args?: string[]; dataDir?: string } = {},
): Promise<QuireServer> {
  const bin = quireBin();
  const port = options.port ?? (await freePort());
  const host = `localhost:${port}`;
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'quire-e2e-'));
  const logFile = path.join(dataDir, `server-${port}.log`);
  const log = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(
    bin,
    [
      'serve',
      '--listen',
      `127.0.0.1:${port}`,
      '--host',
      host,
      '--data-dir',
      path.join(dataDir, 'data'),
      ...(options.args ?? []),
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        // The tests create many blogs from 127.0.0.1: no daily caps unless a test gives its own flags.
        QUIRE_MAX_NEW_BLOGS_PER_ADDRESS: '1000000',
        QUIRE_MAX_NEW_BLOGS_PER_DAY: '1000000',
        ...process.env,
        RUST_LOG: process.env.RUST_LOG ?? 'info',
      },
    },
  );
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);

  const baseUrl = `http://${host}`;
  const cleanUp = () => {
    log.end();
    if (!ownsDataDir) return;
    if (process.env.QUIRE_E2E_KEEP_DATA) console.log(`e2e: kept ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntilUp(`${baseUrl}/catalog`, child, logFile);
  } catch (error) {
    await stopChild(child);
    cleanUp();
    throw error;
  }
  return {
    baseUrl,
    port,
    logFile,
    stop: async () => {
      await stopChild(child);
      cleanUp();
    },
  };
}
