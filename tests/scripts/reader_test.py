#!/usr/bin/env python3
# reader_test.py — scripts/storebench/reader.py, the one CSV reader of the scripts, on files
# written here: metadata anywhere in the file, repeated keys, the encoding policy, every error
# it raises, and the Run helpers (caches, CPU label, date, axes, unverified rows).
# Python 3 standard library.  Why: every script reads through it; a reader that guesses makes
# every table guess.
"""usage: reader_test.py REPO_ROOT"""

import os
import sys
import tempfile

ROOT = sys.argv[1]
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from storebench import reader  # noqa: E402
from testlib import Checker  # noqa: E402

check = Checker()
HEAD = "kernel,call_bytes,ws_bytes,threads,rw_ratio,gbps_median,verified"


def write(tmp, name, text, mode="w"):
    path = os.path.join(tmp, name)
    with open(path, mode) as f:
        f.write(text)
    return path


def fails(path, want, required=()):
    """Whether load(path) raises CsvError whose one line contains want."""
    try:
        reader.load(path, required)
    except reader.CsvError as e:
        ok = want in str(e) and "\n" not in str(e)
        check(ok, f"{os.path.basename(path)}: error {str(e)!r}, want it to say {want!r}")
        return
    check(False, f"{os.path.basename(path)}: read, want the error {want!r}")


def test_metadata(tmp):
    path = write(tmp, "meta.csv", "\n".join([
        "# cpu_codename=Turin (Zen 5)", "# cache_l1d_bytes=49152", "# cache_l2_bytes=1048576",
        "# cache_l3_bytes=33554432", "# utc_time=2026-12-03T06:43:57Z", "# canary_sample=0.0:30",
        "# a comment without a key", HEAD,
        "memset,4096,65536,1,100,100.5,ok",
        "# canary_sample=10.0:31",
        "memset,8192,65536,1,100,99,ok",
        "rep_stosb,4096,4096,1,100,80,failed",
        "memset,16384,16384,1,100,98,ok",
        "# canary_sample=12.5:29", "# canary_series=0.0:30,10.0:31,12.5:29", ""]))
    run = reader.load(path, ("kernel", "gbps_median"))
    check(run.columns == HEAD.split(",") and len(run.rows) == 4, f"columns {run.columns}")
    check(run.rows[1] == dict(zip(HEAD.split(","), "memset,8192,65536,1,100,99,ok".split(","))),
          f"a row as a dict of strings: {run.rows[1]}")
    check(run.values("canary_sample") == ["0.0:30", "10.0:31", "12.5:29"] and
          run.meta["canary_sample"] == "12.5:29",
          f"a repeated key: every value in file order, meta keeps the last: "
          f"{run.values('canary_sample')}")
    check(run.meta["canary_series"] == "0.0:30,10.0:31,12.5:29", "metadata after the rows")
    check("a comment without a key" not in " ".join(run.meta), "a comment is not a key")
    check(run.cache_bytes("l1d") == 49152 and run.llc_bytes() == 33554432 and
          run.cache_bytes("l4") is None, "cache sizes from the metadata")
    check(run.cpu_label() == "Turin (Zen 5)" and run.date() == "2026-12-03", "label and date")
    check(run.distinct("kernel") == ["memset", "rep_stosb"], "distinct values in file order")
    check(run.axes(["call_bytes", "threads"]) == ["call_bytes"],
          f"an axis varies on its own: {run.axes(['call_bytes', 'threads'])}")
    check(run.axes(["ws_bytes"]) == [],
          "a column that varies only with another (ws with call) is no axis")
    check(run.drop_unverified() == 1 and len(run.rows) == 3, "unverified rows dropped")
    try:
        run.require(["cycles_per_call_median"], "x")
        check(False, "require: a missing column raised nothing")
    except reader.CsvError as e:
        check("lacks column cycles_per_call_median (needed for x)" in str(e), str(e))
    # the label falls back from the codename to the brand to family/model
    bare = write(tmp, "bare.csv", "# cpu_codename=unknown\n# cpu_family=0x19\n# cpu_model=0x11\n"
                 + HEAD + "\nmemset,64,64,1,100,1,ok\n")
    check(reader.load(bare).cpu_label() == "family 0x19 model 0x11", "family/model label")


