#!/usr/bin/env python3
"""Test helper for linesift's WARC tests: writes WARC files with warcio and
reads WARC/WET files back with warcio or FastWARC, talking JSON.

  warc_testlib.py make OUT [--gzip]   < spec.json   -> [{id, offset, length, type}]
  warc_testlib.py lz4 IN OUT                           -> [{id, offset}]
  warc_testlib.py read PATH warcio|fastwarc          -> [{type, id, refers_to, target, date, content_type, payload,
                                                         filename, language, digest, digest_ok}]
  warc_testlib.py records PATH warcio|fastwarc       -> {records: [{type, target, date, payload_hex}], error}

digest_ok: the WARC-Block-Digest (sha1:BASE32) matches the block as read,
null when there is none. warcio also checks it itself (check_digests="raise").

lz4 rewrites the WARC file IN with FastWARC as an LZ4 WARC, one LZ4 frame a
record (FastWARC's per-record framing), and lists the records as FastWARC
reads OUT back: their ids and offsets (frame starts).

A spec is a list of records: {"type": "response"|"resource"|"request"|...,
"uri": ..., "status": "200 OK", "headers": [[k, v], ...], "body_hex": ...,
"content_type": ... (resource), "identified": ... (optional), "date": ... (the
WARC-Date as written, optional)}.
"""
import base64
import hashlib
import io
import json
import sys


def fields(get, block):
    """The headers every reader reports beyond the common ones, and whether
    the block digest matches the block."""
    digest = get("WARC-Block-Digest")
    ok = None
    if digest:
        ok = digest == "sha1:" + base64.b32encode(hashlib.sha1(block).digest()).decode()
    return {"filename": get("WARC-Filename"), "language": get("WARC-Identified-Content-Language"),
            "digest": digest, "digest_ok": ok}


def make(out, gzip):
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter
    from warcio.archiveiterator import ArchiveIterator

    spec = json.load(sys.stdin)
    with open(out, "wb") as f:
        writer = WARCWriter(f, gzip=gzip)
        for r in spec:
            body = bytes.fromhex(r.get("body_hex", ""))
            warc_headers = None
            # warcio writes the time of the run unless given a WARC-Date;
            # an empty one it would write and then add the run's time after
            # it, so "" is taken as none (a test wanting a blank WARC-Date
            # writes the record's bytes itself).
            dated = {"WARC-Date": r["date"]} if r.get("date") else None
            if r.get("identified"):
                warc_headers = StatusAndHeaders("", [("WARC-Identified-Payload-Type", r["identified"])] + list((dated or {}).items()),
                                                protocol="WARC/1.0")
            if r["type"] == "response":
                http = StatusAndHeaders(r.get("status", "200 OK"), [tuple(h) for h in r.get("headers", [])], protocol="HTTP/1.1")
                rec = writer.create_warc_record(r["uri"], "response", payload=io.BytesIO(body), http_headers=http,
                                                warc_headers_dict=dated, warc_headers=warc_headers)
            elif r["type"] == "request":
                http = StatusAndHeaders("GET / HTTP/1.1", [("Host", "example.org")], is_http_request=True)
                rec = writer.create_warc_record(r["uri"], "request", payload=io.BytesIO(b""), http_headers=http)
            else:
                rec = writer.create_warc_record(r["uri"], r["type"], payload=io.BytesIO(body),
                                                warc_content_type=r.get("content_type", "text/html"),
                                                warc_headers_dict=dated, warc_headers=warc_headers)
            writer.write_record(rec)
    result = []
    with open(out, "rb") as f:
        it = ArchiveIterator(f, no_record_parse=True)
        for rec in it:
            result.append({"id": rec.rec_headers.get_header("WARC-Record-ID"), "type": rec.rec_type,
                           "offset": it.get_record_offset(), "length": None})
            rec.content_stream().read()
            result[-1]["length"] = it.get_record_length()
    json.dump(result, sys.stdout)


