#!/usr/bin/env python3
"""Prints bench/run.sh's figures side by side, one column per scale, with each figure's growth
from the smallest scale to the largest and the targets of issue 17 checked at the largest.

Usage: summary.py SUMMARY_TSV
"""

import csv
import sys

# (column, label, unit, target at the largest scale: (kind, limit) or None)
ROWS = [
    ("search_p50", "owner search p50, 1 conn.", "ms", ("growth", 2.0)),
    ("search_p99", "owner search p99, 1 conn.", "ms", ("growth", 2.0)),
    ("search8_p50", "owner search p50, 8 conns.", "ms", ("growth", 2.0)),
    ("search8_p99", "owner search p99, 8 conns.", "ms", ("growth", 2.0)),
    ("list_p50", "post list p50, 1 conn.", "ms", ("growth", 2.0)),
    ("list_p99", "post list p99, 1 conn.", "ms", ("growth", 2.0)),
    ("list8_p50", "post list p50, 8 conns.", "ms", ("growth", 2.0)),
    ("list8_p99", "post list p99, 8 conns.", "ms", ("growth", 2.0)),
    ("public_rps", "public post page req/s", "", None),
    ("public_vs_nginx", "  req/s vs nginx", "x", None),
    ("cpu_vs_nginx", "  CPU per request vs nginx", "x", None),
    ("cold_ms", "cold start to the post page", "ms", ("max", 300)),
    ("restart_ms", "restart to the post page", "ms", ("max", 300)),
    ("idle_rss", "RSS idle", "MB", None),
    ("loaded_rss", "RSS under load", "MB", ("max", 60)),
    ("peak_rss", "RSS peak (VmHWM)", "MB", ("max", 60)),
    ("reindex_s", "reindex", "s", None),
    ("db_mb", "database", "MB", None),
    ("index_mb", "search index", "MB", None),
    ("capped_search_p50", "owner search p50 under the cap", "ms", None),
]


def main():
    with open(sys.argv[1]) as tsv:
        scales = list(csv.DictReader(tsv, delimiter="\t"))
    if not scales:
        sys.exit("no scale was measured")
    first, last = scales[0], scales[-1]
    width = max(len(label) for _, label, _, _ in ROWS) + 2
    header = "".ljust(width) + "".join(f"{s['scale'] + ' (' + s['posts'] + ')':>20}" for s in scales)
    if len(scales) > 1:
        header += f"{'growth':>10}   target at {last['scale']}"
    print(header)
    for column, label, unit, target in ROWS:
        values = [float(s[column]) for s in scales]
        line = label.ljust(width) + "".join(f"{v:>17g} {unit:<2}" for v in values)
        growth = values[-1] / values[0] if values[0] else float("inf")
        if len(scales) > 1:
            line += f"{growth:>9.2f}x"
        if target:
            kind, limit = target
            if kind == "growth" and len(scales) > 1:
                line += f"   <= {limit:g}x growth: {'met' if growth <= limit else 'MISSED'}"
            elif kind == "max":
                line += f"   <= {limit:g} {unit}: {'met' if values[-1] <= limit else 'MISSED'}"
        print(line)


if __name__ == "__main__":
    main()
