#!/usr/bin/env python3
"""Add seeds to the fuzz targets' seed corpora in fuzz/corpus/<target>/ from the
project's fixtures: tests/fixtures/*.html, the sample site and its WARC
(deploy/sample/), HTML written inline in tests/*.rs, and the hand-written
seeds in fuzz/seeds/<target>/. Standard library only; zstd seeds need the
`zstd` command and are left out without it.

    python3 fuzz/seed.py
"""

import gzip
import hashlib
import json
import re
import shutil
import subprocess
import zlib
from pathlib import Path

FUZZ = Path(__file__).resolve().parent
ROOT = FUZZ.parent
CORPUS = FUZZ / "corpus"


def put(target: str, data: bytes) -> None:
    d = CORPUS / target
    d.mkdir(parents=True, exist_ok=True)
    (d / ("seed-" + hashlib.sha1(data).hexdigest()[:16])).write_bytes(data)


def unescape(s: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t", "0": "\0"}.get(m[1], m[1]), s)


def html_pages() -> list[bytes]:
    pages = [p.read_bytes() for p in sorted((ROOT / "tests" / "fixtures").glob("*.html"))]
    pages += [p.read_bytes() for p in sorted((ROOT / "deploy" / "sample" / "site").glob("*.html"))]
    for rs in sorted((ROOT / "tests").glob("*.rs")):
        src = rs.read_text(encoding="utf-8")
        for m in re.finditer(r'r#"(.*?)"#', src, re.S):
            if "<" in m[1] and len(m[1]) >= 20:
                pages.append(m[1].encode())
        for m in re.finditer(r'b?"(<(?:[^"\\]|\\.)*)"', src):
            if len(m[1]) >= 20:
                pages.append(unescape(m[1]).encode("utf-8", "replace"))
    return pages


def warc_record(rtype: str, uri: str, block: bytes, n: int, extra: str = "") -> bytes:
    head = (
        f"WARC/1.1\r\nWARC-Type: {rtype}\r\n"
        f"WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-{n:012d}>\r\n"
        f"WARC-Date: 2024-05-01T12:00:00Z\r\nWARC-Target-URI: {uri}\r\n{extra}"
        f"Content-Length: {len(block)}\r\n\r\n"
    )
    return head.encode() + block + b"\r\n\r\n"


def chunked(body: bytes) -> bytes:
    out = b""
    for i in range(0, len(body), 300):
        part = body[i : i + 300]
        out += b"%x\r\n" % len(part) + part + b"\r\n"
    return out + b"0\r\n\r\n"


def http_response(body: bytes, headers: list[tuple[str, str]], status: str = "200 OK") -> bytes:
    head = f"HTTP/1.1 {status}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers) + "\r\n"
    return head.encode() + body


def warc_files(pages: list[bytes]) -> list[list[bytes]]:
    """Small WARCs as lists of records (uncompressed)."""
    html = pages[0]
    ct = ("Content-Type", "text/html; charset=utf-8")
    resp = "Content-Type: application/http; msgtype=response\r\n"
    records = [
        warc_record("warcinfo", "", b"software: fuzz-seed\r\n", 1, "Content-Type: application/warc-fields\r\n"),
        warc_record("response", "http://a.example/", http_response(html, [ct]), 2, resp),
        warc_record("response", "http://b.example/", http_response(chunked(html), [ct, ("Transfer-Encoding", "chunked")]), 3, resp),
        warc_record("response", "http://c.example/", http_response(gzip.compress(html), [ct, ("Content-Encoding", "gzip")]), 4, resp),
        warc_record("response", "http://d.example/", http_response(zlib.compress(html), [ct, ("Content-Encoding", "deflate")]), 5, resp),
        warc_record("response", "http://e.example/", http_response(b"gone", [ct], "404 Not Found"), 6, resp),
        warc_record("response", "http://f.example/", http_response(html, []), 7, resp),
        warc_record("resource", "http://g.example/", html, 8, "Content-Type: text/html; charset=windows-1252\r\n"),
        warc_record("request", "http://a.example/", b"GET / HTTP/1.1\r\nHost: a.example\r\n\r\n", 9, "Content-Type: application/http; msgtype=request\r\n"),
        warc_record("response", "dns:a.example", b"20240501120000\na.example. 60 IN A 10.0.0.1\n", 10, "Content-Type: text/dns\r\n"),
    ]
    small = http_response(b"<html><title>t</title><p>hello</p>", [ct])
    return [
        records,
        records[:2],
        [warc_record("response", "http://s.example/", small, 11, resp)],
        # Broken: Content-Length too large, missing record id, bad version.
        [records[1][:-40]],
        [records[1].replace(b"WARC-Record-ID", b"WARC-Record-XX")],
        [b"WARC/9.9\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n"],
    ]


def zstd_frames(records: list[bytes]) -> bytes | None:
    if not shutil.which("zstd"):
        return None
    out = b""
    for r in records:
        out += subprocess.run(["zstd", "-q", "-c", "-1"], input=r, capture_output=True, check=True).stdout
    return out


def varint(n: int) -> bytes:
    out = b""
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def field(num: int, value) -> bytes:
    if isinstance(value, int):
        return varint(num << 3) + varint(value)
    if isinstance(value, str):
        value = value.encode()
    return varint(num << 3 | 2) + varint(len(value)) + value


def main() -> int:
    pages = html_pages()
    sample_gz = (ROOT / "deploy" / "sample" / "sample.warc.gz").read_bytes()
    sample = gzip.decompress(sample_gz)

    for i, page in enumerate(pages):
        put("extract_whole", bytes([i % 30]) + page)
        put("extract_chunked", bytes([i % 256, i * 37 % 256, i * 71 % 256]) + page)
        put("charset", bytes([0]) + page)
    # Larger than the charset sniff window (16 KiB), a multi-byte character
    # across its end, so chunked feeding crosses the decision point.
    big = b"<html><body>" + b"<p>" + "Grüße aus der Stadt. ".encode() * 800 + b"</p></body></html>"
    put("extract_chunked", b"\x04\x00\xc0" + big)
    put("extract_whole", b"\x04" + big)
    put("charset", b"\x00" + big)
    for label_index, codec in [(4, "windows-1251"), (6, "shift_jis"), (8, "gb18030"), (2, "latin-1")]:
        text = "<html><head><title>Привет 日本 Grüße</title></head><body><p>Текст テキスト Straße</p></body></html>"
        data = text.encode(codec, "replace")
        put("charset", bytes([0]) + data)
        put("charset", bytes([label_index]) + data)
        put("charset", bytes([15]) + b"text/html; charset=" + codec.encode() + b"\n" + data)
        put("extract_whole", bytes([4]) + data)
    for bom, codec in [(b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")]:
        data = bom + "<p>BOM text ünïcødé</p>".encode(codec)
        put("charset", bytes([1]) + data)
        put("extract_chunked", b"\x04\x01\x00" + data)

    put("warc_plain", sample_gz)
    put("warc_plain", sample)
    for records in warc_files(pages):
        text = b"".join(records)
        put("warc_plain", text)
        put("warc_plain", gzip.compress(text))
        put("warc_plain", b"".join(gzip.compress(r) for r in records))
        z = zstd_frames(records)
        if z is not None:
            put("warc_plain", z)
        for target in ("warc_gzip", "warc_zstd"):
            put(target, b"\x00\x00\x00" + text)
    for target in ("warc_gzip", "warc_zstd"):
        put(target, b"\x00\x00\x00" + sample)

    html = pages[0]
    ct = ("Content-Type", "text/html; charset=utf-8")
    for control, resp in [
        (0, http_response(html, [ct])),
        (0, http_response(chunked(html), [ct, ("Transfer-Encoding", "chunked")])),
        (0, http_response(gzip.compress(html), [ct, ("Content-Encoding", "gzip")])),
        (0, http_response(zlib.compress(html), [ct, ("Content-Encoding", "deflate")])),
        (0, http_response(zlib.compress(html)[2:-4], [ct, ("Content-Encoding", "deflate")])),
        (0, http_response(html, [ct, ("Content-Encoding", "br")])),
        (1, http_response(html, [ct])),
        (2, http_response(html, [ct])),
        (3, http_response(html, [ct])),
        (0x81, http_response(chunked(html), [ct])),
        (0, b"HTTP/1.0 200 OK\nContent-Type: text/html\n X-Folded: yes\n\n<p>lf only</p>"),
    ]:
        put("http_head", bytes([control]) + resp)

    tasks = [
        {"id": "t1", "url": "http://example.com/"},
        {"id": "t2", "warc_file": {"path": "a.warc.gz"}, "attempt": 2},
        {"id": "t3", "warc_record": {"path": "a.warc.gz", "offset": 1234, "length": 99}, "created_unix": 1714564800},
    ]
    for t in tasks:
        source = {k: v for k, v in t.items() if k in ("url", "warc_file", "warc_record")}
        as_json = {k: v for k, v in t.items() if k not in source} | {"source": source}
        put("task_decode", bytes([3]) + json.dumps(as_json).encode())
        pb = field(1, t["id"])
        if "url" in t:
            pb += field(2, t["url"])
        if "warc_file" in t:
            pb += field(3, field(1, t["warc_file"]["path"]))
        if "warc_record" in t:
            r = t["warc_record"]
            pb += field(4, field(1, r["path"]) + field(2, r["offset"]) + field(3, r["length"]))
        for k, num in (("attempt", 5), ("created_unix", 6)):
            if k in t:
                pb += field(num, t[k])
        put("task_decode", bytes([0]) + pb)
        put("task_decode", bytes([1]) + pb)
    put("task_decode", bytes([4]) + b'{"id":"x","source":{"warc_record":{"path":"a.warc","offset":5}}}')

    # Hand-written seeds, copied as they are.
    for d in sorted((FUZZ / "seeds").glob("*")):
        for f in sorted(d.iterdir()):
            put(d.name, f.read_bytes())

    for d in sorted(CORPUS.iterdir()):
        print(f"{d.name}: {len(list(d.iterdir()))} seeds")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
