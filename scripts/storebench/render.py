# storebench/render.py — the one text and Markdown table renderer of the scripts.
# Python 3 standard library.  A table is built once as cells and drawn in either form, so table,
# compare-cpus and whatever comes next line up numbers, marks and notes the same way.
"""Table(title, groups, columns): sections of rows, notes below; render(t, 'text' | 'md')."""

MARKS = ("*", "~")  # suffixes of numbers to read with care (quality flag, within noise)


class Table:
    """A grid: optional title, group headers over columns, rows split into named sections, notes."""

    def __init__(self, title, columns, groups=(), align=None):
        self.title = title            # heading line, None for none
        self.columns = list(columns)  # column headers
        self.groups = list(groups)    # (label, span) over consecutive columns, or empty
        self.align = align or ["l"] + ["r"] * (len(self.columns) - 1)  # "l" or "r" per column
        self.sections = []            # (name or "", [row of str cells])
        self.notes = []               # lines printed under the table

    def section(self, name=""):
        self.sections.append((name, []))
        return self.sections[-1][1]

    def cells(self):
        return [c for _, rows in self.sections for r in rows for c in r]


def render_text(t):
    rows_of = [rows for _, rows in t.sections]
    # a column with marked numbers ('*', '~') keeps its digits aligned: unmarked cells get a space
    for col in range(len(t.columns)):
        if any(r[col].endswith(MARKS) for rows in rows_of for r in rows):
            for rows in rows_of:
                for r in rows:
                    if not r[col].endswith(MARKS):
                        r[col] += " "
    widths = [len(c) for c in t.columns]
    for rows in rows_of:
        for r in rows:
            widths = [max(w, len(v)) for w, v in zip(widths, r)]
    # a group header spans consecutive columns; widen the last of them when the label is longer
    col = 0
    for label, span in t.groups:
        have = sum(widths[col:col + span]) + 2 * (span - 1)
        if len(label) > have:
            widths[col + span - 1] += len(label) - have
        col += span
    total = sum(widths) + 2 * (len(widths) - 1)

    def line(cells):
        out = [c.ljust(w) if a == "l" else c.rjust(w) for c, w, a in zip(cells, widths, t.align)]
        return "  ".join(out).rstrip()

    def rule(ch):
        return "  ".join(ch * w for w in widths)

    out = ["** %s **" % t.title, rule("=")] if t.title else []
    if t.groups:
        cells, col = [], 0
        for label, span in t.groups:
            w = sum(widths[col:col + span]) + 2 * (span - 1)
            cells.append(label.center(w) if span > 1 else label.ljust(w))
            col += span
        out.append("  ".join(cells).rstrip())
    out.append(line(t.columns))
    out.append(rule("-"))
    for name, rows in t.sections:
        if name:
            out.append((" %s " % name).center(total, "="))
        out.extend(line(r) for r in rows)
    if t.title:
        out.append(rule("="))
    out.extend(t.notes)
    return "\n".join(out) + "\n"


def _md_cell(text):
    return text.replace("|", "\\|")


def render_md(t):
    names, col = [], 0
    for label, span in t.groups or [("", len(t.columns))]:
        for c in t.columns[col:col + span]:
            names.append("%s: %s" % (label.split(" (")[0], c) if label and span > 1 else c)
        col += span
    out = ["**%s**" % t.title, ""] if t.title else []
    for name, rows in t.sections:
        if name:
            out += ["*%s*" % name, ""]
        out.append("| " + " | ".join(_md_cell(n) for n in names) + " |")
        out.append("|" + "|".join(":---" if a == "l" else "---:" for a in t.align) + "|")
        out += ["| " + " | ".join(_md_cell(c) for c in r) + " |" for r in rows]
        out.append("")
    out += ["%s  " % n for n in t.notes]
    return "\n".join(out).rstrip() + "\n"


def render(t, form):
    """'text' or 'md'."""
    return render_md(t) if form == "md" else render_text(t)
