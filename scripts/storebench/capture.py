# storebench/capture.py — run a command with its stderr shown as usual and copied to a file.
# Python 3 standard library.  scripts/run needs the lines storebench prints about the files it
# wrote, but a pipe (tee) would make storebench see no terminal and print a line per point instead
# of its one progress line rewritten in place; on a terminal the copy goes through a pseudo-terminal.
"""usage: python3 capture.py LOG COMMAND [ARG...]   exit status: the command's (128+N on signal N)."""

import os
import pty
import signal
import subprocess
import sys


def _copy(fd, log):
    """Copy fd to our stderr and log until it closes."""
    while True:
        try:
            data = os.read(fd, 65536)
        except OSError:  # the pty's other side closed (EIO)
            return
        if not data:
            return
        os.write(2, data)
        log.write(data)


def _default_signals():
    """In the child: ignored signals stay ignored across exec; the command gets them back."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def main(argv):
    log_path, cmd = argv[0], argv[1:]
    # Ctrl-C belongs to the command (storebench finishes the point and closes its files); this
    # copier keeps reading so its closing lines still arrive.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    with open(log_path, "wb") as log:
        if os.isatty(2):
            master, slave = pty.openpty()
            proc = subprocess.Popen(cmd, stderr=slave, preexec_fn=_default_signals)
            os.close(slave)
            _copy(master, log)
            os.close(master)
        else:
            proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, preexec_fn=_default_signals)
            _copy(proc.stderr.fileno(), log)
        rc = proc.wait()
    return 128 - rc if rc < 0 else rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
