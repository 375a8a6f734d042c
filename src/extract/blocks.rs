//! Sixteen-byte blocks of a byte slice as vectors (`wide`: SSE2 on
//! x86-64, NEON on aarch64, plain code elsewhere), and tests on them that
//! give a bitmask with one bit per byte, bit `i` for the block's byte `i`.
//!
//! The loops that look for a few kinds of byte in text (text counting,
//! quotes, phrase ends) take their input a block at a time with these:
//! one test covers sixteen bytes, with no branch per byte. What the bytes
//! mean is the callers' business.

use wide::u8x16;

/// A block's bytes and which of them are the slice's.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Block {
    pub v: u8x16,
    /// The bits of the bytes that are the slice's: all sixteen, except
    /// for a block at the end, which is padded with zeros.
    pub present: u32,
}

/// All sixteen bytes.
const ALL: u32 = 0xffff;

impl Block {
    /// The sixteen bytes of `bytes` from `at` (padded with zeros past the
    /// end: the slice's last few bytes need no loop of their own).
    #[inline]
    pub(crate) fn at(bytes: &[u8], at: usize) -> Block {
        let rest = bytes.get(at..).unwrap_or_default();
        match rest.first_chunk::<16>() {
            Some(block) => Block {
                v: u8x16::new(*block),
                present: ALL,
            },
            None => {
                let mut block = [0u8; 16];
                block[..rest.len()].copy_from_slice(rest);
                Block {
                    v: u8x16::new(block),
                    present: (1 << rest.len()) - 1,
                }
            }
        }
    }

    /// [`Block::at`], with the padded block at the slice's end built by a
    /// cold call: a whole block is one range check and a load, where
    /// `Block::at` picks between the slice and an empty one first (two
    /// conditional moves) and then tests the length. For loops that read
    /// a block at a time from the rest of the text scanned (the attribute
    /// loop), which reach its end once a page (once a chunk when the page
    /// comes in pieces). Not `Block::at` itself: its
    /// callers would each take the change in inlining it brings.
    #[inline(always)]
    pub(crate) fn at_whole_first(bytes: &[u8], at: usize) -> Block {
        match bytes.get(at..at.wrapping_add(16)) {
            Some(block) => Block {
                v: u8x16::new(block.try_into().unwrap_or_default()),
                present: ALL,
            },
            // Fewer than sixteen bytes from `at` (none past the end).
            None => Block {
                v: u8x16::new(padded_tail(bytes, at).to_le_bytes()),
                present: (1 << bytes.len().saturating_sub(at).min(16)) - 1,
            },
        }
    }

    /// [`Block::at`], with the last block loaded from the slice's bytes
    /// (two loads that overlap in the middle, both the same bytes there)
    /// rather than copied into a zeroed block: no call to `memcpy` for a
    /// short slice, which `classify` reads for nearly every class value,
    /// most of which fit in one or two blocks. Not `Block::at` itself:
    /// there the larger body changed what the scan loops inline (+20 M
    /// instructions on every 15th corpus page).
    #[inline]
    pub(crate) fn at_unpadded(bytes: &[u8], at: usize) -> Block {
        let rest = bytes.get(at..).unwrap_or_default();
        if let Some(block) = rest.first_chunk::<16>() {
            return Block {
                v: u8x16::new(*block),
                present: ALL,
            };
        }
        let n = rest.len();
        let v = if let (Some(lo), Some(hi)) = (rest.first_chunk::<8>(), rest.last_chunk::<8>()) {
            // 8 to 15 bytes: the last eight end at byte n.
            u128::from(u64::from_le_bytes(*lo))
                | u128::from(u64::from_le_bytes(*hi)) << (8 * (n - 8))
        } else if let (Some(lo), Some(hi)) = (rest.first_chunk::<4>(), rest.last_chunk::<4>()) {
            u128::from(
                u64::from(u32::from_le_bytes(*lo))
                    | u64::from(u32::from_le_bytes(*hi)) << (8 * (n - 4)),
            )
        } else if let (Some(&first), Some(&last)) = (rest.first(), rest.last()) {
            // 1 to 3 bytes: the first, the middle one and the last.
            let middle = rest.get(n / 2).map_or(0, |&b| u128::from(b));
            u128::from(first) | middle << (8 * (n / 2)) | u128::from(last) << (8 * (n - 1))
        } else {
            0
        };
        Block {
            v: u8x16::new(v.to_le_bytes()),
            present: (1 << n) - 1,
        }
    }

