#!/usr/bin/env python3
"""Helper of scripts/fault-injection.sh (standard library only).

`plan`  writes the seeded workload and fault schedule into a directory:
        manifest.tsv (one line per task: kind, list line, expected outcome,
        record keys), urls.list, warc-records.list, warc-files.list, the
        WARC files they point at, and schedule.tsv (at, kind, arg).
`serve` runs the origin web server on 127.0.0.1: generated article pages
        (/page/N), pages that answer 503 twice before working (/flaky/N),
        404s (/missing/N), 500s (/broken/N) and pages that always stall past
        the worker's fetch timeout (/slow/N). POST /__stall?secs=S makes
        every request hang S seconds (the "origin stalls" fault); GET
        /__stats reports request counts.

Everything random comes from one seeded generator, so a seed names a run.
"""

import argparse
import json
import os
import random
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

WORDS = (
    "council residents harbour bridge library budget school river festival "
    "railway museum market hospital election weather orchestra garden "
    "football factory island theatre village mayor planning traffic"
).split()

FAULT_KINDS = (
    "broker_restart",  # rabbitmqctl stop_app / start_app
    "broker_crash",  # SIGKILL of the node's VM, restart on the same data
    "worker_kill",  # SIGKILL of one worker process, then a new one
    "origin_stall",  # every origin request hangs for a few seconds
    "disk_alarm",  # free-disk alarm: publishers blocked, then cleared
    "connection_drop",  # rabbitmqctl close_all_connections
)


def article(rng, title, paragraphs):
    """A news-like page: navigation, an article, a footer."""
    body = []
    for i in range(paragraphs):
        words = " ".join(rng.choice(WORDS) for _ in range(40))
        body.append(
            f"<p>Paragraph {i} about {title}. {words.capitalize()}. The committee "
            "said the plans would be published in full after the consultation, "
            "and that residents could comment until the end of the month.</p>"
        )
    return (
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
        f"<title>{title} - Example News</title></head>\n<body>\n"
        "<nav><ul><li><a href=\"/\">Home</a></li><li><a href=\"/world\">World</a>"
        "</li><li><a href=\"/about\">About us</a></li></ul></nav>\n"
        f"<div class=\"article\"><h1>{title}</h1>\n" + "\n".join(body) + "\n</div>\n"
        "<footer><a href=\"/privacy\">Privacy</a> | <a href=\"/terms\">Terms</a>"
        "</footer>\n</body></html>\n"
    )


def warc_record(uri, record_id, body):
    """One uncompressed WARC response record (as tests/worker_faults.rs)."""
    payload = body.encode()
    http = (
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
        f"Content-Length: {len(payload)}\r\n\r\n"
    ).encode() + payload
    head = (
        "WARC/1.0\r\nWARC-Type: response\r\n"
        f"WARC-Record-ID: {record_id}\r\nWARC-Target-URI: {uri}\r\n"
        "WARC-Date: 2024-01-01T00:00:00Z\r\n"
        "Content-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(http)}\r\n\r\n"
    ).encode()
    return head + http + b"\r\n\r\n"


def write_warc(rng, path, first, count):
    """Writes `count` records; returns [(offset, length, record_id)]."""
    out, records, offset = bytearray(), [], 0
    for i in range(first, first + count):
        rid = f"<urn:uuid:00000000-0000-4000-8000-{i:012d}>"
        rec = warc_record(f"http://archive.example/{i}", rid, article(rng, f"Archived {i}", 4))
        records.append((offset, len(rec), rid))
        out += rec
        offset += len(rec)
    with open(path, "wb") as f:
        f.write(out)
    return records


def schedule(rng, faults, window, workers):
    """`faults` faults over about `window` seconds: every kind in turn (so
    each appears when faults >= 6), in seeded order, at seeded times."""
    kinds = [FAULT_KINDS[i % len(FAULT_KINDS)] for i in range(faults)]
    rng.shuffle(kinds)
    gap = window / max(faults, 1)
    rows, at = [], 3.0
    for kind in kinds:
        at += gap * rng.uniform(0.6, 1.4)
        if kind == "worker_kill":
            arg = str(rng.randrange(workers))
        elif kind == "origin_stall":
            # Longer than the workers' 3 s fetch timeout.
            arg = f"{rng.uniform(4.0, 8.0):.1f}"
        elif kind == "disk_alarm":
            arg = f"{rng.uniform(3.0, 7.0):.1f}"
        else:
            arg = "-"
        rows.append((round(at, 1), kind, arg))
    return rows


