# storebench/quality.py — whether a row's numbers can be trusted, read from the row.
# Python 3 standard library.  The binary judges each point (its `quality` column: `ok` or the
# `;`-joined reasons shared_cpu, cv, short_batch, skew, drift, outlier); scripts read that verdict
# and never re-derive thresholds.  A CSV from before that column falls back to the one rule the
# scripts had: a pinned CPU shared during the point (cpu_share_min < 0.9).
"""quality_of(row) -> tuple of reason names, () when the point is fine."""

from storebench.rows import num

REASONS = ("shared_cpu", "cv", "short_batch", "skew", "drift", "outlier")
WHY = {"shared_cpu": "another task shared a pinned CPU: cpu_share_min low",
       "cv": "the repetitions varied more than the limit",
       "short_batch": "timed batches too short for the clock",
       "skew": "threads started too far apart",
       "drift": "the machine drifted: canary out of its band",
       "outlier": "an outlier among the repetitions"}
SHARED_BELOW = 0.9  # cpu_share_min under this: the old rule, for CSVs without a quality column


def quality_of(row):
    """The reasons the point's numbers are suspect, in REASONS order; () when ok."""
    q = row.get("quality")
    if q is not None and q != "":
        return () if q == "ok" else tuple(w for w in q.split(";") if w)
    v = num(row.get("cpu_share_min"))
    return ("shared_cpu",) if v is not None and v < SHARED_BELOW else ()


def suspect(row):
    return bool(quality_of(row))


def legend(rows):
    """One line explaining the mark for the reasons that occur in rows, '' when none does."""
    seen = {w for r in rows for w in quality_of(r)}
    if not seen:
        return ""
    words = ["%s (%s)" % (w, WHY.get(w, "flagged by storebench")) for w in REASONS if w in seen]
    words += sorted(seen - set(REASONS))
    return "* flagged by storebench's quality check: %s; read these numbers with care or rerun " \
           "on a quiet machine." % "; ".join(words)