    /// Are all sixteen bytes the slice's (not the block at its end)?
    #[inline]
    pub(crate) fn full(self) -> bool {
        self.present == ALL
    }

    /// The bytes equal to `b` (padding included: mask with `present`).
    #[inline]
    pub(crate) fn eq(self, b: u8) -> u32 {
        self.v.simd_eq(u8x16::splat(b)).to_bitmask()
    }

    /// The UTF-8 continuation bytes (none among the padding).
    #[inline]
    pub(crate) fn continuations(self) -> u32 {
        continuations(self.v)
    }

    /// The bytes at most `k` (unsigned; padding included).
    #[inline]
    pub(crate) fn at_most(self, k: u8) -> u32 {
        at_most(self.v, k)
    }
}

/// The bytes of `bytes` from `at` (fewer than sixteen), then zeros, as
/// one number: out of line and cold for [`Block::at_whole_first`], and
/// returned in two registers rather than through memory, as a `Block`
/// would be.
#[cold]
#[inline(never)]
fn padded_tail(bytes: &[u8], at: usize) -> u128 {
    u128::from_le_bytes(Block::at(bytes, at).v.to_array())
}

/// The UTF-8 continuation bytes of `v` (`10xxxxxx`).
#[inline]
pub(crate) fn continuations(v: u8x16) -> u32 {
    (v & u8x16::splat(0xc0))
        .simd_eq(u8x16::splat(0x80))
        .to_bitmask()
}

/// The bytes of `v` at most `k` (unsigned).
#[inline]
pub(crate) fn at_most(v: u8x16, k: u8) -> u32 {
    v.min(u8x16::splat(k)).simd_eq(v).to_bitmask()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_pad_the_end_with_zeros_and_say_so() {
        let bytes: Vec<u8> = (1..=20).collect();
        let whole = Block::at(&bytes, 0);
        assert_eq!(
            (whole.present, whole.eq(16), whole.eq(17)),
            (ALL, 1 << 15, 0)
        );
        let end = Block::at(&bytes, 16);
        assert_eq!(end.present, 0b1111);
        assert_eq!(end.eq(17), 1);
        assert_eq!(end.eq(0), 0xfff0);
        assert_eq!(Block::at(&bytes, 20).present, 0);
        assert!(whole.full() && !end.full());
        assert_eq!(Block::at(&bytes, 99).present, 0);
        assert_eq!(whole.at_most(3), 0b111);
        assert_eq!(at_most(u8x16::splat(0xff), 0xfe), 0);
    }

    /// Every short tail (each length under sixteen, from every offset) is
    /// its bytes then zeros.
    #[test]
    fn tails_are_their_bytes_then_zeros() {
        let bytes: Vec<u8> = (1..=40).collect();
        for start in 0..bytes.len() {
            for end in start..(start + 16).min(bytes.len() + 1) {
                let mut want = [0u8; 16];
                want[..end - start].copy_from_slice(&bytes[start..end]);
                let block = Block::at(&bytes[..end], start);
                assert_eq!(block.v.to_array(), want, "{start}..{end}");
                assert_eq!(block.present, (1 << (end - start)) - 1);
            }
        }
    }

    /// `at_whole_first` and `at_unpadded` load what `at` loads: whole
    /// blocks, the padded last one (each length under sixteen, from every
    /// offset) and none past the end alike.
    #[test]
    fn other_loads_are_padded_blocks() {
        type Load = fn(&[u8], usize) -> Block;
        let loads: [(&str, Load); 2] = [
            ("at_whole_first", Block::at_whole_first),
            ("at_unpadded", Block::at_unpadded),
        ];
        let bytes: Vec<u8> = (1..=40).collect();
        for (name, load) in loads {
            for end in 0..=bytes.len() {
                for at in 0..=end + 16 {
                    let slice = &bytes[..end];
                    let (got, want) = (load(slice, at), Block::at(slice, at));
                    assert_eq!(got.v.to_array(), want.v.to_array(), "{name}: {at} of {end}");
                    assert_eq!(got.present, want.present, "{name}: {at} of {end}");
                }
            }
        }
        let got = Block::at_whole_first(&bytes, usize::MAX);
        assert_eq!((got.v.to_array(), got.present), ([0; 16], 0));
    }
}
