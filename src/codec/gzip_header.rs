//! The gzip member header (RFC 1952 §2.3), read in one place for the
//! fetcher's gzip decoder (`codec::coding`) and the WARC reader (`warc`):
//! ten fixed bytes (magic, method `CM`, flags `FLG`, time, `XFL`, OS),
//! then the optional fields the flags announce, in this order: the extra
//! field (`FEXTRA`: a 2-byte little-endian length, then that many bytes),
//! the name (`FNAME`) and comment (`FCOMMENT`), each ended by a NUL, and
//! the header CRC (`FHCRC`: the low 16 bits of the CRC-32 of the header's
//! bytes before it, low byte first).
//!
//! It reads a header in a slice ([`fields_end`], [`crc_ok`]) or fed a
//! member's bytes as they come ([`Tracker`]), and tells where the header
//! ends, whether its CRC is right and whether zlib takes its method and
//! flags ([`zlib_takes`]), and names the magic number ([`MAGIC`]) for
//! the callers that look for members. It decodes nothing, does not check
//! the magic number, `XFL` or the OS byte, and sets no bound on a header's length:
//! which headers to take for a member's start is its callers' rule.

/// Flag bits of `FLG` (RFC 1952 §2.3.1).
pub(crate) const FHCRC: u8 = 0x02;
pub(crate) const FEXTRA: u8 = 0x04;
pub(crate) const FNAME: u8 = 0x08;
pub(crate) const FCOMMENT: u8 = 0x10;
/// The flag bits RFC 1952 reserves: zlib fails a header with one set.
pub(crate) const RESERVED: u8 = 0xe0;
/// `CM` for deflate, the one method defined (and the one zlib takes).
pub(crate) const DEFLATE: u8 = 8;
/// The magic number (`ID1`, `ID2`) every member starts with.
pub(crate) const MAGIC: [u8; 2] = [0x1f, 0x8b];
/// The magic number and deflate's `CM`: how every member zlib takes
/// starts.
pub(crate) const DEFLATE_START: [u8; 3] = [MAGIC[0], MAGIC[1], DEFLATE];

/// The fixed part's length, and where `CM` and `FLG` stand in it.
const FIXED: usize = 10;
const CM_AT: usize = 2;
const FLG_AT: usize = 3;

/// Whether zlib takes a header of method `method` and flags `flags`:
/// deflate, and no reserved flag bit set.
pub(crate) fn zlib_takes(method: u8, flags: u8) -> bool {
    method == DEFLATE && flags & RESERVED == 0
}

/// An optional field of the header.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Field {
    Extra,
    Name,
    Comment,
    Crc,
}

/// The optional fields, each with its flag, in the order a header holds
/// them.
const FIELDS: [(u8, Field); 4] = [
    (FEXTRA, Field::Extra),
    (FNAME, Field::Name),
    (FCOMMENT, Field::Comment),
    (FHCRC, Field::Crc),
];

/// The fields `flags` announce, in their order, from the `from`th of
/// [`FIELDS`] on.
fn announced(flags: u8, from: usize) -> impl Iterator<Item = Field> {
    FIELDS
        .into_iter()
        .skip(from)
        .filter(move |&(flag, _)| flags & flag != 0)
        .map(|(_, field)| field)
}

/// Whether `stored`, an `FHCRC` field as it came, is the header CRC of
/// bytes whose CRC-32 is `crc`: its low 16 bits.
fn crc_matches(crc: &flate2::Crc, stored: [u8; 2]) -> bool {
    crc.sum() & 0xffff == u32::from(u16::from_le_bytes(stored))
}

/// Where the gzip member header `h` begins with ends, past its optional
/// fields as its flags (`h[3]`) announce them, if they end within `h`.
/// Nothing else of the header is looked at.
pub(crate) fn fields_end(h: &[u8]) -> Option<usize> {
    let flags = *h.get(FLG_AT)?;
    let mut len = FIXED;
    for field in announced(flags, 0) {
        len += match field {
            Field::Extra => {
                let xlen: [u8; 2] = h.get(len..len + 2)?.try_into().ok()?;
                2 + usize::from(u16::from_le_bytes(xlen))
            }
            Field::Name | Field::Comment => memchr::memchr(0, h.get(len..)?)? + 1,
            Field::Crc => 2,
        };
    }
    (len <= h.len()).then_some(len)
}

