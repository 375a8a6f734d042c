//! A stack of content codings (`gzip, br`, one per header line), undone
//! the coding applied last first, each layer fed what the one above it put
//! out: the one mechanism for the fetcher's streamed bodies ([`Stack`]) and
//! WARC payloads held whole ([`undo_whole`]), with the bounds of both
//! ([`MAX_CODINGS`], [`STACK_SLACK`], [`LAYER_MEMORY`]). What a layer is
//! (a [`Decoder`], or a caller's rule for a layer that may already be
//! undone) is given to it; it decides nothing about a body's meaning.

use super::coding::{Coding, DecodeError, Decoder};
use hyper::body::Bytes;
use std::borrow::Cow;

/// The most content codings decoded on one body: two, as the `gzip, gzip`
/// and `gzip, br` servers send. Each layer holds a decoder's window (see
/// [`LAYER_MEMORY`]) while the body streams in, and the deployment's
/// memory budget covers two (README, the memory per page in flight).
pub const MAX_CODINGS: usize = 2;

/// The most memory one decoder of a [`Stack`] holds, for memory budgets:
/// a brotli stream's window (16 MiB at most, RFC 7932) with its ring
/// buffer's slack and tables, the input it holds and a piece of output
/// (and brotli's scratch piece); about 22 MB was measured for one layer,
/// rounded up here. zstd's window is 8 MiB at most, gzip's and deflate's
/// 32 KiB.
pub const LAYER_MEMORY: u64 = 24 << 20;

/// How many more bytes a decoder inside a [`Stack`] may be given than
/// the whole stack has put out. A real page's inner streams are about as
/// long as the page or shorter (its compressed form); a stream that takes
/// far more than comes out of the stack (a zstd skippable frame of a
/// gigabyte of zeros, deflate's empty blocks, compressed again by the
/// outer coding) would make work the caller's limit on output never
/// bounds. The slack bounds that work: an inner stream may take at most
/// 32 MiB that come to nothing before the body fails, while a real
/// page's inner stream, compressed and so shorter than what it puts out
/// as it goes, never runs that far ahead.
pub const STACK_SLACK: u64 = 32 << 20;

/// What [`Stack::pull`] gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pulled {
    /// A piece of the decoded body, at most [`PIECE`] bytes.
    Piece(Bytes),
    /// A piece went from one coding's decoder to the next, or a layer
    /// was closed (the one before it had ended), and nothing came out
    /// yet: pull again. A stacked body may decode much inside before
    /// anything comes out, a step per pull, so that the caller can give
    /// the runtime its turn in between.
    Busy,
    /// The body's next chunk is needed ([`Stack::push`] it).
    Input,
    /// The decoded body has ended; the rest of the body is ignored.
    End,
}

/// How the end of a response's body is known, as far as decoding needs
/// to know it: whether a body that ends may have been cut there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// By its length (`Content-Length`, chunked, an HTTP/2 stream's end):
    /// a body cut short fails as it is read, so one that ends came whole.
    Delimited,
    /// By the connection's close (HTTP/1 with neither `Content-Length` nor
    /// chunking): a connection cut off ends the body as the server's
    /// close would.
    Close,
}

/// One body's decoders, one per content coding, the one for the coding
/// applied last fed the body and each next one fed what the one before
/// put out. One coding is a stack of one.
pub struct Stack {
    /// In the order they decode: the coding applied last first.
    layers: Vec<Layer>,
    /// Bytes the last layer put out.
    out: u64,
    framing: Framing,
}

struct Layer {
    decoder: Decoder,
    /// The layer before this one has put out all it will: this one's
    /// input is at its end, and its end was checked.
    closed: bool,
    /// Closed with nothing of its stream missing (see [`Layer::whole`]).
    closed_whole: bool,
    /// Bytes the layer before this one has given it.
    fed: u64,
}

impl Layer {
    /// Whether this layer will put out nothing more.
    fn done(&self) -> bool {
        self.closed || self.decoder.ended()
    }

