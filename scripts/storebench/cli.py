# storebench/cli.py — what every command in scripts/ does alike: usage errors and bad input.
# Python 3 standard library.  One convention project-wide: one stderr line naming the problem,
# exit status 2, nothing written.
"""Command-line plumbing: fail() and an argparse parser whose usage errors follow the convention."""

import argparse
import sys

from storebench.units import parse_bytes


def fail(prog, err):
    """Print one line on stderr and exit with status 2 (bad input), the project-wide convention."""
    sys.stderr.write("%s: %s\n" % (prog, str(err).splitlines()[0] if str(err) else "error"))
    sys.exit(2)


class ArgParser(argparse.ArgumentParser):
    """Usage errors are bad input too: one line on stderr, exit status 2."""

    def error(self, message):
        fail(self.prog, message + " (see --help)")


def parser(prog, doc):
    """The parser of a command whose module docstring is its help: first line the description,
    the rest (after one blank line) the epilog, layout kept."""
    head, _, rest = doc.strip().partition("\n\n")
    return ArgParser(prog=prog, description=head, epilog=rest,
                     formatter_class=argparse.RawDescriptionHelpFormatter)


def size(text):
    """argparse type of a byte size ('48KiB'): the error names what is accepted."""
    try:
        return parse_bytes(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e))
