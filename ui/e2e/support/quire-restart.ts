// A quire that can be stopped and started again on the same data dir, e.g. with another sign-in
// provider, the way an admin moves a deployment from one provider to another. startQuire
// (quire.ts) always starts on a fresh data dir and deletes it when it stops; this one leaves the
// data dir to its caller.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, quireBin } from './quire';

const START_TIMEOUT_MS = 60_000;

/** A running quire on a data dir the test owns. */
export interface RestartableQuire {
  /** `http://localhost:PORT`: the app's origin. */
  baseUrl: string;
  port: number;
  /** Stops the process (SIGTERM, then SIGKILL after 5 s); the data dir stays. */
  stop: () => Promise<void>;
}

/**
 * Starts `quire serve` on `dataDir` (created when missing) with `args`, on `port` or a free one,
 * and waits until it answers. Its output is appended to `<dataDir>/server-<port>.log`.
 */
export async function startQuireOn(dataDir: string, options: { port?: number; args?: string[] } = {}): Promise<RestartableQuire> {
  const port = options.port ?? (await freePort());
  const logFile = path.join(dataDir, `server-${port}.log`);
  const child = spawn(
    quireBin(),
    ['serve', '--listen', `127.0.0.1:${port}`, '--host', `localhost:${port}`, '--data-dir', path.join(dataDir, 'data'), ...(options.args ?? [])],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? 'info' } },
  );
  const log = createWriteStream(logFile, { flags: 'a' });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const stop = async () => {
    await stopChild(child);
    log.end();
  };
  const baseUrl = `http://localhost:${port}`;
  try {
    await waitUntilUp(`${baseUrl}/catalog`, child, logFile);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, port, stop };
}

async function waitUntilUp(url: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let lastProblem = 'no answer yet';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`quire exited (${child.exitCode ?? child.signalCode}) before answering ${url}:\n${readFileSync(logFile, 'utf8')}`);
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
  throw new Error(`quire did not answer ${url} within ${START_TIMEOUT_MS / 1000} s (${lastProblem}):\n${readFileSync(logFile, 'utf8')}`);
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
