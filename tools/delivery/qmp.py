#!/usr/bin/env python3
"""Sends one command to a running QEMU over its QMP socket (standard library only).

usage: qmp.py SOCKET screendump FILE.png   the display as PNG (PPM when this QEMU has no PNG)
       qmp.py SOCKET powerdown             the guest's power button (a clean shutdown)
       qmp.py SOCKET quit                  stop QEMU at once"""
import json
import socket
import sys


def command(sock, f, name, args=None):
    msg = {"execute": name}
    if args:
        msg["arguments"] = args
    sock.sendall((json.dumps(msg) + "\r\n").encode())
    while True:   # events may come first; the reply has "return" or "error"
        line = f.readline()
        if not line:
            raise ConnectionError("QMP closed the connection")
        reply = json.loads(line)
        if "return" in reply or "error" in reply:
            return reply


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(60)
    sock.connect(sys.argv[1])
    f = sock.makefile("r")
    json.loads(f.readline())   # the greeting
    command(sock, f, "qmp_capabilities")
    what = sys.argv[2]
    if what == "screendump":
        path = sys.argv[3]
        reply = command(sock, f, "screendump", {"filename": path, "format": "png"})
        if "error" in reply:   # QEMU before 7.1 writes PPM only
            reply = command(sock, f, "screendump", {"filename": path})
    elif what == "powerdown":
        reply = command(sock, f, "system_powerdown")
    elif what == "quit":
        reply = command(sock, f, "quit")
    else:
        print("qmp.py: unknown command %s" % what, file=sys.stderr)
        return 2
    if "error" in reply:
        print("qmp.py: %s: %s" % (what, reply["error"].get("desc", reply["error"])), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
