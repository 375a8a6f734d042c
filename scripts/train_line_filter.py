#!/usr/bin/env python3
"""Validates a learned line filter: a logistic model over the scanner's
counts of a chosen line (and its rendered text's shape) that says whether
the line is clutter in the chosen text. No model ships: under this
protocol it costs wcxb-dev recall on every threshold (docs/benchmarks.md).

Input: the JSON lines of `examples/line_features.rs` for the six development
sets (the five LCS sets of target/corpus/manifest.tsv and trafeval-dev).
Labels: a line of an LCS page is content when most of its words stand in the
gold text in their order (word trigrams, or the whole line when shorter); a
line of a snippet page is content when it overlaps a must-appear snippet and
clutter when it overlaps a must-not-appear one (else unlabelled).

Validation is leave one dataset out: the model trained on five sets filters
the sixth, and the sixth's score is computed on the chosen lines joined, with
and without the filter. The weights of the model trained on all six sets go
to stderr.

usage: cargo build --profile quality --example line_features
       target/quality/examples/line_features LIST > LINES.jsonl
       scripts/train_line_filter.py LINES.jsonl [--threshold T ...]
LIST names the six sets' pages (target/six-sets/inputs.txt). Needs numpy.
"""
import argparse, collections, json, math, os, re, sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.join(ROOT, "target", "corpus")
sys.path.insert(0, os.path.join(ROOT, "..", "shared", "eval"))
import score as lcs_score  # noqa: E402
import snippets as snip  # noqa: E402


