//! A task list's lines as bytes, whatever it is stored as: a gzip file
//! (Common Crawl's `cdx-NNNNN.gz`, several members one after another) is
//! told by its magic bytes, not its name, and decompressed as it is read;
//! anything else is read as it is. `run` reads a list whole,
//! `enqueue` streams it.

use flate2::read::MultiGzDecoder;
use std::io::{self, BufRead, Read};
use std::path::Path;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, ReadBuf};

/// The first two bytes of every gzip member.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Chunks the decompressing thread keeps ahead of `enqueue`.
const AHEAD: usize = 4;

/// `bytes` as the list's text: decompressed when they are gzip.
pub fn decoded(bytes: Vec<u8>) -> io::Result<Vec<u8>> {
    if !bytes.starts_with(&GZIP_MAGIC) {
        return Ok(bytes);
    }
    let mut text = Vec::new();
    MultiGzDecoder::new(&bytes[..])
        .read_to_end(&mut text)
        .map_err(not_gzip)?;
    Ok(text)
}

/// Whether the list `list` (`-`: stdin) is gzip, by its first bytes,
/// which stay to be read (stdin's are peeked in its buffer).
pub fn is_gzip(list: &Path) -> io::Result<bool> {
    if list == Path::new("-") {
        let mut stdin = io::stdin().lock();
        return Ok(stdin.fill_buf()?.starts_with(&GZIP_MAGIC));
    }
    let mut magic = [0u8; 2];
    let mut file = std::fs::File::open(list)?;
    let mut got = 0;
    while got < magic.len() {
        match file.read(&mut magic[got..])? {
            0 => break,
            n => got += n,
        }
    }
    Ok(got == magic.len() && magic == GZIP_MAGIC)
}

/// The gzip list `list` (`-`: stdin) decompressed by a thread of its own
/// as it is read, in bounded memory. A read error, or bytes that are not
/// gzip part way, end the stream with that error.
pub fn gunzipped(list: &Path) -> io::Result<Gunzipped> {
    let source: Box<dyn Read + Send> = match list == Path::new("-") {
        true => Box::new(io::stdin()),
        false => Box::new(std::fs::File::open(list)?),
    };
    let (tx, rx) = tokio::sync::mpsc::channel(AHEAD);
    std::thread::Builder::new()
        .name("linesift-gunzip".into())
        .spawn(move || {
            let mut decoder = MultiGzDecoder::new(io::BufReader::with_capacity(1 << 16, source));
            loop {
                let mut chunk = vec![0u8; 1 << 16];
                let sent = match decoder.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(n) => {
                        chunk.truncate(n);
                        tx.blocking_send(Ok(chunk))
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => {
                        let _ = tx.blocking_send(Err(not_gzip(e)));
                        break;
                    }
                };
                // Nobody reads any more.
                if sent.is_err() {
                    break;
                }
            }
        })?;
    Ok(Gunzipped {
        rx,
        current: Vec::new(),
        at: 0,
    })
}

fn not_gzip(e: io::Error) -> io::Error {
    match e.kind() {
        io::ErrorKind::InvalidInput | io::ErrorKind::InvalidData | io::ErrorKind::UnexpectedEof => {
            io::Error::new(e.kind(), format!("corrupt or cut gzip: {e}"))
        }
        _ => e,
    }
}

/// A gzip list's text, as [`gunzipped`] decompresses it.
pub struct Gunzipped {
    rx: tokio::sync::mpsc::Receiver<io::Result<Vec<u8>>>,
    current: Vec<u8>,
    at: usize,
}

impl AsyncRead for Gunzipped {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        while this.at >= this.current.len() {
            match std::task::ready!(this.rx.poll_recv(cx)) {
                Some(Ok(chunk)) => {
                    this.current = chunk;
                    this.at = 0;
                }
                Some(Err(e)) => return Poll::Ready(Err(e)),
                None => return Poll::Ready(Ok(())),
            }
        }
        let n = buf.remaining().min(this.current.len() - this.at);
        buf.put_slice(&this.current[this.at..this.at + n]);
        this.at += n;
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::Compression;
    use flate2::write::GzEncoder;
    use std::io::Write;

    fn gzip(text: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), Compression::default());
        e.write_all(text).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn gzip_is_told_by_its_bytes_and_every_member_is_read() {
        let mut bytes = gzip(b"a 1\n");
        bytes.extend(gzip(b"b 2\n"));
        assert_eq!(decoded(bytes).unwrap(), b"a 1\nb 2\n");
        assert_eq!(decoded(b"a 1\n".to_vec()).unwrap(), b"a 1\n");
        assert_eq!(decoded(Vec::new()).unwrap(), b"");
    }

    #[test]
    fn a_cut_gzip_list_is_an_error() {
        let mut bytes = gzip(&b"a 1\n".repeat(100));
        bytes.truncate(bytes.len() - 10);
        let e = decoded(bytes).unwrap_err();
        assert!(e.to_string().contains("gzip"), "{e}");
    }
}
