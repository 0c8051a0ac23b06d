# storebench/ — the Python package behind the commands in scripts/ (plot, table, trend,
# compare-cpus, nightly, ...).  Each command is a thin entry point that puts scripts/ on sys.path
# and imports storebench.*; one reader, one set of selectors and classes, one renderer (issue 11.9).
"""storebench's script package: reader (CSV), nightly (the regression gate)."""
