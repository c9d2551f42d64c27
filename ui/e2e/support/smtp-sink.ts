// A real SMTP server on loopback for the email tests (tests/support/smtp_sink.py, aiosmtpd,
// Debian's python3-aiosmtpd, which scripts/test.sh installs): it keeps each message it takes as a
// .eml file in a temporary mailbox. `smtpSink()` registers the file's hooks that start it before
// its first test and stop it (the mailbox deleted) after the last.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from '@playwright/test';
import { freePort } from './quire';

const SINK = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../tests/support/smtp_sink.py');

/** The running sink: its port on 127.0.0.1 and the folder of its messages. */
export interface SmtpSink {
  port: number;
  mailbox: string;
}

/** Registers the hooks; the function returned gives the sink to the file's tests once it runs. */
export function smtpSink(): () => SmtpSink {
  let sink: ChildProcess | undefined;
  let running: SmtpSink | undefined;
  test.beforeAll(async () => {
    const mailbox = mkdtempSync(path.join(tmpdir(), 'quire-mailbox-'));
    const port = await freePort();
    sink = spawn('/usr/bin/python3', [SINK, mailbox, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the SMTP sink did not start in 10 s')), 10_000);
      sink!.stdout!.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('ready')) {
          clearTimeout(timer);
          resolve();
        }
      });
      sink!.on('exit', (code) => reject(new Error(`the SMTP sink exited (${code})`)));
    });
    running = { port, mailbox };
  });
  test.afterAll(() => {
    sink?.kill();
    if (running) rmSync(running.mailbox, { recursive: true, force: true });
  });
  return () => {
    if (!running) throw new Error('the SMTP sink did not start');
    return running;
  };
}

/** `quire serve`'s flags to send through `sink`, with `extra` after them. */
export const mailFlags = (sink: SmtpSink, ...extra: string[]) => [
  '--smtp-url',
  `smtp://127.0.0.1:${sink.port}`,
  '--mail-from',
  'Quire <noreply@localhost>',
  ...extra,
];
