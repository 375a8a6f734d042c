#!/usr/bin/env python3
"""Times linesift reading a WARC over loopback HTTP against reading the
same file locally: a whole file (`linesift warc`), and every record by
its offset through a CDXJ index (`linesift run`, one ranged request a
record). Takes scripts/bench_warc.py's per-record gzip WARC of the corpus
pages, serves it from a Range-capable origin in this process (standard library
only: ThreadingHTTPServer, HTTP/1.1 keep-alive), and prints the wall
times and the remote/local ratio. Used by scripts/bench-remote.sh.

The origin is Python: at thousands of requests a second it may be what
limits the record mode (its CPU time is printed beside linesift's).
`--origin URL` times against a server already serving `--out` there
instead (scripts/bench-remote.sh --nginx starts nginx for it).
"""
import argparse
import json
import os
import re
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import bench_warc


def spans(path):
    """Each response record's (offset, length) in a WARC, as warcio reads it."""
    from warcio.archiveiterator import ArchiveIterator

    out = []
    with open(path, "rb") as f:
        it = ArchiveIterator(f)
        for record in it:
            if record.rec_type == "response":
                record.content_stream().read()
                out.append((it.get_record_offset(), it.get_record_length()))
    return out


def origin(directory):
    """Serves `directory` on 127.0.0.1 with byte ranges; returns the port."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body go out in separate writes: without this, each
        # response waits on the client's delayed ACK (about 40 ms).
        disable_nagle_algorithm = True

        def log_message(self, *args):
            pass

        def do_GET(self):
            path = os.path.join(directory, os.path.basename(self.path))
            try:
                f = open(path, "rb")
            except OSError:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            with f:
                size = os.fstat(f.fileno()).st_size
                start, end = 0, size
                m = re.fullmatch(r"bytes=(\d+)-(\d*)", self.headers.get("Range", ""))
                if m:
                    start = int(m.group(1))
                    end = min(size, int(m.group(2)) + 1) if m.group(2) else size
                    self.send_response(206)
                    self.send_header("Content-Range", f"bytes {start}-{end - 1}/{size}")
                else:
                    self.send_response(200)
                self.send_header("Content-Length", str(end - start))
                self.send_header("ETag", f'"{size}"')
                self.end_headers()
                f.seek(start)
                left = end - start
                while left:
                    chunk = f.read(min(left, 1 << 16))
                    if not chunk:
                        break
                    self.wfile.write(chunk)
                    left -= len(chunk)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_address[1]


def timed(cmd):
    """Wall time of `cmd`, and its CPU time (user + system)."""
    before = os.times()
    start = time.perf_counter()
    res = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    after = os.times()
    if res.returncode != 0:
        raise SystemExit(f"bench-remote: {' '.join(cmd)} failed: {res.stderr.decode()[-500:]}")
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--pages", type=int, default=0)
    ap.add_argument("--out", required=True)
    ap.add_argument("--linesift", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--origin", help="a server already serving --out (its CPU is not counted)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    # The gzip WARC scripts/bench-warc.sh times (made the same way, and
    # reused when it is there).
    _, _, files = bench_warc.build(args.manifest, args.pages, args.out)
    warc = files["gzip"]
    name = os.path.basename(warc)
    records = spans(warc)
    index = os.path.join(args.out, "remote.cdxj")
    with open(index, "w") as f:
        for i, (offset, length) in enumerate(records):
            entry = {"url": f"http://x/{i}", "filename": name, "offset": offset,
                     "length": length, "status": "200", "mime": "text/html"}
            f.write(f"x)/{i} 20240101000000 {json.dumps(entry)}\n")
    base = args.origin or f"http://127.0.0.1:{origin(os.path.abspath(args.out))}/"
    size = os.path.getsize(warc)
    print(f"{len(records)} records, {size / 1e6:.1f} MB gzip, served from {base}")
    modes = {
        "whole file": (
            [args.linesift, "warc", warc, "-o", "/dev/null"],
            [args.linesift, "warc", base + name, "-o", "/dev/null"],
        ),
        "by index": (
            [args.linesift, "run", index, "--warc-prefix", os.path.abspath(args.out), "-o", "-"],
            [args.linesift, "run", index, "--warc-prefix", base, "-o", "-"],
        ),
    }
    for mode, (local, remote) in modes.items():
        times = {"local": [], "remote": []}
        for _ in range(args.runs):
            for name, cmd in (("local", local), ("remote", remote)):
                origin_cpu = time.process_time()
                wall, cpu = timed(cmd)
                times[name].append((wall, cpu, time.process_time() - origin_cpu))
        best = {k: min(v) for k, v in times.items()}
        ratio = best["local"][0] / best["remote"][0]
        print(f"{mode:>10}: local {best['local'][0]:.2f} s, remote {best['remote'][0]:.2f} s "
              f"(linesift CPU {best['remote'][1]:.2f} s, origin CPU "
              f"{'not counted' if args.origin else format(best['remote'][2], '.2f') + ' s'}): "
              f"remote throughput {ratio:.0%} of local")


if __name__ == "__main__":
    main()