    /// Whether this layer's stream has ended with nothing of it missing:
    /// it reached its end, or it was closed at a member's (frame's) end
    /// while the layers before it were whole too (for the first layer,
    /// while the body had a known length: see [`Stack::close`]). What it
    /// put out is then all there is: a stream inside it cut short was cut
    /// before it was compressed, not by the network.
    fn whole(&self) -> bool {
        self.decoder.ended() || self.closed_whole
    }
}

impl Stack {
    /// Decoders for `codings`, listed in the order they were applied (as
    /// [`Coding::applied`] gives them), at most [`MAX_CODINGS`], of a body
    /// whose end `framing` tells; `None` for none (the body is passed on
    /// as it came).
    pub fn new(codings: &[Coding], framing: Framing) -> Result<Option<Self>, DecodeError> {
        if codings.is_empty() {
            return Ok(None);
        }
        if codings.len() > MAX_CODINGS {
            return Err(DecodeError::TooManyCodings {
                count: codings.len(),
            });
        }
        let layers = codings
            .iter()
            .rev()
            .map(|&coding| {
                Ok(Layer {
                    decoder: Decoder::new(coding)?,
                    closed: false,
                    closed_whole: false,
                    fed: 0,
                })
            })
            .collect::<Result<_, DecodeError>>()?;
        Ok(Some(Stack {
            layers,
            out: 0,
            framing,
        }))
    }

    /// Adds the body's next chunk. Call when [`pull`](Self::pull) gave
    /// [`Pulled::Input`].
    pub fn push(&mut self, chunk: Bytes) {
        if let Some(first) = self.layers.first_mut() {
            first.decoder.push(chunk);
        }
    }

    /// The next piece of output, or what is needed to make one. Moves at
    /// most one piece from one layer to the next per call.
    pub fn pull(&mut self) -> Result<Pulled, DecodeError> {
        let Some(last) = self.layers.len().checked_sub(1) else {
            return Ok(Pulled::End);
        };
        if let Some(piece) = self.layers[last].decoder.pull()? {
            self.out += piece.len() as u64;
            return Ok(Pulled::Piece(piece));
        }
        if self.layers[last].done() {
            return Ok(Pulled::End);
        }
        // The last layer wants input: from the nearest layer before it
        // with a piece to give. Every layer after the one looked at has
        // just given nothing and is not done, as `push` and `finish` ask.
        for k in (0..last).rev() {
            match self.layers[k].decoder.pull()? {
                Some(piece) => {
                    let next = &mut self.layers[k + 1];
                    next.fed += piece.len() as u64;
                    if runs_ahead(next.fed, self.out) {
                        return Err(DecodeError::Corrupt {
                            coding: next.decoder.coding().name(),
                            message: format!(
                                "{} bytes of its stream decoded to only {} of the body",
                                next.fed, self.out
                            ),
                        });
                    }
                    next.decoder.push(piece);
                    return Ok(Pulled::Busy);
                }
                None if self.layers[k].done() => {
                    self.close(k + 1)?;
                    return Ok(Pulled::Busy);
                }
                None => {}
            }
        }
        Ok(Pulled::Input)
    }

    /// Checks the body's end, once [`pull`](Self::pull) gave
    /// [`Pulled::Input`] and there is none: each layer in turn, each one's
    /// input being at its end once the one before it has ended (see
    /// [`Decoder::finish`]).
    pub fn finish(&mut self) -> Result<(), DecodeError> {
        for k in 0..self.layers.len() {
            if !self.layers[k].closed {
                self.close(k)?;
            }
        }
        Ok(())
    }