def test_encoding(tmp):
    latin = write(tmp, "latin.csv", b"# command_line=storebench run --csv caf\xe9.csv\n" +
                  (HEAD + "\nmemset,64,64,1,100,1,ok\n").encode(), mode="wb")
    run = reader.load(latin)
    check(run.meta["command_line"].endswith("caf\ufffd.csv"),
          f"a non-UTF-8 byte in a '#' line reads as U+FFFD: {run.meta['command_line']!r}")
    fails(write(tmp, "badrow.csv", (HEAD + "\n").encode() + b"mems\xe9t,64,64,1,100,1,ok\n",
                mode="wb"), "line 2")


def test_errors(tmp):
    fails(os.path.join(tmp, "absent.csv"), "absent.csv")
    fails(tmp, "not a CSV")
    fails(write(tmp, "empty.csv", "# only=metadata\n"), "empty CSV (no header line)")
    fails(write(tmp, "header.csv", HEAD + "\n"), "no data rows (header only)")
    fails(write(tmp, "dup.csv", "kernel,kernel\nmemset,memset\n"), "malformed header")
    fails(write(tmp, "short.csv", HEAD + "\nmemset,64\n"),
          "line 2 has 2 fields, the header (line 1) has 7")
    fails(write(tmp, "nan.csv", HEAD + "\nmemset,64,64,1,100,nan,ok\n"), "is no bandwidth")
    fails(write(tmp, "req.csv", HEAD + "\nmemset,64,64,1,100,1,ok\n"), "lacks column ns",
          required=("ns",))
    # a point twice (two runs pasted together; issue 40.8: compare-cpus printed a number in no
    # row, trend a median above its own max): refused, naming both lines
    twice = "point,kernel,gbps_median\nmemset/call:64,memset,10\nrep/call:64,rep_stosb,9\n" \
            "memset/call:64,memset,999\n"
    fails(write(tmp, "twice.csv", twice), "lines 2 and 4 are the same point memset/call:64")
    # a load time series: nan, inf or negative rates and times that do not go forward are
    # refused (issue 40.13: the plot dropped the series and exited 0)
    load = "t_s,interval_s,read_gbps,write_gbps,total_gbps,thread_min_gbps,complete\n"
    ok = "1.0,1.0,0,10,10,10,1\n"
    for name, row, want in (("nan", "2.0,1.0,0,nan,10,10,1\n", "write_gbps 'nan' is no rate"),
                            ("inf", "2.0,1.0,0,10,inf,10,1\n", "total_gbps 'inf' is no rate"),
                            ("neg", "2.0,1.0,-1,10,10,10,1\n", "read_gbps '-1' is no rate"),
                            ("same", "1.0,1.0,0,10,10,10,1\n", "t_s '1.0' does not follow"),
                            ("back", "0.5,1.0,0,10,10,10,1\n", "t_s '0.5' does not follow")):
        fails(write(tmp, "load-%s.csv" % name, load + ok + row), "line 3: " + want)
    check(len(reader.load(write(tmp, "load-ok.csv", load + ok + "2.0,1.0,0,10,10,10,1\n")).rows)
          == 2, "a well-formed load series reads, a rate of 0 included")
    # a load series where a run's points are needed says what it is (issue 40.16: table said
    # it lacked nine columns)
    fails(os.path.join(tmp, "load-ok.csv"), "a load time series (storebench load)",
          required=("kernel", "gbps_median"))


def main():
    with tempfile.TemporaryDirectory() as tmp:
        test_metadata(tmp)
        test_encoding(tmp)
        test_errors(tmp)
    return check.finish("reader")


sys.exit(main())
