#!/usr/bin/python3
"""A real SMTP server for Quire's mail tests (tests/api/mail.rs), on aiosmtpd.

Usage: smtp_sink.py DIR PORT [LATER_FAILS [DELAY_MS]] [--tls CERT KEY | --starttls CERT KEY]
                     [--auth USER:PASSWORD]

Listens on 127.0.0.1:PORT and writes each accepted message to DIR/NNNNN.eml, preceded by one
`X-Sink-To: ADDRESS` line per envelope recipient. Answers 550 to recipients whose local part
starts with `bounce`, and 421 the first LATER_FAILS times (default 1) each recipient whose local
part starts with `later` is tried. With DELAY_MS, each message is written, then answered DELAY_MS
later (so a sender killed meanwhile has delivered it without knowing).

--tls: TLS from the first byte (smtps) with the PEM certificate chain CERT and its key KEY.
--starttls: plain, then STARTTLS with them, required before anything but EHLO, NOOP and QUIT.
--auth: offers AUTH (PLAIN, LOGIN) and accepts only USER:PASSWORD, mail without it refused (530);
AUTH is offered before TLS too when neither --tls nor --starttls is given. Each AUTH attempt is
one line in DIR/auth.log: `USER tls|plain ok|refused`.

Prints `ready` once it listens; runs until killed.
"""

import argparse
import asyncio
import os
import ssl
import time

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult


class Sink:
    def __init__(self, directory, later_fails, delay):
        self.directory = directory
        self.delay = delay
        self.later_fails = later_fails
        self.tries = {}
        self.count = 0

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        local = address.split("@", 1)[0].lower()
        if local.startswith("bounce"):
            return "550 5.1.1 <%s>: no such user here" % address
        if local.startswith("later"):
            tried = self.tries.get(address, 0)
            self.tries[address] = tried + 1
            if tried < self.later_fails:
                return "421 4.7.0 try again later"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        name = os.path.join(self.directory, "%05d.eml" % self.count)
        head = "".join("X-Sink-To: %s\r\n" % to for to in envelope.rcpt_tos).encode()
        with open(name + ".part", "wb") as out:
            out.write(head + envelope.original_content)
        os.rename(name + ".part", name)
        if self.delay:
            await asyncio.sleep(self.delay)
        return "250 2.0.0 Ok: queued as %05d" % self.count


class Login:
    """Accepts one user name and password; logs each attempt, and whether TLS protected it."""

    def __init__(self, directory, credentials):
        self.log = os.path.join(directory, "auth.log")
        self.user, self.password = credentials.split(":", 1)

    def __call__(self, server, session, envelope, mechanism, auth_data):
        user = auth_data.login.decode("utf-8", "replace")
        ok = user == self.user and auth_data.password.decode("utf-8", "replace") == self.password
        tls = server.transport.get_extra_info("ssl_object") is not None
        with open(self.log, "a") as log:
            log.write("%s %s %s\n" % (user, "tls" if tls else "plain", "ok" if ok else "refused"))
        # Not `handled`: aiosmtpd itself answers 235, or 535 for a refusal.
        return AuthResult(success=ok, handled=False)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("directory")
    parser.add_argument("port", type=int)
    parser.add_argument("later_fails", type=int, nargs="?", default=1)
    parser.add_argument("delay_ms", type=int, nargs="?", default=0)
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    parser.add_argument("--starttls", nargs=2, metavar=("CERT", "KEY"))
    parser.add_argument("--auth", metavar="USER:PASSWORD")
    args = parser.parse_args()
    options = {}
    pair = args.tls or args.starttls
    if pair:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(pair[0], pair[1])
        if args.tls:
            options["ssl_context"] = context
        else:
            options["tls_context"] = context
            options["require_starttls"] = True
    if args.auth:
        options["authenticator"] = Login(args.directory, args.auth)
        options["auth_required"] = True
        # Implicit TLS is TLS too, though aiosmtpd counts only STARTTLS's.
        options["auth_require_tls"] = bool(args.starttls)
    sink = Sink(args.directory, args.later_fails, args.delay_ms / 1000)
    controller = Controller(sink, hostname="127.0.0.1", port=args.port, **options)
    controller.start()
    print("ready", flush=True)
    try:
        while True:
            time.sleep(3600)
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
