//! The magic numbers that open zstd frames (RFC 8878 §3.1.1) and
//! skippable frames (§3.1.2), named in one place for the fetcher's zstd
//! decoder (`codec::coding`) and the WARC reader (`warc`). It tells
//! frames by their first four bytes and decodes nothing.

/// The magic number opening a zstd frame, as it is written
/// (0xFD2FB528, little-endian).
pub(crate) const MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];
/// The sixteen magic numbers of skippable frames.
pub(crate) const SKIPPABLE_FIRST: u32 = 0x184D_2A50;
pub(crate) const SKIPPABLE_LAST: u32 = 0x184D_2A5F;

/// The little-endian number `prefix`'s first four bytes make, if it has
/// four.
pub(crate) fn magic(prefix: &[u8]) -> Option<u32> {
    let bytes: [u8; 4] = prefix.get(..4)?.try_into().ok()?;
    Some(u32::from_le_bytes(bytes))
}

/// Whether `prefix` starts with a zstd skippable frame.
pub fn is_skippable(prefix: &[u8]) -> bool {
    magic(prefix).is_some_and(|m| (SKIPPABLE_FIRST..=SKIPPABLE_LAST).contains(&m))
}

/// Whether `prefix` starts with a zstd frame or a skippable one (which
/// zstd decoders pass over: pzstd writes one before each frame).
pub(crate) fn opens_frame(prefix: &[u8]) -> bool {
    prefix.starts_with(&MAGIC) || is_skippable(prefix)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_told_by_their_first_four_bytes() {
        assert!(opens_frame(&[0x28, 0xb5, 0x2f, 0xfd, 0]));
        for first in [0x50, 0x55, 0x5f] {
            let skippable = [first, 0x2a, 0x4d, 0x18];
            assert!(is_skippable(&skippable) && opens_frame(&skippable));
        }
        for not in [
            &[0x4f, 0x2a, 0x4d, 0x18][..],
            &[0x60, 0x2a, 0x4d, 0x18],
            &[0x50, 0x2a, 0x4d],
        ] {
            assert!(!is_skippable(not) && !opens_frame(not), "{not:?}");
        }
        assert!(!opens_frame(&MAGIC[..3]));
    }
}
