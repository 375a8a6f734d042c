#!/usr/bin/env python3
"""Builds a gzip and a zstd WARC from corpus pages (response records with
HTTP headers, one gzip member / zstd frame per record) and times
`linesift warc --jobs 1|2` against FastWARC + resiliparse's
extract_plain_text(main_content=True), printing records/s, MB/s
(compressed and uncompressed) and the ratio, of wall time and of CPU time
(user + system): `linesift warc --jobs 1` extracts on one thread but reads
and writes on two more, so its CPU time is the one-thread comparison.
Used by scripts/bench-warc.sh.
"""
import argparse
import csv
import io
import os
import resource
import subprocess
import time


def build(manifest, limit, out):
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter
    import zstandard

    base = os.path.dirname(manifest)
    with open(manifest, newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    if limit:
        rows = rows[:limit]
    plain = os.path.join(out, "bench.warc")
    files = {"gzip": plain + ".gz", "zstd": plain + ".zst"}
    # The WARCs of the last run are reused when made from the same pages of
    # an unchanged manifest (building them takes longer than a timing run).
    stamp = os.path.join(out, "bench.stamp")
    key = f"{os.path.abspath(manifest)} {os.path.getmtime(manifest)} {len(rows)}"
    if os.path.exists(stamp) and all(os.path.exists(p) for p in [plain, *files.values()]):
        with open(stamp) as f:
            if f.read() == key:
                return len(rows), os.path.getsize(plain), files
    with open(plain, "wb") as f:
        writer = WARCWriter(f, gzip=False)
        for row in rows:
            with open(os.path.join(base, row["html"]), "rb") as page:
                body = page.read()
            http = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
            uri = f"http://{row['dataset']}.example/{row['id']}"
            writer.write_record(writer.create_warc_record(uri, "response", payload=io.BytesIO(body), http_headers=http))
    records = split(plain)
    gz, zst = plain + ".gz", plain + ".zst"
    with open(gz, "wb") as f:
        import gzip
        for r in records:
            f.write(gzip.compress(r, 6))
    with open(zst, "wb") as f:
        c = zstandard.ZstdCompressor(level=3)
        for r in records:
            f.write(c.compress(r))
    with open(stamp, "w") as f:
        f.write(key)
    return len(rows), os.path.getsize(plain), files


def split(path):
    """The bytes of each record, by warcio's offsets."""
    from warcio.archiveiterator import ArchiveIterator

    with open(path, "rb") as f:
        data = f.read()
    offsets = []
    with open(path, "rb") as f:
        it = ArchiveIterator(f, no_record_parse=True)
        for rec in it:
            offsets.append(it.get_record_offset())
            rec.content_stream().read()
    offsets.append(len(data))
    return [data[a:b] for a, b in zip(offsets, offsets[1:])]


def run_linesift(binary, path, jobs, out):
    target = os.path.join(out, f"out-{jobs}.jsonl")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    res = subprocess.run([binary, "warc", path, "-o", target, "--jobs", str(jobs)], capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if res.returncode != 0:
        raise SystemExit(res.stderr)
    with open(target) as f:
        n = sum(1 for _ in f)
    return n, elapsed, cpu


def run_python(path, kind):
    from fastwarc.warc import ArchiveIterator, WarcRecordType
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.encoding import detect_encoding
    from resiliparse.parse.html import HTMLTree

    start, cpu = time.perf_counter(), time.process_time()
    raw = open(path, "rb")
    if kind == "zstd":
        import zstandard
        stream = zstandard.ZstdDecompressor().stream_reader(raw, read_across_frames=True)
    else:
        stream = raw
    n = 0
    for rec in ArchiveIterator(stream, record_types=WarcRecordType.response, parse_http=True):
        ct = rec.http_content_type or ""
        if rec.http_headers.status_code != 200 or "html" not in ct:
            continue
        payload = rec.reader.read()
        tree = HTMLTree.parse_from_bytes(payload, detect_encoding(payload))
        extract_plain_text(tree, main_content=True)
        n += 1
    raw.close()
    return n, time.perf_counter() - start, time.process_time() - cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--pages", type=int, default=0)
    ap.add_argument("--out", required=True)
    ap.add_argument("--linesift", required=True)
    a = ap.parse_args()
    pages, raw_size, files = build(a.manifest, a.pages, a.out)
    print(f"{pages} pages, {raw_size / 1e6:.1f} MB uncompressed WARC")
    print(f"{'input':6} {'tool':26} {'records':>7} {'s':>7} {'rec/s':>8} {'MB/s comp':>9} "
          f"{'MB/s raw':>8} {'vs py':>6} {'cpu s':>6} {'vs py cpu':>9}")
    for kind, path in files.items():
        size = os.path.getsize(path)
        py_n, py_t, py_cpu = run_python(path, kind)
        rows = [("fastwarc+resiliparse", py_n, py_t, py_cpu)]
        for jobs in (1, 2):
            n, t, cpu = run_linesift(a.linesift, path, jobs, a.out)
            rows.append((f"linesift --jobs {jobs}", n, t, cpu))
        for tool, n, t, cpu in rows:
            print(f"{kind:6} {tool:26} {n:7d} {t:7.2f} {n / t:8.1f} {size / 1e6 / t:9.2f} "
                  f"{raw_size / 1e6 / t:8.2f} {py_t / t:6.2f} {cpu:6.2f} {py_cpu / cpu:9.2f}")


if __name__ == "__main__":
    main()