/// Whether the gzip member header `header` (all of it, as [`fields_end`]
/// tells its end) carries no header CRC or a right one: with `FHCRC` set,
/// its last two bytes are the low 16 bits of the CRC-32 of the bytes
/// before them. A header too short to hold its flags carries none.
pub(crate) fn crc_ok(header: &[u8]) -> bool {
    if header.get(FLG_AT).is_none_or(|flags| flags & FHCRC == 0) {
        return true;
    }
    let Some((before, stored)) = header.split_last_chunk::<2>() else {
        return false;
    };
    let mut crc = flate2::Crc::new();
    crc.update(before);
    crc_matches(&crc, *stored)
}

/// How far a gzip member's header has come, fed the member's bytes in
/// order (any number at a time, without keeping them: a name or comment
/// may be of any length), and whether it is one zlib takes.
#[derive(Default)]
pub(crate) struct Tracker {
    /// Bytes of the fixed part seen (ten when whole).
    fixed: u8,
    /// The compression method (`CM`) and flags (`FLG`) bytes, once seen.
    method: u8,
    flags: u8,
    /// Where the optional fields have got.
    part: Part,
    /// The CRC-32 of the header's bytes before its header CRC, and that
    /// CRC's bytes as they came (low byte first).
    crc: flate2::Crc,
    stored_crc: [u8; 2],
}

#[derive(Default, Clone, Copy, PartialEq, Eq)]
enum Part {
    /// In the fixed part.
    #[default]
    Fixed,
    /// In `XLEN` (`seen` of its two bytes; the first kept in `low`).
    ExtraLen { seen: u8, low: u8 },
    /// In the extra field, `left` bytes of it to come.
    Extra { left: u16 },
    /// In the NUL-ended name.
    Name,
    /// In the NUL-ended comment.
    Comment,
    /// In the header CRC, `left` bytes of it to come.
    Crc { left: u8 },
    /// The header is whole: what follows is compressed data.
    Done,
}

impl Clone for Tracker {
    fn clone(&self) -> Self {
        // `Crc` is not `Clone`: an empty one combined with this one is
        // the same.
        let mut crc = flate2::Crc::new();
        crc.combine(&self.crc);
        Tracker { crc, ..*self }
    }
}

impl Tracker {
    /// The header after `bytes` too.
    pub(crate) fn fed(mut self, bytes: &[u8]) -> Self {
        self.feed(bytes);
        self
    }

