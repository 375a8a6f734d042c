//! Follows a compressed frame's structure through its bytes without
//! decoding it, for the zstd and LZ4 layers: headers of a known size are
//! gathered whole (however the bytes arrive) and handed to the format's
//! [`Layout`], which says how many bytes to pass over after each (a
//! block's data). It lets a layer pass over the rest of a frame given up
//! part way, and tell a frame that ended from one cut short. Costs a few
//! comparisons per call, not per byte. It knows no format itself.

/// A frame format's structure, as a [`Walk`] follows it.
pub(crate) trait Layout {
    /// The size of the next header (at most [`MAX_HEAD`] bytes); asked only
    /// while the frame has neither ended nor been lost.
    fn head_len(&self) -> usize;
    /// Reads a whole header; returns how many bytes follow it that are
    /// passed over before the next header (or the frame's end).
    fn read_head(&mut self, head: &[u8]) -> u64;
    /// The last header read ends the frame (once its bytes are passed).
    fn ended(&self) -> bool;
    /// The bytes make no sense as this format's frame.
    fn lost(&self) -> bool;
}

/// The longest header a [`Layout`] asks for.
pub(crate) const MAX_HEAD: usize = 8;

#[derive(Debug, Default)]
pub(crate) struct Walk<L> {
    /// Bytes to pass before the next header.
    pass: u64,
    /// The header's bytes gathered so far.
    head: [u8; MAX_HEAD],
    got: usize,
    layout: L,
}

impl<L: Layout> Walk<L> {
    /// Whether the walk is past the frame's last byte.
    pub(crate) fn done(&self) -> bool {
        self.layout.ended() && self.pass == 0
    }

    pub(crate) fn lost(&self) -> bool {
        self.layout.lost()
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
            let want = self.layout.head_len().min(MAX_HEAD);
            let n = (want - self.got).min(rest.len());
            self.head[self.got..self.got + n].copy_from_slice(&rest[..n]);
            (self.got, used) = (self.got + n, used + n);
            if self.got == want {
                self.got = 0;
                self.pass = self.layout.read_head(&self.head[..want]);
            }
        }
        used
    }
}
