#!/usr/bin/env python3
"""Build deploy/sample/sample.warc.gz from the hand-written pages in deploy/sample/site/.

Each page becomes a request/response pair as a crawler would have stored it
(http://sample/NAME, the URL the compose stack's nginx serves it under), after
a warcinfo record; robots.txt goes in as a text/plain response, which the
worker skips as not HTML. Dates and record ids are fixed, so running the
script again gives the same bytes.

    .venv/bin/python scripts/make-sample-warc.py [OUT]
"""

import io
import sys
import uuid
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "deploy" / "sample" / "site"
OUT = ROOT / "deploy" / "sample" / "sample.warc.gz"
DATE = "2024-05-01T12:00:00Z"
HTTP_DATE = "Wed, 01 May 2024 12:00:00 GMT"
NAMESPACE = uuid.UUID("6f1c3a52-9a55-4d0e-8f5e-2f4f0c1d7a10")


def record_id(name: str) -> str:
    return f"<urn:uuid:{uuid.uuid5(NAMESPACE, name)}>"


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    pages = sorted(p for p in SITE.iterdir() if p.suffix in (".html", ".txt"))
    with open(out, "wb") as fh:
        writer = WARCWriter(fh, gzip=True, warc_version="WARC/1.1")

        def write(record, name):
            record.rec_headers.replace_header("WARC-Date", DATE)
            record.rec_headers.replace_header("WARC-Record-ID", record_id(name))
            writer.write_record(record)

        info = writer.create_warcinfo_record(
            "sample.warc.gz",
            {"software": "scripts/make-sample-warc.py (warcio)", "description": "linesift docker-compose sample"},
        )
        write(info, "warcinfo")
        for page in pages:
            url = "http://sample/" + ("" if page.name == "index.html" else page.name)
            body = page.read_bytes()
            ctype = "text/html; charset=utf-8" if page.suffix == ".html" else "text/plain"
            req_headers = StatusAndHeaders(
                "GET /" + ("" if page.name == "index.html" else page.name) + " HTTP/1.1",
                [("Host", "sample"), ("User-Agent", "linesift-sample"), ("Accept", "*/*")],
                is_http_request=True,
            )
            request = writer.create_warc_record(url, "request", payload=io.BytesIO(b""), http_headers=req_headers)
            write(request, "request " + url)
            http_headers = StatusAndHeaders(
                "200 OK",
                [("Content-Type", ctype), ("Content-Length", str(len(body))), ("Date", HTTP_DATE)],
                protocol="HTTP/1.1",
            )
            response = writer.create_warc_record(url, "response", payload=io.BytesIO(body), http_headers=http_headers)
            write(response, "response " + url)
    print(f"wrote {out} ({out.stat().st_size} bytes, {len(pages)} pages)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
