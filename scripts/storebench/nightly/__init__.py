# storebench/nightly/ — scripts/nightly's pieces: budget (the sweep shape), gate (compare.py's
# verdict per point), summary (summary.md, plots, trend).
"""The nightly regression gate: budget, gate, summary."""
