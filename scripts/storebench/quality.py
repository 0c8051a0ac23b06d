# storebench/quality.py — whether a row's numbers can be trusted, read from the row.
# Python 3 standard library.  The binary judges each point (its `quality` column: `ok` or the
# `;`-joined reasons) and names its reasons in the run's metadata (quality_reasons, and what each
# means, quality_why_<name>); scripts read both and keep no list of reasons of their own.  A CSV
# from before the quality column falls back to the one rule the scripts had then: a pinned CPU
# shared during the point (cpu_share_min < 0.9).
"""quality_of(row) -> tuple of reason names, () when the point is fine."""

from storebench.rows import num

SHARED_BELOW = 0.9  # cpu_share_min under this: the old rule, for CSVs without a quality column


def quality_of(row):
    """The reasons the point's numbers are suspect, in the column's order; () when ok."""
    q = row.get("quality")
    if q is not None and q != "":
        return () if q == "ok" else tuple(w for w in q.split(";") if w)
    v = num(row.get("cpu_share_min"))
    return ("shared_cpu",) if v is not None and v < SHARED_BELOW else ()


def suspect(row):
    return bool(quality_of(row))


def legend(rows, metas):
    """One line explaining the mark for the reasons that occur in rows, '' when none does.
    metas: the metadata of the runs the rows come from, which name the reasons in their order
    and what each means; a CSV from before those keys gives the reason's word alone."""
    seen = {w for r in rows for w in quality_of(r)}
    if not seen:
        return ""
    order, why = [], {}
    for meta in metas:
        for w in meta.get("quality_reasons", "").split(","):
            if w and w not in order:
                order.append(w)
            if w and "quality_why_" + w in meta:
                why.setdefault(w, meta["quality_why_" + w])
    if not order and "shared_cpu" in seen:  # a CSV from before the quality column: our rule
        why["shared_cpu"] = "cpu_share_min below %g" % SHARED_BELOW
        order.append("shared_cpu")
    words = ["%s (%s)" % (w, why[w]) if w in why else w for w in order if w in seen]
    words += sorted(seen - set(order))
    return "* flagged by storebench's quality check: %s; read these numbers with care or rerun " \
           "on a quiet machine." % "; ".join(words)
