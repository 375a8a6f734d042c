#!/usr/bin/env python3
"""Prints the six-set table from score.py's and snippets.py's JSON summaries.

usage: six_sets.py LCS.json SNIPPETS.json OUT.json [BASELINE.json]
Writes the six rows (and the mean LCS F1) to OUT.json; with BASELINE.json, an
earlier OUT.json, each F1 is followed by its change and a set that fell is
marked, so one run says whether a selection change helps the mean and hurts
no set.
"""
import json
import sys

LCS_SETS = ("cleaneval", "cleanportaleval", "dragnet", "l3s-gn1", "wcxb-dev")


def rows(lcs, snip):
    out = {ds: {k: lcs[ds][k] for k in ("pages", "precision", "recall", "f1")} for ds in LCS_SETS if ds in lcs}
    s = snip["linesift"]
    out["trafeval-dev (snippets)"] = {k: s[k] for k in ("pages", "precision", "recall", "f1")}
    present = [out[ds]["f1"] for ds in LCS_SETS if ds in out]
    out["mean LCS F1"] = {"f1": sum(present) / len(present) if present else 0.0}
    return out


def main():
    lcs_path, snip_path, out_path = sys.argv[1:4]
    base = json.load(open(sys.argv[4])) if len(sys.argv) > 4 else None
    table = rows(json.load(open(lcs_path)), json.load(open(snip_path)))
    json.dump(table, open(out_path, "w"), indent=1)
    print(f'{"set":<26}{"pages":>6}{"P":>7}{"R":>7}{"F1":>7}' + ("   change" if base else ""))
    for name, r in table.items():
        cells = "".join(f'{r[k]:>7.3f}' if k in r else f'{"":>7}' for k in ("precision", "recall", "f1"))
        pages = f'{r["pages"]:>6}' if "pages" in r else f'{"":>6}'
        line = f"{name:<26}{pages}{cells}"
        if base and name in base:
            d = r["f1"] - base[name]["f1"]
            line += f"  {d:+.4f}" + ("  fell" if d < -0.0005 else "")
        print(line)


if __name__ == "__main__":
    main()