def load_truth():
    """path -> (dataset, gold tokens or snippet item)."""
    truth = {}
    with open(os.path.join(CORPUS, "manifest.tsv"), encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            row = dict(zip(header, line.rstrip("\n").split("\t")))
            html = os.path.normpath(os.path.join(CORPUS, row["html"]))
            with open(os.path.join(CORPUS, row["gold_text"]), encoding="utf-8", errors="replace") as g:
                gold = lcs_score.tokens(g.read())
            if gold:
                truth[html] = (row["dataset"], gold)
    ev = os.path.join(CORPUS, "trafeval-dev")
    with open(os.path.join(ev, "evaldata.json"), encoding="utf-8") as f:
        data = json.load(f)
    for item in data.values():
        path = snip.resolve(ev, item["file"])
        if path:
            truth[os.path.normpath(path)] = ("trafeval-dev", item)
    return truth


def trigram_set(tokens):
    return {tuple(tokens[i:i + 3]) for i in range(len(tokens) - 2)}


def lcs_label(tokens, gold, grams, gold_text):
    """1 content, 0 clutter."""
    if not tokens:
        return None
    if len(tokens) < 3:
        return int(" ".join(tokens) in gold_text)
    tri = [tuple(tokens[i:i + 3]) for i in range(len(tokens) - 2)]
    hit = sum(1 for t in tri if t in grams) / len(tri)
    return int(hit >= 0.5)


def snippet_label(text, item):
    t = snip.norm(text)
    if len(t) < 12:
        return None
    for w in item["without"]:
        w = snip.norm(w)
        if t in w or w in t:
            return 0
    for w in item["with"]:
        w = snip.norm(w)
        if t in w or w in t:
            return 1
    return None


END = re.compile(r"[.!?:;…\"”»)]\s*$")
DIGIT = re.compile(r"\d")


def features(r, prev, nxt):
    """The features of one chosen line; the Rust side computes the same."""
    t = max(r["text_len"], 1)
    code = r["code"]
    lg = math.log1p
    n = r["n"]
    k = r["k"]
    total = max(r["total"], 1)
    before = r["before"] / total
    after = max(0.0, 1.0 - before - r["text_len"] / total)
    hl = r["headline_line"]
    return [
        lg(r["text_len"]),
        code / (code + t),
        r["anchor_text"] / t,
        lg(r["anchors"]),
        min(r["boiler"] / t, 1.0),
        min(r["layout"] / t, 1.0),
        1.0 if r["heading"] else 0.0,
        before,
        after,
        lg(k),
        lg(n - 1 - k),
        1.0 if r["seed_first"] <= r["line"] <= r["seed_last"] else 0.0,
        1.0 if r["in_seed_box"] else 0.0,
        1.0 if hl is not None and r["line"] < hl else 0.0,
        1.0 if r["el_article"] else 0.0,
        lg(prev["text_len"]) if prev else 0.0,
        lg(nxt["text_len"]) if nxt else 0.0,
        (prev["anchor_text"] / max(prev["text_len"], 1)) if prev else 0.0,
        (nxt["anchor_text"] / max(nxt["text_len"], 1)) if nxt else 0.0,
    ] + text_features(r["rendered"])


def text_features(text):
    text = text.strip()
    words = text.split()
    n = max(len(text), 1)
    return [
        1.0 if END.search(text) else 0.0,
        len(DIGIT.findall(text)) / n,
        math.log1p(len(words)),
        sum(1 for w in words if w[:1].isupper()) / max(len(words), 1),
        text.count(",") / max(len(words), 1),
    ]


NAMES = [
    "log_text", "code_share", "anchor_share", "log_anchors", "boiler_share", "layout_share",
    "heading", "text_before", "text_after", "log_lines_before", "log_lines_after", "in_seed",
    "in_seed_box", "above_headline", "in_article", "prev_log_text", "next_log_text",
    "prev_anchor_share", "next_anchor_share",
    "ends_sentence", "digit_share", "log_words", "capital_share", "comma_share",
    "log_text_vs_median", "page_ends_sentence", "page_log_lines", "log_words_vs_median",
    "page_boiler_share", "boiler_vs_page",
]


def page_relative(X):
    """Each line's length and sentence end against the page's chosen lines."""
    X = np.array(X)
    med = np.median(X[:, 0])
    ends = X[:, NAMES.index("ends_sentence")].mean()
    words = np.median(X[:, NAMES.index("log_words")])
    text = np.expm1(X[:, 0])
    boiler = X[:, NAMES.index("boiler_share")] * text
    page_boiler = boiler.sum() / max(text.sum(), 1.0)
    extra = np.column_stack([X[:, 0] - med, np.full(len(X), ends), np.full(len(X), math.log1p(len(X))),
                             X[:, NAMES.index("log_words")] - words, np.full(len(X), page_boiler),
                             X[:, NAMES.index("boiler_share")] - page_boiler])
    return np.hstack([X, extra])


def load(path, truth):
    pages = collections.OrderedDict()
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            p = os.path.normpath(r["path"])
            if p in truth:
                pages.setdefault(p, []).append(r)
    out = []
    for p, rows in pages.items():
        ds, gold = truth[p]
        if ds == "trafeval-dev":
            labels = [snippet_label(r["rendered"], gold) for r in rows]
            gt = None
        else:
            grams = trigram_set(gold)
            gt = " ".join(gold)
            labels = [lcs_label(lcs_score.tokens(r["rendered"]), gold, grams, gt) for r in rows]
        X = [features(r, rows[i - 1] if i else None, rows[i + 1] if i + 1 < len(rows) else None)
             for i, r in enumerate(rows)]
        X = page_relative(X)
        w = [max(len(lcs_score.tokens(r["rendered"])), 1) for r in rows]
        out.append(dict(path=p, ds=ds, gold=gold, rows=rows, X=X, y=labels, w=np.array(w, float)))
    return out


def fit(X, y, w, l2=1.0, iters=300):
    """Weighted logistic regression by Newton's method; returns (mean, scale, coef, bias)."""
    mu = X.mean(0)
    sd = X.std(0) + 1e-9
    Z = (X - mu) / sd
    Z1 = np.hstack([Z, np.ones((len(Z), 1))])
    beta = np.zeros(Z1.shape[1])
    for _ in range(iters):
        p = 1 / (1 + np.exp(-Z1 @ beta))
        g = Z1.T @ (w * (p - y)) + l2 * np.r_[beta[:-1], 0]
        H = (Z1 * (w * p * (1 - p))[:, None]).T @ Z1 + l2 * np.diag(np.r_[np.ones(len(beta) - 1), 0])
        step = np.linalg.solve(H, g)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    return mu, sd, beta[:-1], beta[-1]


def prob(model, X):
    mu, sd, coef, bias = model
    return 1 / (1 + np.exp(-(((X - mu) / sd) @ coef + bias)))


def train_on(pages):
    X, y, w = [], [], []
    for pg in pages:
        for xi, yi, wi in zip(pg["X"], pg["y"], pg["w"]):
            if yi is None:
                continue
            X.append(xi)
            y.append(yi)
            # Snippet pages label few lines: weigh them as a page of LCS lines.
            w.append(wi if pg["ds"] != "trafeval-dev" else 3 * wi)
    return fit(np.array(X), np.array(y, float), np.array(w))


def page_score(pg, keep):
    text = "\n".join(r["rendered"] for r, k in zip(pg["rows"], keep) if k)
    if pg["ds"] == "trafeval-dev":
        return snip.count_item(pg["gold"], text)
    pred = lcs_score.tokens(text)
    return lcs_score.prf(lcs_score.lcs_len(pred, pg["gold"]), len(pred), len(pg["gold"]))


def summary(ds, scores):
    if ds == "trafeval-dev":
        tp, fp, fn, tn = (sum(s[i] for s in scores) for i in range(4))
        p, r, f, _ = snip.scores(tp, fp, fn, tn)
        return p, r, f
    n = len(scores)
    return tuple(sum(s[i] for s in scores) / n for i in range(3))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lines")
    ap.add_argument("--threshold", type=float, nargs="+", default=[0.85],
                    help="drop a line whose clutter probability exceeds this (several: one table each)")
    a = ap.parse_args()
    pages = load(a.lines, load_truth())
    sets = sorted({pg["ds"] for pg in pages})
    print("lines labelled:", sum(1 for pg in pages for y in pg["y"] if y is not None),
          "clutter:", sum(1 for pg in pages for y in pg["y"] if y == 0), file=sys.stderr)
    models = {held: train_on([pg for pg in pages if pg["ds"] != held]) for held in sets}
    for threshold in a.threshold:
        print(f"threshold {threshold}")
        deltas = []
        for held in sets:
            base, new = [], []
            for pg in (pg for pg in pages if pg["ds"] == held):
                drop = prob(models[held], pg["X"]) < (1 - threshold)
                base.append(page_score(pg, [True] * len(pg["rows"])))
                new.append(page_score(pg, ~drop))
            b, n = summary(held, base), summary(held, new)
            deltas.append(n[2] - b[2])
            print(f"  {held:16} P {b[0]:.4f}->{n[0]:.4f} R {b[1]:.4f}->{n[1]:.4f} "
                  f"F1 {b[2]:.4f}->{n[2]:.4f} ({n[2]-b[2]:+.4f})")
        print(f"  mean F1 change {sum(deltas)/len(deltas):+.4f}")
    model = train_on(pages)
    for name, c in sorted(zip(NAMES, model[2]), key=lambda x: -abs(x[1])):
        print(f"  {name:18} {c:+.3f}", file=sys.stderr)


if __name__ == "__main__":
    main()