def read_warcio(path):
    from warcio.archiveiterator import ArchiveIterator

    out = []
    with open(path, "rb") as f:
        for rec in ArchiveIterator(f, check_digests="raise"):
            h = rec.rec_headers
            block = rec.content_stream().read()
            out.append({"type": rec.rec_type, "id": h.get_header("WARC-Record-ID"),
                        "refers_to": h.get_header("WARC-Refers-To"), "target": h.get_header("WARC-Target-URI"),
                        "date": h.get_header("WARC-Date"), "content_type": h.get_header("Content-Type"),
                        "payload": block.decode("utf-8"), **fields(h.get_header, block)})
    return out


def read_fastwarc(path):
    from fastwarc.warc import ArchiveIterator, WarcRecordType

    out = []
    # FastWARC detects gzip and zstd from the bytes.
    for rec in ArchiveIterator(str(path), record_types=WarcRecordType.any_type, parse_http=False):
        h = rec.headers
        block = rec.reader.read()
        out.append({"type": h.get("WARC-Type"), "id": rec.record_id, "refers_to": h.get("WARC-Refers-To"),
                    "target": h.get("WARC-Target-URI"), "date": h.get("WARC-Date"),
                    "content_type": h.get("Content-Type"), "payload": block.decode("utf-8"),
                    **fields(h.get, block)})
    return out


def records(path, library):
    """Every record the library reads from PATH (WARC or, for warcio, ARC),
    as leniently as it reads them, with the HTTP payload as read (after the
    HTTP head, when it parses one), and the error that ended reading, if
    any: the records it gives before that are what a user of the library
    gets."""
    out, error = [], None
    try:
        if library == "warcio":
            from warcio.archiveiterator import ArchiveIterator

            with open(path, "rb") as f:
                for rec in ArchiveIterator(f, arc2warc=True):
                    h = rec.rec_headers
                    payload = rec.content_stream().read()
                    out.append({"type": rec.rec_type, "target": h.get_header("WARC-Target-URI"),
                                "date": h.get_header("WARC-Date"), "payload_hex": payload.hex()})
        else:
            from fastwarc.warc import ArchiveIterator, WarcRecordType

            for rec in ArchiveIterator(str(path), record_types=WarcRecordType.any_type, parse_http=True):
                h = rec.headers
                payload = rec.reader.read()
                out.append({"type": h.get("WARC-Type"), "target": h.get("WARC-Target-URI"),
                            "date": h.get("WARC-Date"), "payload_hex": payload.hex()})
    except Exception as e:  # what the library gave up with
        error = f"{type(e).__name__}: {e}"
    return {"records": out, "error": error}


def lz4(src, out):
    from fastwarc.stream_io import Lz4Writer
    from fastwarc.warc import ArchiveIterator, WarcRecordType

    writer = Lz4Writer(out)
    for rec in ArchiveIterator(src, record_types=WarcRecordType.any_type, parse_http=False):
        rec.write(writer)
        writer.finish()
    writer.close()
    return [{"id": rec.record_id, "offset": rec.stream_pos}
            for rec in ArchiveIterator(out, record_types=WarcRecordType.any_type, parse_http=False)]


def main():
    cmd = sys.argv[1]
    if cmd == "make":
        make(sys.argv[2], "--gzip" in sys.argv[3:])
    elif cmd == "lz4":
        json.dump(lz4(sys.argv[2], sys.argv[3]), sys.stdout)
    elif cmd == "records":
        json.dump(records(sys.argv[2], sys.argv[3]), sys.stdout)
    elif cmd == "read":
        reader = {"warcio": read_warcio, "fastwarc": read_fastwarc}[sys.argv[3]]
        json.dump(reader(sys.argv[2]), sys.stdout)
    else:
        sys.exit(f"unknown command {cmd}")


if __name__ == "__main__":
    main()
