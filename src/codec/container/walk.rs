//! Follows a compressed frame's structure through its bytes without
//! decoding it, for the zstd and LZ4 layers: a frame is a header, then
//! blocks, each a header and bytes its header sizes, up to the block that
//! ends the frame. The headers are gathered whole (however the bytes
//! arrive) and read by the format's [`Layout`], which says how many bytes
//! to pass over after each and what comes next. It lets a layer pass over
//! the rest of a frame given up part way, and tell a frame that ended from
//! one cut short. Costs a few comparisons per call, not per byte. It knows
//! no format itself.

/// A frame format's headers, as a [`Walk`] follows them.
pub(crate) trait Layout {
    /// The size of the frame header the walk gathers (at most
    /// [`MAX_HEAD`] bytes): enough of it to size the rest.
    const FRAME_HEAD: usize;
    /// The size of a block header.
    const BLOCK_HEAD: usize;
    /// Reads the frame header's first [`Layout::FRAME_HEAD`] bytes.
    fn frame_head(&mut self, head: &[u8]) -> Step;
    /// Reads a block header.
    fn block_head(&mut self, head: &[u8]) -> Step;
}

/// What a header says comes after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// This many bytes, then a block header.
    Block(u64),
    /// This many bytes, then the frame's end.
    End(u64),
    /// The bytes make no sense as this format's frame.
    Lost,
}

/// The longest header a [`Layout`] has the walk gather.
pub(crate) const MAX_HEAD: usize = 8;

#[derive(Debug, Default)]
pub(crate) struct Walk<L> {
    /// Bytes to pass before the next part.
    pass: u64,
    next: Part,
    /// The header's bytes gathered so far.
    head: [u8; MAX_HEAD],
    got: usize,
    layout: L,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Part {
    #[default]
    FrameHead,
    BlockHead,
    /// The end of the frame (once `pass` is 0).
    End,
    Lost,
}

impl<L: Layout> Walk<L> {
    /// Whether the walk is past the frame's last byte.
    pub(crate) fn done(&self) -> bool {
        self.next == Part::End && self.pass == 0
    }

    /// Whether the bytes made no sense as a frame.
    pub(crate) fn lost(&self) -> bool {
        self.next == Part::Lost
    }

    /// Follows the frame's next `bytes`; returns how many of them are the
    /// frame's (fewer than all only where it ends or makes no sense).
    pub(crate) fn follow(&mut self, bytes: &[u8]) -> usize {
        let mut used = 0;
        while used < bytes.len() && !self.done() && !self.lost() {
            let rest = &bytes[used..];
            if self.pass > 0 {
                let n = usize::try_from(self.pass).map_or(rest.len(), |p| p.min(rest.len()));
                self.pass -= n as u64;
                used += n;
                continue;
            }
            let want = match self.next {
                Part::FrameHead => L::FRAME_HEAD,
                _ => L::BLOCK_HEAD,
            }
            .min(MAX_HEAD);
            let n = (want - self.got).min(rest.len());
            self.head[self.got..self.got + n].copy_from_slice(&rest[..n]);
            (self.got, used) = (self.got + n, used + n);
            if self.got == want {
                self.got = 0;
                let head = &self.head[..want];
                let step = match self.next {
                    Part::FrameHead => self.layout.frame_head(head),
                    _ => self.layout.block_head(head),
                };
                (self.pass, self.next) = match step {
                    Step::Block(pass) => (pass, Part::BlockHead),
                    Step::End(pass) => (pass, Part::End),
                    Step::Lost => (0, Part::Lost),
                };
            }
        }
        used
    }
}
