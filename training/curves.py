"""Draws the training curves of `train.py` for the lab page.

    python training/curves.py crates/bots/weights/dalmuti.curve.json docs/lab/learned/dalmuti-curve.svg

Reads a `<game>.curve.json` and writes an SVG (first-place rate of the
greedy network alone against the `strong` bots, with its 95% interval,
over training time; the fair share dashed) and prints the same figures as
a Markdown table. Standard library only.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

W, H, L, R, T, B = 640, 360, 60, 20, 30, 50


def svg(curve: list[dict], fair: float, title: str) -> str:
    xs = [row["seconds"] / 60 for row in curve]
    top = max(max(row["high"] for row in curve), fair) * 1.1
    xmax = max(xs) or 1.0

    def px(x):
        return L + (W - L - R) * x / xmax

    def py(y):
        return T + (H - T - B) * (1 - y / top)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
        f'viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">',
        f'<rect width="{W}" height="{H}" fill="white"/>',
        f'<text x="{W / 2}" y="18" text-anchor="middle" font-size="14">{title}</text>',
        f'<line x1="{L}" y1="{H - B}" x2="{W - R}" y2="{H - B}" stroke="black"/>',
        f'<line x1="{L}" y1="{T}" x2="{L}" y2="{H - B}" stroke="black"/>',
    ]
    for k in range(6):
        y = top * k / 5
        out.append(f'<text x="{L - 6}" y="{py(y) + 4:.1f}" text-anchor="end">{100 * y:.0f}%</text>')
        out.append(f'<line x1="{L}" y1="{py(y):.1f}" x2="{W - R}" y2="{py(y):.1f}" stroke="#ddd"/>')
    for k in range(6):
        x = xmax * k / 5
        out.append(f'<text x="{px(x):.1f}" y="{H - B + 16}" text-anchor="middle">{x:.0f}</text>')
    out.append(f'<text x="{W / 2}" y="{H - 12}" text-anchor="middle">training time (minutes)</text>')
    out.append(
        f'<line x1="{L}" y1="{py(fair):.1f}" x2="{W - R}" y2="{py(fair):.1f}" '
        f'stroke="#c33" stroke-dasharray="6 4"/>'
        f'<text x="{W - R - 4}" y="{py(fair) - 5:.1f}" text-anchor="end" fill="#c33">fair share</text>'
    )
    points = []
    for x, row in zip(xs, curve):
        cx = px(x)
        out.append(
            f'<line x1="{cx:.1f}" y1="{py(row["low"]):.1f}" x2="{cx:.1f}" y2="{py(row["high"]):.1f}" '
            f'stroke="#36c"/>'
        )
        colour = "#999" if str(row["round"]).startswith("warm") or row["round"] == 0 else "#36c"
        out.append(f'<circle cx="{cx:.1f}" cy="{py(row["rate"]):.1f}" r="3" fill="{colour}"/>')
        points.append(f"{cx:.1f},{py(row['rate']):.1f}")
    out.append(f'<polyline points="{" ".join(points)}" fill="none" stroke="#36c" stroke-width="1"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def table(curve: list[dict]) -> str:
    rows = [
        "| round | minutes | decisions in the data | teacher agreement | vs strong (first places) | 95% interval |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for row in curve:
        agree = row["agreement"]
        agree = "" if agree != agree else f"{100 * agree:.1f}%"  # NaN: none
        rows.append(
            f"| {row['round']} | {row['seconds'] / 60:.1f} | {row['samples']:,} | {agree} | "
            f"{100 * row['rate']:.1f}% | {100 * row['low']:.1f}% – {100 * row['high']:.1f}% |"
        )
    return "\n".join(rows)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    data = json.loads(Path(argv[0]).read_text())
    meta, curve = data["meta"], data["curve"]
    players = int(meta["players"])
    title = f"{meta['game']}: the network alone against {players - 1} strong bots"
    Path(argv[1]).parent.mkdir(parents=True, exist_ok=True)
    Path(argv[1]).write_text(svg(curve, 1 / players, title))
    print(table(curve))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
