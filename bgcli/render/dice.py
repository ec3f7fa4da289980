"""The dice audit's report as text (a table a group), and as one self-contained
HTML page with its pictures (:func:`html`): each test's observed proportions
against the expected ones with 95% intervals, and the p-values of all the
tests against the uniform line that fair dice give. Nothing is fetched: the
page is its own styles and inline SVG, like the match viewer's."""
from __future__ import annotations

import html as escape
from typing import Sequence

from bgcli.core.position import ALL_THROWS
from bgcli.judging.dicereport import Report, p_values
from bgcli.judging.dicestats import Test


def number(value: float | None, digits: int = 3) -> str:
    if value is None:
        return "-"
    if value < 10 ** -digits and value > 0:
        return f"<{10 ** -digits:g}"
    return f"{value:.{digits}f}"


def _observed(test: Test) -> str:
    if test.effect_name == "luck per roll":
        return f"{test.observed:+,.3f} in all" + (f", z {test.statistic:+.2f}" if test.statistic is not None else "")
    if test.statistic is not None and test.df is not None:
        return f"chi2 {test.statistic:.1f} (df {test.df})"
    if test.p is None and test.statistic is None and test.effect_name in ("Cohen's w", "Cramér's V"):
        return ""
    return f"{test.observed:,.0f} of {test.n:,} (expected {test.expected:,.1f})"


def _effect(test: Test) -> str:
    if test.effect is None or test.effect_low is None or test.effect_high is None:
        return ""
    if test.effect_name == "luck per roll":
        return f"{test.effect:+.4f} a roll [{test.effect_low:+.4f}, {test.effect_high:+.4f}]"
    if test.effect_name in ("rate - expected", "excess rate"):
        return f"{test.effect * 100:+.1f} pts [{test.effect_low * 100:+.1f}, {test.effect_high * 100:+.1f}]"
    short = "w" if test.effect_name.startswith("Cohen") else "V"
    return f"{short} {test.effect:.3f} [{test.effect_low:.3f}, {test.effect_high:.3f}]"


def text(report: Report) -> str:
    """The report as a table a group, the power statements under it, and the summary line."""
    lines = []
    for group in report.groups:
        lines.append(f"{group.name}: {group.rolls:,} rolls in {group.matches:,} match{'es' if group.matches != 1 else ''}, "
                     f"and {sum(group.total.opening):,} opening rolls")
        rows = [("test", "n", "observed", "effect [95% interval]", "p", "Holm", "BH", "")]
        for test in group.tests:
            rows.append((test.title, f"{test.n:,}", _observed(test), _effect(test), number(test.p), number(test.holm),
                         number(test.bh), test.note if test.p is None else test.verdict()))
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        for row in rows:
            cells = [row[0].ljust(widths[0]), row[1].rjust(widths[1])] + [row[i].ljust(widths[i]) for i in range(2, 4)] + \
                    [row[i].rjust(widths[i]) for i in range(4, 7)] + [row[7]]
            lines.append("  " + "  ".join(cells).rstrip())
        for test in group.tests:
            if test.power:
                lines.append(f"  power: {test.power}")
        lines.append("")
    for note in report.notes:
        lines.append(f"note: {note}")
    lines.append(report.summary())
    return "\n".join(lines)


# --- the HTML page -----------------------------------------------------------------------------

_STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;max-width:70em}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}
table{border-collapse:collapse;margin:.5em 0}td,th{padding:.15em .6em;text-align:left;border-bottom:1px solid #ddd}
td.n{text-align:right;font-variant-numeric:tabular-nums}.flag{color:#a00;font-weight:bold}.small{color:#777}
svg{display:block;margin:.4em 0}figure{margin:0 0 1em 0}figcaption{color:#555;font-size:.9em}
"""


def _svg_cells(test: Test, width: int = 640, height: int = 160) -> str:
    """Observed proportions (dots with their 95% intervals) against the expected ones (grey bars)."""
    cells = test.cells
    if not cells:
        return ""
    top = max(max(c.high for c in cells), max(c.expected for c in cells)) * 1.1 or 1.0
    left, inner = 40, height - 30
    step = (width - left - 10) / len(cells)
    y = lambda v: 10 + inner - inner * v / top
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
             f'aria-label="{escape.escape(test.title)}: observed against expected">',
             f'<line x1="{left}" y1="{y(0):.1f}" x2="{width - 10}" y2="{y(0):.1f}" stroke="#999"/>',
             f'<text x="2" y="{y(top / 1.1):.1f}" font-size="10">{top / 1.1:.1%}</text>',
             f'<text x="2" y="{y(0):.1f}" font-size="10">0</text>']
    for i, cell in enumerate(cells):
        x = left + step * (i + 0.5)
        parts.append(f'<rect class="expected" x="{x - step * 0.35:.1f}" y="{y(cell.expected):.1f}" width="{step * 0.7:.1f}" '
                     f'height="{y(0) - y(cell.expected):.1f}" fill="#ddd"/>')
        parts.append(f'<line class="interval" x1="{x:.1f}" x2="{x:.1f}" y1="{y(cell.low):.1f}" y2="{y(cell.high):.1f}" '
                     f'stroke="#246" stroke-width="1.5"/>')
        colour = "#a00" if not cell.low <= cell.expected <= cell.high else "#246"
        parts.append(f'<circle class="observed" cx="{x:.1f}" cy="{y(cell.observed / cell.n if cell.n else 0):.1f}" r="3" '
                     f'fill="{colour}"><title>{escape.escape(cell.label)}: {cell.observed:,} of {cell.n:,} '
                     f'({cell.observed / max(cell.n, 1):.2%}; expected {cell.expected:.2%}, 95% interval '
                     f'{cell.low:.2%} to {cell.high:.2%})</title></circle>')
        if len(cells) <= ALL_THROWS:   # a label under each cell up to the 36 orders of the dice
            parts.append(f'<text x="{x:.1f}" y="{height - 4}" font-size="9" text-anchor="middle">{escape.escape(cell.label)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _svg_pvalues(values: Sequence[float], width: int = 320, height: int = 320) -> str:
    """The sorted p-values against their ranks: fair dice put them along the diagonal (the uniform line)."""
    size = min(width, height) - 40
    x0, y0 = 30, 10
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
             f'aria-label="p-values against the uniform line">',
             f'<rect x="{x0}" y="{y0}" width="{size}" height="{size}" fill="none" stroke="#999"/>',
             f'<line class="uniform" x1="{x0}" y1="{y0 + size}" x2="{x0 + size}" y2="{y0}" stroke="#bbb" stroke-dasharray="4 3"/>',
             f'<text x="{x0}" y="{y0 + size + 14}" font-size="10">0</text>',
             f'<text x="{x0 + size - 30}" y="{y0 + size + 14}" font-size="10">uniform 1</text>',
             f'<text x="2" y="{y0 + 10}" font-size="10">p 1</text>']
    ordered = sorted(values)
    m = len(ordered)
    for i, p in enumerate(ordered):
        u = (i + 0.5) / m
        parts.append(f'<circle class="p" cx="{x0 + u * size:.1f}" cy="{y0 + size - p * size:.1f}" r="2.5" fill="#246">'
                     f'<title>p = {p:.4g}</title></circle>')
    parts.append("</svg>")
    return "".join(parts)


def html(report: Report, title: str = "Dice audit") -> str:
    """The report as one self-contained HTML page."""
    out = [f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{escape.escape(title)}</title>",
           f"<style>{_STYLE}</style></head><body>", f"<h1>{escape.escape(title)}</h1>",
           f"<p id=\"summary\">{escape.escape(report.summary())}</p>"]
    for note in report.notes:
        out.append(f"<p class=\"small\">note: {escape.escape(note)}</p>")
    values = p_values(report)
    if values:
        out.append("<h2>p-values against the uniform line</h2><figure>" + _svg_pvalues(values) +
                   f"<figcaption>The {len(values)} p-values of the report, sorted, against where fair dice put them on "
                   f"average (the diagonal). Points far below the line at the left are small p-values beyond "
                   f"chance.</figcaption></figure>")
    for group in report.groups:
        out.append(f"<section class=\"group\"><h2>{escape.escape(group.name)}</h2><p>{group.rolls:,} rolls in "
                   f"{group.matches:,} matches, and {sum(group.total.opening):,} opening rolls</p>")
        out.append("<table><tr><th>test</th><th>n</th><th>observed</th><th>effect [95% interval]</th><th>p</th>"
                   "<th>Holm</th><th>BH</th><th></th></tr>")
        for test in group.tests:
            verdict = test.note if test.p is None else test.verdict()
            flag = ' class="flag"' if test.holm is not None and test.holm < 0.05 else ""
            out.append(f"<tr><td>{escape.escape(test.title)}</td><td class=\"n\">{test.n:,}</td>"
                       f"<td>{escape.escape(_observed(test))}</td><td>{escape.escape(_effect(test))}</td>"
                       f"<td class=\"n\">{number(test.p)}</td><td class=\"n\">{number(test.holm)}</td>"
                       f"<td class=\"n\">{number(test.bh)}</td><td{flag}>{escape.escape(verdict)}</td></tr>")
        out.append("</table>")
        for test in group.tests:
            if test.power:
                out.append(f"<p class=\"small\">power: {escape.escape(test.power)}</p>")
        for test in group.tests:
            if test.cells and test.p is not None:
                out.append(f"<figure>{_svg_cells(test)}<figcaption>{escape.escape(test.title)}: observed (dots, with 95% "
                           f"intervals) against expected (grey)</figcaption></figure>")
        out.append("</section>")
    out.append("</body></html>")
    return "\n".join(out)
