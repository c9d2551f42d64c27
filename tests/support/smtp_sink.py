#!/usr/bin/python3
"""A real SMTP server for Quire's mail tests (tests/api/mail.rs), on aiosmtpd.

Usage: smtp_sink.py DIR PORT [LATER_FAILS [DELAY_MS]]

Listens on 127.0.0.1:PORT and writes each accepted message to DIR/NNNNN.eml, preceded by one
`X-Sink-To: ADDRESS` line per envelope recipient. Answers 550 to recipients whose local part
starts with `bounce`, and 421 the first LATER_FAILS times (default 1) each recipient whose local
part starts with `later` is tried. With DELAY_MS, each message is written, then answered DELAY_MS
later (so a sender killed meanwhile has delivered it without knowing). Prints `ready` once it listens; runs until killed.
"""

import asyncio
import os
import sys
import time

from aiosmtpd.controller import Controller


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


def main():
    directory, port = sys.argv[1], int(sys.argv[2])
    later_fails = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    delay = int(sys.argv[4]) / 1000 if len(sys.argv) > 4 else 0
    controller = Controller(Sink(directory, later_fails, delay), hostname="127.0.0.1", port=port)
    controller.start()
    print("ready", flush=True)
    try:
        while True:
            time.sleep(3600)
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