def plan(args):
    rng = random.Random(args.seed)
    os.makedirs(args.dir, exist_ok=True)
    base = f"http://127.0.0.1:{args.port}"
    # Budget: poison messages are published by the Rust harness; the rest
    # are linesift tasks.
    tasks = args.tasks - args.poison
    file_records = 10
    n_files = 1
    n_records = min(40, max(4, tasks // 250))
    n_slow = max(2, tasks // 2000)
    n_urls = tasks - n_files - n_records
    if n_urls < 20:
        sys.exit("fault_origin.py plan: too few tasks")
    manifest = []
    # URL tasks: mostly good pages, a seeded share of the other kinds.
    special = ["slow"] * n_slow
    special += ["missing"] * max(2, n_urls // 200)
    special += ["broken"] * max(2, n_urls // 200)
    special += ["flaky"] * max(2, n_urls // 100)
    kinds = special + ["page"] * (n_urls - len(special))
    rng.shuffle(kinds)
    expect = {
        "page": "document",
        "flaky": "document",
        # 404 and 500: outcomes, a fatal Failure event, not dead-lettered.
        "missing": "outcome",
        "broken": "outcome",
        # Always stalling: transient until the retries are used up, a fault.
        "slow": "dead",
    }
    for i, kind in enumerate(kinds):
        url = f"{base}/{kind}/{i}"
        manifest.append(("urls", url, expect[kind], url))
    # WARC records, one task each, and one whole-file task.
    warc = os.path.join(args.dir, "records.warc")
    for off, length, rid in write_warc(rng, warc, 0, n_records):
        manifest.append(("warc-records", f"{warc} {off} {length}", "document", rid))
    whole = os.path.join(args.dir, "whole.warc")
    rids = [rid for _, _, rid in write_warc(rng, whole, 1000, file_records)]
    manifest.append(("warc-files", whole, "document", ",".join(rids)))
    # Interleave kinds in queue order so WARC tasks meet faults too.
    rng.shuffle(manifest)
    with open(os.path.join(args.dir, "manifest.tsv"), "w") as f:
        for row in manifest:
            f.write("\t".join(row) + "\n")
    with open(os.path.join(args.dir, "schedule.tsv"), "w") as f:
        for at, kind, arg in schedule(rng, args.faults, args.window, args.workers):
            f.write(f"{at}\t{kind}\t{arg}\n")


class Origin:
    """Shared server state: the stall deadline and per-path hit counts."""

    def __init__(self, seed, delay):
        self.seed = seed
        self.delay = delay
        self.lock = threading.Lock()
        self.stall_until = 0.0
        self.hits = {}
        self.stalled = 0

    def hit(self, path):
        with self.lock:
            n = self.hits.get(path, 0) + 1
            self.hits[path] = n
            stall = self.stall_until - time.monotonic()
            if stall > 0:
                self.stalled += 1
            return n, stall


def handler(origin):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_):
            pass

        def send(self, status, body, ctype="text/html; charset=utf-8"):
            data = body.encode()
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self):
            url = urlparse(self.path)
            if url.path == "/__stall":
                secs = float(parse_qs(url.query).get("secs", ["5"])[0])
                with origin.lock:
                    origin.stall_until = max(origin.stall_until, time.monotonic() + secs)
                self.send(200, "stalling\n", "text/plain")
            else:
                self.send(404, "no\n", "text/plain")

        def do_GET(self):
            url = urlparse(self.path)
            if url.path == "/__stats":
                with origin.lock:
                    stats = {
                        "requests": sum(origin.hits.values()),
                        "paths": len(origin.hits),
                        "stalled": origin.stalled,
                    }
                self.send(200, json.dumps(stats) + "\n", "application/json")
                return
            n, stall = origin.hit(url.path)
            if stall > 0:
                time.sleep(stall)
            parts = url.path.strip("/").split("/")
            kind = parts[0] if parts else ""
            if kind == "slow":
                # Longer than the worker's fetch timeout, every time.
                time.sleep(origin.slow)
                self.send(200, article(random.Random(url.path), "Too late", 2))
            elif kind == "missing":
                self.send(404, "<html><body>not found</body></html>")
            elif kind == "broken":
                self.send(500, "<html><body>internal error</body></html>")
            elif kind == "flaky" and n <= 2:
                # No Retry-After: the worker's own backoff applies.
                self.send(503, "<html><body>try later</body></html>")
            elif kind in ("page", "flaky"):
                if origin.delay > 0:
                    time.sleep(origin.delay)
                rng = random.Random(f"{origin.seed}:{url.path}")
                self.send(200, article(rng, f"Story {parts[-1]}", rng.randint(3, 8)))
            else:
                self.send(404, "<html><body>not found</body></html>")

    return Handler


def serve(args):
    origin = Origin(args.seed, args.page_delay / 1000.0)
    origin.slow = args.slow
    server = ThreadingHTTPServer(("127.0.0.1", args.port), handler(origin))
    server.daemon_threads = True
    server.request_queue_size = 256
    print("ready", flush=True)
    server.serve_forever()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("plan")
    a.add_argument("--seed", type=int, required=True)
    a.add_argument("--tasks", type=int, required=True)
    a.add_argument("--poison", type=int, required=True)
    a.add_argument("--faults", type=int, required=True)
    a.add_argument("--window", type=float, required=True)
    a.add_argument("--workers", type=int, required=True)
    a.add_argument("--port", type=int, required=True)
    a.add_argument("--dir", required=True)
    s = sub.add_parser("serve")
    s.add_argument("--seed", type=int, required=True)
    s.add_argument("--port", type=int, required=True)
    s.add_argument("--page-delay", type=float, default=0.0, help="milliseconds per page")
    s.add_argument("--slow", type=float, default=10.0, help="seconds /slow/ pages take")
    args = p.parse_args()
    plan(args) if args.cmd == "plan" else serve(args)


if __name__ == "__main__":
    main()