    /// Takes the member's next bytes; those after the header are ignored.
    pub(crate) fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if self.part == Part::Done {
                return;
            }
            if let Part::Crc { left } = self.part {
                if let Some(slot) = self.stored_crc.get_mut(usize::from(2 - left.min(2))) {
                    *slot = b;
                }
            } else {
                self.crc.update(&[b]);
            }
            match self.part {
                Part::Fixed => {
                    match usize::from(self.fixed) {
                        CM_AT => self.method = b,
                        FLG_AT => self.flags = b,
                        _ => {}
                    }
                    self.fixed += 1;
                    if usize::from(self.fixed) == FIXED {
                        self.part = self.next_from(0);
                    }
                }
                Part::ExtraLen { seen: 0, .. } => {
                    self.part = Part::ExtraLen { seen: 1, low: b };
                }
                Part::ExtraLen { low, .. } => {
                    let left = u16::from_le_bytes([low, b]);
                    self.part = if left == 0 {
                        self.next_from(1)
                    } else {
                        Part::Extra { left }
                    };
                }
                Part::Extra { left } => {
                    self.part = if left <= 1 {
                        self.next_from(1)
                    } else {
                        Part::Extra { left: left - 1 }
                    };
                }
                Part::Name if b == 0 => self.part = self.next_from(2),
                Part::Comment if b == 0 => self.part = self.next_from(3),
                Part::Name | Part::Comment => {}
                Part::Crc { left } => {
                    self.part = if left <= 1 {
                        Part::Done
                    } else {
                        Part::Crc { left: left - 1 }
                    };
                }
                Part::Done => {}
            }
        }
    }

    /// The part of the first optional field from the `from`th of
    /// [`FIELDS`] on that the flags announce, or `Done`.
    fn next_from(&self, from: usize) -> Part {
        announced(self.flags, from)
            .next()
            .map_or(Part::Done, |field| match field {
                Field::Extra => Part::ExtraLen { seen: 0, low: 0 },
                Field::Name => Part::Name,
                Field::Comment => Part::Comment,
                Field::Crc => Part::Crc { left: 2 },
            })
    }

    /// Whether the header came whole.
    pub(crate) fn whole(&self) -> bool {
        self.part == Part::Done
    }

    /// Whether the header, whole, is one zlib takes ([`zlib_takes`]) with
    /// the header CRC right when there is one.
    pub(crate) fn valid(&self) -> bool {
        let crc_right = self.flags & FHCRC == 0 || crc_matches(&self.crc, self.stored_crc);
        self.whole() && zlib_takes(self.method, self.flags) && crc_right
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CRC-32 (the gzip one: reflected, polynomial 0xEDB88320), bit by
    /// bit: worked out apart from flate2's, which the code uses.
    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in bytes {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xedb8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    /// A header of `flags` (with method 8) and `fields`, and its right
    /// header CRC after them when `flags` announce one.
    fn header(flags: u8, fields: &[u8]) -> Vec<u8> {
        let mut h = [&[0x1f, 0x8b, 8, flags, 1, 2, 3, 4, 0, 3][..], fields].concat();
        if flags & FHCRC != 0 {
            let crc = crc32(&h).to_le_bytes();
            h.extend(&crc[..2]);
        }
        h
    }

    const EXTRA: &[u8] = &[3, 0, b'a', 0, b'b'];
    const NAME: &[u8] = b"page.html\0";
    const COMMENT: &[u8] = b"a comment\0";

    /// Each flag alone and several together: the header's length, and
    /// its fields in the announced order.
    fn headers() -> Vec<(Vec<u8>, usize)> {
        let all = [EXTRA, NAME, COMMENT].concat();
        [
            (header(0, b""), FIXED),
            (header(FEXTRA, EXTRA), FIXED + 5),
            (header(FEXTRA, &[0, 0]), FIXED + 2),
            (header(FNAME, NAME), FIXED + 10),
            (header(FNAME, b"\0"), FIXED + 1),
            (header(FCOMMENT, COMMENT), FIXED + 10),
            (header(FHCRC, b""), FIXED + 2),
            (header(FEXTRA | FNAME, &[EXTRA, NAME].concat()), FIXED + 15),
            (header(FNAME | FHCRC, NAME), FIXED + 12),
            (
                header(FEXTRA | FNAME | FCOMMENT | FHCRC, &all),
                FIXED + 5 + 10 + 10 + 2,
            ),
        ]
        .into_iter()
        .collect()
    }

    #[test]
    fn fields_end_past_each_announced_field() {
        for (h, len) in headers() {
            assert_eq!(h.len(), len, "{h:?}");
            assert_eq!(fields_end(&h), Some(len), "{h:?}");
            // Data after the header is not part of it, NULs in it neither.
            let with_data = [&h[..], &[0, 0, 7, 0]].concat();
            assert_eq!(fields_end(&with_data), Some(len), "{h:?}");
        }
        // The extra field's NUL ends no name: its length says where the
        // name starts.
        let h = header(FEXTRA | FNAME, &[&[2, 0, 0, 0][..], b"n\0"].concat());
        assert_eq!(fields_end(&h), Some(FIXED + 4 + 2));
        // A field a flag does not announce is data.
        let h = header(0, NAME);
        assert_eq!(fields_end(&h), Some(FIXED));
    }

    /// A header cut anywhere before its end has no end yet: inside the
    /// fixed part, `XLEN`, the extra field, a name or comment whose NUL
    /// has not come, or the header CRC.
    #[test]
    fn fields_end_of_a_header_cut_short_is_none() {
        for (h, len) in headers() {
            for cut in 0..len {
                assert_eq!(fields_end(&h[..cut]), None, "{h:?} cut at {cut}");
            }
        }
        // A name never ended, however long.
        let h = header(FNAME, &[b'n'; 4096]);
        assert_eq!(fields_end(&h), None);
    }

    #[test]
    fn crc_ok_takes_a_right_header_crc_and_no_wrong_one() {
        for (h, _) in headers() {
            assert!(crc_ok(&h), "{h:?}");
        }
        let right = header(
            FEXTRA | FNAME | FCOMMENT | FHCRC,
            &[EXTRA, NAME, COMMENT].concat(),
        );
        let crc_at = right.len() - 2;
        // Any changed byte, the CRC's or one it covers (the fixed part,
        // the flags, a field), makes it wrong (neither bit is FHCRC's).
        for at in [
            0,
            3,
            9,
            FIXED + 1,
            FIXED + 7,
            crc_at - 1,
            crc_at,
            crc_at + 1,
        ] {
            for bit in [0x01, 0x80] {
                let mut wrong = right.clone();
                wrong[at] ^= bit;
                assert!(!crc_ok(&wrong), "byte {at} ^ {bit:#x}");
            }
        }
        // The two CRC bytes swapped, and a CRC of the whole 32 bits'
        // high half, are wrong.
        let mut swapped = right.clone();
        swapped.swap(crc_at, crc_at + 1);
        assert!(!crc_ok(&swapped));
        let mut high = right[..crc_at].to_vec();
        high.extend(&crc32(&high).to_le_bytes()[2..]);
        assert!(!crc_ok(&high));
        // Without FHCRC, no bytes are a CRC.
        assert!(crc_ok(&header(FNAME, NAME)));
        assert!(crc_ok(&[0x1f, 0x8b, 8]));
        // FHCRC with no room for the CRC.
        assert!(!crc_ok(&[0x1f, 0x8b, 8, FHCRC]));
    }

    #[test]
    fn zlib_takes_deflate_without_reserved_flags() {
        assert!(zlib_takes(8, 0));
        assert!(zlib_takes(8, FHCRC | FEXTRA | FNAME | FCOMMENT | 0x01));
        for reserved in [0x20, 0x40, 0x80] {
            assert!(!zlib_takes(8, reserved));
        }
        for method in [0, 7, 9, 0xff] {
            assert!(!zlib_takes(method, 0));
        }
    }

    /// Fed a header in pieces of any size, the tracker says it is whole
    /// exactly where [`fields_end`] ends it, and valid as [`crc_ok`] and
    /// [`zlib_takes`] say.
    #[test]
    fn tracker_agrees_with_the_slice_functions() {
        let mut cases: Vec<Vec<u8>> = headers().into_iter().map(|(h, _)| h).collect();
        let mut wrong_crc = header(FNAME | FHCRC, NAME);
        let last = wrong_crc.len() - 1;
        wrong_crc[last] ^= 1;
        let mut bad_method = header(FNAME, NAME);
        bad_method[2] = 7;
        let mut reserved = header(FNAME, NAME);
        reserved[3] |= 0x40;
        cases.extend([wrong_crc, bad_method, reserved]);
        for h in cases {
            let len = fields_end(&h).unwrap();
            let valid = crc_ok(&h) && zlib_takes(h[2], h[3]);
            let bytes = [&h[..], &[0x1f, 0x8b, 0, 0, 0]].concat();
            // Byte by byte: whole once `len` bytes came, and not before
            // (nor valid before).
            let mut t = Tracker::default();
            for (i, &b) in bytes.iter().enumerate() {
                assert_eq!(t.valid(), i >= len && valid, "{h:?} after {i}");
                t.feed(&[b]);
                assert_eq!(t.whole(), i + 1 >= len, "{h:?} after {}", i + 1);
            }
            assert_eq!(t.valid(), valid, "{h:?}");
            for size in [2, 3, 7, bytes.len()] {
                let mut t = Tracker::default();
                for piece in bytes.chunks(size) {
                    t = t.clone().fed(piece);
                }
                assert!(t.whole(), "{h:?} in {size}s");
                assert_eq!(t.valid(), valid, "{h:?} in {size}s");
            }
        }
    }

    /// A clone takes the CRC so far with it, and what it is fed then
    /// leaves the tracker it came from as it was.
    #[test]
    fn a_cloned_tracker_keeps_its_crc() {
        let h = header(FCOMMENT | FHCRC, COMMENT);
        let half = Tracker::default().fed(&h[..8]);
        assert!(half.clone().fed(&h[8..]).valid());
        assert!(!half.clone().fed(b"junk").whole());
        assert!(half.fed(&h[8..]).valid());
    }
}
