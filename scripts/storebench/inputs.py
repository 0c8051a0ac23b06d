# storebench/inputs.py — what the scripts read: regular files only, and only so much of them.
# Python 3 standard library.  /dev/zero grew a reader until MemoryError and a FIFO blocked it
# forever; a result is always a plain file of bounded size.
"""read_regular(path, limit) -> bytes, or InputError saying why not (one phrase)."""

import os
import stat

CSV_LIMIT = 256 << 20    # a full sweep's CSV is a few MB
JSON_LIMIT = 2 << 30     # Google Benchmark's JSON of a long sweep, every repetition in it
CPUID_LIMIT = 1 << 20    # a CPUID dump of one CPU is a few KiB (storebench's --cpuid: the same)


class InputError(Exception):
    """Not a readable regular file of at most the limit: the message says which."""


def read_regular(path, limit):
    """The bytes of path.  Opened without blocking (a FIFO with no writer answers at once), then
    refused unless it is a regular file of at most limit bytes."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise InputError("no such file")
    except IsADirectoryError:
        raise InputError("is a directory")
    except OSError as e:
        raise InputError("cannot read: %s" % (e.strerror or e))
    st = os.fstat(fd)
    why = "is a directory" if stat.S_ISDIR(st.st_mode) else \
        "not a regular file (a device, FIFO or socket)" if not stat.S_ISREG(st.st_mode) else \
        "%d bytes, more than the %d MiB such a file may have" % (st.st_size, limit >> 20) \
        if st.st_size > limit else ""
    if why:
        os.close(fd)
        raise InputError(why)
    with os.fdopen(fd, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise InputError("grew past the %d MiB such a file may have while read" % (limit >> 20))
    return data