    /// Closes layer `k`, whose input is at its end, checking its end. The
    /// first layer's input is the body, which the network may have cut:
    /// a stream cut short there is [`DecodeError::Truncated`]. A later
    /// layer's stream cut short inside a whole one (a brotli stream at its
    /// end, a gzip member with nothing after it) was cut before it was
    /// compressed: fetching it again gives the same, so it is damaged.
    ///
    /// But a body that ends at the connection's close ([`Framing::Close`])
    /// may have been cut right after a gzip member or zstd frame, and
    /// another would have followed: nothing tells that from the body's
    /// end. Its first layer is whole only when its stream ended of itself
    /// (a brotli or deflate stream's end, bytes after a member that open
    /// no other one), and a stream inside it cut short may have been cut
    /// by the network.
    fn close(&mut self, k: usize) -> Result<(), DecodeError> {
        let outer_whole = match k.checked_sub(1) {
            Some(outer) => self.layers.get(outer).map(Layer::whole),
            None if self.framing == Framing::Close => Some(false),
            None => None,
        };
        let Some(layer) = self.layers.get_mut(k) else {
            return Ok(());
        };
        layer.decoder.finish().map_err(|e| match e {
            DecodeError::Truncated { coding } if outer_whole == Some(true) => {
                DecodeError::Corrupt {
                    coding,
                    message: "stream cut short inside a whole outer stream".to_string(),
                }
            }
            e => e,
        })?;
        layer.closed = true;
        layer.closed_whole = outer_whole != Some(false) && layer.decoder.whole();
        Ok(())
    }
}

/// Whether an inner layer given `fed` bytes has run too far ahead of the
/// `out` bytes that came out of the stack ([`STACK_SLACK`]).
fn runs_ahead(fed: u64, out: u64) -> bool {
    fed > out.saturating_add(STACK_SLACK)
}

/// One layer of a body held whole, undone: the body for the layer under
/// it, and that layer's output when it is already known.
pub struct Undone<'a> {
    pub body: Cow<'a, [u8]>,
    /// The output of the layer under this one, when undoing this one made
    /// it already (a caller's rule may have decoded the body as that
    /// layer's stream to tell whether this one was applied): handed on, so
    /// that the layer under it is not undone a second time (it would give
    /// the same).
    pub next: Option<Vec<u8>>,
}

impl<'a> From<Cow<'a, [u8]>> for Undone<'a> {
    fn from(body: Cow<'a, [u8]>) -> Self {
        Undone { body, next: None }
    }
}

impl From<Vec<u8>> for Undone<'_> {
    fn from(out: Vec<u8>) -> Self {
        Cow::<[u8]>::Owned(out).into()
    }
}

/// An inner layer of a stack took far more than it gave
/// ([`STACK_SLACK`]): a damaged body, not a page that decoded to nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the inner {} stream of stacked codings takes {taken} bytes for {gave}", .coding.name())]
pub struct RanAhead {
    pub coding: Coding,
    pub taken: usize,
    pub gave: usize,
}

/// Undoes `codings` (listed in the order they were applied, as
/// [`Coding::listed`] gives them; a caller keeps to [`MAX_CODINGS`]) of a
/// `body` held whole, the last applied first. `layer(body, coding, under)`
/// undoes one layer (`under`: the coding undone after it, if any), each
/// output bounded as the caller's limit says; a layer that comes with its
/// output already ([`Undone::next`]) is not undone again. As in a
/// [`Stack`], an inner layer that takes more than [`STACK_SLACK`] bytes
/// beyond what it gives (a skippable zstd frame or empty gzip members,
/// compressed again: a few KiB of body for much decoding) is damaged:
/// `ran_ahead` makes the error.
pub fn undo_whole<'a, E>(
    mut body: Cow<'a, [u8]>,
    codings: &[Coding],
    mut layer: impl FnMut(Cow<'a, [u8]>, Coding, Option<Coding>) -> Result<Undone<'a>, E>,
    ran_ahead: impl FnOnce(RanAhead) -> E,
) -> Result<Cow<'a, [u8]>, E> {
    let mut next = None;
    for (i, &coding) in codings.iter().enumerate().rev() {
        let under = codings[..i].last().copied();
        let taken = body.len();
        let undone = match next.take() {
            Some(output) => Undone::from(output),
            None => layer(body, coding, under)?,
        };
        (body, next) = (undone.body, undone.next);
        let inner = i + 1 < codings.len();
        if inner && runs_ahead(taken as u64, body.len() as u64) {
            return Err(ran_ahead(RanAhead {
                coding,
                taken,
                gave: body.len(),
            }));
        }
    }
    Ok(body)
}
