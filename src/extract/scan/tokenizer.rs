//! The tokenizer: what the bytes are (tags, names, values, text, comments), not what they mean.
//!
//! It reads the text a block or a run at a time and reports what it finds
//! to an [`Events`] sink: text and markup as character counts, start and
//! end tags with their names, the attributes the sink asks for, the ends of
//! raw text. The sink (the scanner's `Page`) says what they mean; the
//! tokenizer hears back only what HTML leaves to the tree builder: which
//! elements hold raw text (`Events::tag_closed`), whose attributes are
//! worth handing over (`Events::reads_attributes`; the others' names are
//! not even copied), and where to stop (`Events::end`).
//!
//! The events are calls on a type parameter, not a queue: the tokenizer is
//! monomorphised for its sink and the hot events are inlined where they
//! happen, so that they cost what the same code written in place would
//! (a call a tag on the hottest path costs millions of instructions a
//! page: `tag_name_run`, `start_tag_named`). Nothing here names an element or an attribute but
//! `class`, recognised in place so that the commonest name is not copied
//! (see `quoted_attr`).

use super::{NAME_CAP, TITLE_CAP};
use crate::extract::blocks::{self, Block};
use crate::extract::tags;
use crate::extract::text_count::{self, RunState, TextCount, is_space};
use wide::u8x16;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum State {
    Text,
    TagOpen,
    TagName,
    EndTagOpen,
    EndTagName,
    /// Inside a start or end tag, between attributes.
    InTag,
    AttrName,
    AfterAttrName,
    BeforeValue,
    ValueQuoted(u8),
    ValueUnquoted,
    /// After `<!`, counting dashes towards a comment.
    Decl(u8),
    /// In a comment; the number is how many `-` were just seen.
    Comment(u8),
    /// `<?...>`, `<!DOCTYPE ...>`, `<![CDATA[...]]>`: skipped to `>`.
    Bogus,
    /// Raw text (script, style, title, textarea): looking for `</name`;
    /// the number is how many bytes of `</name` matched so far.
    Raw(u8),
}

impl State {
    /// States consumed a run at a time by [`Tokenizer::step`].
    pub(super) fn is_run(self) -> bool {
        matches!(
            self,
            State::Text
                | State::InTag
                | State::Comment(_)
                | State::Raw(0)
                | State::ValueQuoted(_)
                | State::ValueUnquoted
                | State::TagName
                | State::EndTagName
                | State::AttrName
        )
    }
}

/// How the text after a start tag is read when the sink says it is raw
/// text (`Events::tag_closed`): to the element's own end tag, nothing
/// inside it markup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum RawMode {
    /// Passed over with no event (script, style).
    Skip,
    /// Passed over with no event, but only within `TITLE_CAP` bytes: with
    /// no end tag there (a truncated or broken page), it ends at its first
    /// line break or `<` (`Events::raw_abandoned`), and markup resumes
    /// there (a title).
    Bounded,
    /// Reported as text (a textarea).
    Text,
}

/// A tag name's [`tags::name_key`], where it has one: how the sink tells
/// names apart without comparing their bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NameKey {
    /// A name of 1 to [`tags::KEY_NAME_MAX`] bytes, by its key.
    Short(u64),
    /// A longer name (or the empty one): only its bytes tell it.
    Long,
}

/// An attribute's name as the tokenizer hands it over.
#[derive(Debug, Clone, Copy)]
pub(super) enum AttrName<'n> {
    /// `class`, recognised where it lies (see `quoted_attr`) and not copied.
    Class,
    /// Any other name, lowercase (`class` too, when written otherwise).
    Named(&'n Name),
}

/// Fixed-size lowercase name buffer.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Name {
    /// The name's first `NAME_CAP` bytes, then room for a whole block
    /// stored at any length below `NAME_CAP` (see [`Name::append`]).
    buf: [u8; NAME_CAP + 16],
    len: usize,
}

/// A name as the open-element stack keeps it: its bytes, zero past its
/// end, and its length; a name longer than `NAME_CAP` is the empty name
/// (as [`Name::get`] has it). Two names are the same exactly when these
/// are equal: a block compare where [`Name`]s needed masks built from
/// their lengths each time (`pop_to` compares one to each stack entry
/// it passes), and a stack entry of 44 bytes where one holding a whole
/// `Name` took 72.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Short {
    pub(super) bytes: [u8; NAME_CAP],
    len: u8,
}

impl Short {
    pub(super) fn get(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len).min(NAME_CAP)]
    }
    /// The name's [`tags::name_key`]: its first word is the name
    /// zero-padded, so the bytes past its length need no mask
    /// ([`tags::word_key`]'s).
    pub(super) fn key(&self) -> u64 {
        let len = usize::from(self.len);
        if len == 0 || len > tags::KEY_NAME_MAX {
            return 0;
        }
        let [b0, b1, b2, b3, b4, b5, b6, b7, ..] = self.bytes;
        u64::from_le_bytes([b0, b1, b2, b3, b4, b5, b6, b7]) | (len as u64) << 56
    }
}

/// `class` as the low five bytes of a word (see `quoted_attr`).
const CLASS_WORD: u64 = u64::from_le_bytes(*b"class\0\0\0");

const CLASS_MASK: u64 = (1 << 40) - 1;

/// `PREFIX[n]`: the first `n` bytes of a block set, the rest clear (a load
/// where SSE2 has no cheap way to build the mask from `n`).
static PREFIX: [[u8; 16]; 17] = {
    let mut masks = [[0u8; 16]; 17];
    let mut n = 0;
    while n <= 16 {
        let mut i = 0;
        while i < n {
            masks[n][i] = 0xFF;
            i += 1;
        }
        n += 1;
    }
    masks
};

impl Name {
    /// The name's length in bytes (past `NAME_CAP` too).
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.len
    }
    fn clear(&mut self) {
        self.len = 0;
    }
    /// The name is `bytes` (as `clear` and a `push` of each).
    #[cfg(test)]
    fn set(&mut self, bytes: &[u8]) {
        self.set_at(bytes, 0, bytes.len());
    }
    /// The name is `src[start..start + len]` (as `clear` and a `push` of
    /// each): one block from `start`, lowercased at once, with no loop
    /// over the name's bytes (see [`Name::append`]).
    #[inline]
    fn set_at(&mut self, src: &[u8], start: usize, len: usize) {
        self.len = 0;
        self.append(lowercase(Block::at(src, start).v), len);
    }
    fn push(&mut self, b: u8) {
        if self.len < NAME_CAP {
            self.buf[self.len] = b.to_ascii_lowercase();
        }
        self.len += 1;
    }
    /// Appends the first `n` bytes of `block`, already lowercase (as a
    /// `push` of each): the whole block is stored, and what lies past the
    /// name's end is masked off wherever the buffer is read.
    #[inline]
    fn append(&mut self, block: u8x16, n: usize) {
        if let Some(room) = self.buf.get_mut(self.len..self.len + 16) {
            room.copy_from_slice(&block.to_array());
        }
        self.len += n;
    }
    /// The name as the stack keeps it. The bytes past `len` are whatever
    /// earlier names left: masked off.
    #[inline]
    pub(super) fn short(&self) -> Short {
        match self.len {
            len @ 0..=NAME_CAP => {
                let bytes = self.buf.first_chunk::<16>().copied().unwrap_or_default();
                let keep = u8x16::new(PREFIX[len]);
                Short {
                    bytes: (u8x16::new(bytes) & keep).to_array(),
                    len: len as u8,
                }
            }
            _ => Short::default(),
        }
    }
    /// The name's [`tags::name_key`] (0 for a name without one), from the
    /// buffer as it stands.
    #[inline]
    pub(super) fn key(&self) -> u64 {
        if self.len == 0 || self.len > tags::KEY_NAME_MAX {
            return 0;
        }
        let [b0, b1, b2, b3, b4, b5, b6, b7, ..] = self.buf;
        tags::word_key(
            u64::from_le_bytes([b0, b1, b2, b3, b4, b5, b6, b7]),
            self.len,
        )
    }
    /// The name's key, as [`NameKey`] hands it over.
    #[inline]
    fn name_key(&self) -> NameKey {
        match self.key() {
            0 => NameKey::Long,
            key => NameKey::Short(key),
        }
    }
    pub(super) fn get(&self) -> &[u8] {
        if self.len > NAME_CAP {
            b""
        } else {
            &self.buf[..self.len]
        }
    }
}

/// Character counts of a run of bytes (one character per byte that starts
/// one).
#[derive(Debug, Clone, Copy)]
pub(super) struct Run {
    pub(super) bytes: u32,
    pub(super) chars: u32,
    /// Bytes ≥ 128.
    pub(super) high: u32,
}

impl Run {
    /// The counts of one byte.
    #[inline(always)]
    pub(super) fn byte(b: u8) -> Run {
        Run {
            bytes: 1,
            chars: u32::from(b & 0xC0 != 0x80),
            high: u32::from(b >= 0x80),
        }
    }

    /// The counts of `len` ASCII bytes.
    #[inline]
    fn ascii(len: usize) -> Run {
        Run {
            bytes: len as u32,
            chars: len as u32,
            high: 0,
        }
    }

    /// The counts of `src[start..end]`. A run of up to sixteen bytes (most
    /// tag names and attributes) is one block read from `src` (past `end`
    /// where it is there, masked off): no byte loop and no branch per byte.
    /// Longer ASCII runs (most values) take `is_ascii`'s word loop.
    #[inline(always)]
    fn of(src: &[u8], start: usize, end: usize) -> Run {
        let bytes = end.saturating_sub(start) as u32;
        if bytes <= 16 {
            let block = Block::at(src, start);
            let keep = (1u32 << bytes) - 1;
            let top = block.v.to_bitmask() & keep;
            let (high, continuation) = if top == 0 {
                (0, 0)
            } else {
                let continuation = block.continuations() & keep;
                (text_count::marked(top), text_count::marked(continuation))
            };
            return Run {
                bytes,
                chars: bytes - continuation,
                high,
            };
        }
        let run = src.get(start..end).unwrap_or_default();
        if run.is_ascii() {
            return Run {
                bytes,
                chars: bytes,
                high: 0,
            };
        }
        let (continuation, high) = mixed_counts(run);
        Run {
            bytes,
            chars: bytes - continuation,
            high,
        }
    }
}

/// The continuation bytes and the high bytes of a run that is not all
/// ASCII (long values with accented text, JSON in `data-` attributes),
/// sixteen bytes at a time: the byte loop LLVM made of it took four bytes
/// a step with a dozen instructions each, inlined into the attribute
/// loop; out of line, as such runs are few.
#[inline(never)]
fn mixed_counts(run: &[u8]) -> (u32, u32) {
    let (mut continuation, mut high) = (0u32, 0u32);
    let mut chunks = run.chunks_exact(16);
    for chunk in &mut chunks {
        let v = u8x16::new(chunk.try_into().unwrap_or_default());
        continuation += text_count::marked(blocks::continuations(v));
        high += text_count::marked(v.to_bitmask());
    }
    for &b in chunks.remainder() {
        continuation += u32::from(b & 0xC0 == 0x80);
        high += u32::from(b >= 0x80);
    }
    (continuation, high)
}

/// `v` with its ASCII capitals lowercased, as `u8::to_ascii_lowercase`
/// does byte by byte.
#[inline]
fn lowercase(v: u8x16) -> u8x16 {
    let offset = v - u8x16::splat(b'A');
    let upper = offset.min(u8x16::splat(25)).simd_eq(offset);
    v | (upper & u8x16::splat(0x20))
}

/// Does `b` end a tag name (and so a raw element's `</name`)?
pub(crate) fn ends_tag_name(b: u8) -> bool {
    is_space(b) || b == b'/' || b == b'>'
}

/// Does `bytes`, from a `<`, end the raw text of element `name` (lowercase):
/// `</name`, any case, then whitespace, `/` or `>`, as the tokenizer ends
/// script, style, title and the like? `None` when `bytes` is too short to
/// tell.
pub(crate) fn closes_raw(bytes: &[u8], name: &[u8]) -> Option<bool> {
    let candidate = bytes.get(..name.len() + 3)?;
    Some(
        candidate[1] == b'/'
            && candidate[2..2 + name.len()].eq_ignore_ascii_case(name)
            && ends_tag_name(candidate[name.len() + 2]),
    )
}

/// A complete `name="value"` (or `name='value'`) attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct QuotedAttr {
    /// Bytes of the name.
    name: usize,
    /// Bytes of the whole attribute, closing quote included.
    len: usize,
    /// All of them ASCII (one character each, none high).
    ascii: bool,
}

/// The whitespace at `at` (its length) and the whole quoted attribute
/// after it, if there is one: what `leading_spaces` (now the tests'
/// reference) and [`quoted_attribute`] find, read from one block where
/// the spaces, the name, `=` and the opening quote fit in it (most
/// attributes: ` class="`), and the closing quote too where the value is
/// short (` id="x"`): the block is loaded and tested once rather than
/// once by each search. Sixteen spaces or more fill the block: then it says
/// sixteen and no attribute, and the caller reads on from there (the
/// rest of the run goes through `code_space` again, which counts a run
/// once however often it is called).
#[inline(always)]
fn next_attribute(bytes: &[u8], at: usize) -> (usize, Option<QuotedAttr>) {
    let block = Block::at_whole_first(bytes, at);
    let space = text_count::spaces(block.v);
    // Bits 16 and up of the complement are set: at most 16.
    let spaces = (!space).trailing_zeros() as usize;
    if spaces == 16 {
        return (spaces, None);
    }
    // The name's first byte is anything but space, `/` and `>` (padding
    // passes this test: a name that runs into it is left to
    // `quoted_attribute` below); the name ends at space, `=`, `/` or `>`
    // after it.
    let equals = block.eq(b'=');
    let ends = (space | equals | block.eq(b'/') | block.eq(b'>')) & block.present;
    let first = 1u32 << spaces;
    if ends & !equals & first != 0 {
        return (spaces, None);
    }
    let after = ends & !(first | (first - 1));
    if after == 0 {
        // The name goes past the block (or the buffer ends in it).
        return (spaces, quoted_attribute(&bytes[at + spaces..]));
    }
    // The name's end, then the quote after it, both bits of the block.
    let end = after & after.wrapping_neg();
    let name = end.trailing_zeros() as usize - spaces;
    if equals & end == 0 {
        return (spaces, None);
    }
    let (double, single) = (block.eq(b'"'), block.eq(b'\''));
    let open = end << 1;
    let (quote, quotes) = if double & open != 0 {
        (b'"', double)
    } else if single & open != 0 {
        (b'\'', single)
    } else if open < 1 << 16 {
        // Another byte, or none (the padding is no quote).
        return (spaces, None);
    } else {
        // `=` ends the block: the rest is read from the bytes.
        return (spaces, quoted_attribute(&bytes[at + spaces..]));
    };
    let high = block.v.to_bitmask();
    // The closing quote in this block, if the value ends here.
    let close = quotes & block.present & !(open | (open - 1));
    if close != 0 {
        let close = close & close.wrapping_neg();
        return (
            spaces,
            Some(QuotedAttr {
                name,
                len: close.trailing_zeros() as usize + 1 - spaces,
                ascii: high & (close - 1) & !(first - 1) == 0,
            }),
        );
    }
    if !block.full() {
        return (spaces, None);
    }
    // The value goes on past the block.
    let Some((value, value_ascii)) = text_count::find_noting_ascii(quote, &bytes[at + 16..]) else {
        return (spaces, None);
    };
    (
        spaces,
        Some(QuotedAttr {
            name,
            len: 16 + value + 1 - spaces,
            ascii: value_ascii && high & !(first - 1) == 0,
        }),
    )
}

/// Is `bytes` a whole quoted attribute, as the byte-wise states would read
/// it from `InTag`? The name's first byte is anything but space, `/` and
/// `>` (even `=`, as in `in_tag`); the rest runs to space, `=`, `/` or `>`.
fn quoted_attribute(bytes: &[u8]) -> Option<QuotedAttr> {
    let first = *bytes.first()?;
    if is_space(first) || first == b'/' || first == b'>' {
        return None;
    }
    let name = attr_name_end(bytes, 1)?;
    if bytes[name] != b'=' {
        return None;
    }
    let quote = *bytes.get(name + 1)?;
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    let (value, value_ascii) = text_count::find_noting_ascii(quote, &bytes[name + 2..])?;
    Some(QuotedAttr {
        name,
        len: name + 2 + value + 1,
        ascii: value_ascii && name_is_ascii(bytes, name),
    })
}

/// Are the first `len` bytes of `bytes` (an attribute's name) ASCII? Most
/// names fit one block.
#[inline]
fn name_is_ascii(bytes: &[u8], len: usize) -> bool {
    if len <= 16 {
        Block::at(bytes, 0).v.to_bitmask() & ((1u32 << len) - 1) == 0
    } else {
        bytes.get(..len).is_some_and(<[u8]>::is_ascii)
    }
}

/// The first byte at or after `from` that ends an attribute name (space,
/// `=`, `/` or `>`), if any. Sixteen bytes at a time: names vary in
/// length, and a byte loop's exit was the scanner's most mispredicted
/// branch. Every space is at most 0x20; the other bytes that low (controls)
/// are ruled out one by one.
fn attr_name_end(bytes: &[u8], from: usize) -> Option<usize> {
    space_or(bytes, from, |block| {
        block.eq(b'=') | block.eq(b'/') | block.eq(b'>')
    })
}

/// How many whitespace bytes start `bytes[from..]`, sixteen at a time:
/// the reference `next_attribute`'s spaces are tested against (the scan
/// itself reads them in `next_attribute`'s one block).
#[cfg(test)]
fn leading_spaces(bytes: &[u8], from: usize) -> usize {
    let mut at = from;
    loop {
        // Bits 16 and up of the complement are set, and the zeros padding
        // a block past the end are no spaces: `n` is at most 16.
        let n = (!text_count::spaces(Block::at(bytes, at).v)).trailing_zeros() as usize;
        at += n;
        if n < 16 {
            return at - from;
        }
    }
}

/// Where an unquoted attribute value ends: the first space or `>`, if any.
fn unquoted_value_end(bytes: &[u8]) -> Option<usize> {
    space_or(bytes, 0, |block| block.eq(b'>'))
}

/// The first byte at or after `from` that is a space or one of the bytes
/// `stops` marks in a block.
#[inline(always)]
fn space_or(bytes: &[u8], from: usize, stops: impl Fn(Block) -> u32) -> Option<usize> {
    let mut at = from;
    loop {
        let block = Block::at(bytes, at);
        let mut maybe = (block.at_most(0x20) | stops(block)) & block.present;
        while maybe != 0 {
            let i = at + maybe.trailing_zeros() as usize;
            if bytes[i] > 0x20 || is_space(bytes[i]) {
                return Some(i);
            }
            maybe &= maybe - 1;
        }
        if !block.full() {
            return None;
        }
        at += 16;
    }
}

/// Where a comment ends in `bytes`: `Ok` with the index just past its
/// `-->` (or `--!>`), else `Err` with the dashes to carry into the next
/// chunk. `dashes` is what the previous chunk left: the count of `-` just
/// before, kept over `!` once it reached two.
///
/// Comments can be long (commented-out markup, conditional comments), so
/// this jumps from `>` to `>` and looks back, rather than stepping each
/// byte through the dash counter.
fn comment_end(bytes: &[u8], dashes: u8) -> Result<usize, u8> {
    let mut from = 0;
    while let Some(i) = memchr::memchr(b'>', &bytes[from..]) {
        let at = from + i;
        if trailing_dashes(&bytes[..at], dashes) >= 2 {
            return Ok(at + 1);
        }
        from = at + 1;
    }
    Err(trailing_dashes(bytes, dashes))
}

/// The dash count after `seen`, starting from `carried`. Only the tail
/// of `-` and `!` after the last other byte matters (any other byte resets
/// the count), so this replays just that tail; the tails replayed for one
/// comment do not overlap, so the whole comment costs one pass.
fn trailing_dashes(seen: &[u8], carried: u8) -> u8 {
    let tail = seen
        .iter()
        .rposition(|&b| b != b'-' && b != b'!')
        .map_or(0, |i| i + 1);
    let mut dashes = if tail == 0 { carried } else { 0 };
    for &b in &seen[tail..] {
        if b == b'-' {
            dashes = dashes.saturating_add(1);
        } else if dashes < 2 {
            // A `!` keeps the count only after two dashes.
            dashes = 0;
        }
    }
    dashes
}

/// What the tokenizer reports, and the little it asks: implemented by
/// whoever gives the tokens their meaning (the scanner's `Page`). Every
/// method is called in place, from the tokenizer's loops; positions are
/// byte offsets into the text the tokenizer reads.
pub(super) trait Events {
    /// Where to stop: the tokenizer reads on while its position is below
    /// this, tested before each step and after each tag read from text
    /// (so a sink that has seen enough can set it to 0).
    fn end(&self) -> usize;
    /// Text: its characters (a whitespace run between two others as one),
    /// its bytes ≥ 128 and the bytes < 128 that count.
    fn text(&mut self, count: TextCount);
    /// Markup: a tag's `<name` apart (see `start_tag`), its attributes, `/`,
    /// `>`, and the whitespace between them (a run as one character).
    fn code(&mut self, run: Run);
    /// A start tag's name is read: the tag starts at `start`, and `run`
    /// counts it so far (`<name`).
    fn start_tag(&mut self, name: &Name, key: NameKey, start: usize, run: Run);
    /// An end tag's name is read: as `start_tag` (`run` counts `</name`).
    fn end_tag(&mut self, name: &Name, key: NameKey, start: usize, run: Run);
    /// Does the sink read the attributes of the tag being read? When it
    /// does not, a whole quoted attribute comes as `attr_unread`, its name
    /// not copied.
    fn reads_attributes(&self) -> bool;
    /// A whole quoted attribute, `src[at..at + len]`, of a tag whose
    /// attributes the sink does not read; its name is the first `name`
    /// bytes, as written.
    fn attr_unread(&mut self, src: &str, at: usize, name: usize, len: usize);
    /// A whole quoted attribute read at once: its value (without the
    /// quotes) is `src[value..value + len]`.
    fn attr(&mut self, src: &str, name: AttrName<'_>, value: usize, len: usize);
    /// An attribute's name and `=`, read byte by byte: its value follows
    /// as `value` pieces (maybe none) and `value_end`, or the tag closes.
    fn attr_named(&mut self, name: &Name);
    /// An attribute name with no `=` right after it (a value may still
    /// follow after whitespace: `hidden = "…"`).
    fn attr_bare(&mut self, name: &Name);
    /// A piece of the value of the attribute `attr_named` announced.
    fn value(&mut self, bytes: &[u8]);
    /// That value ended (its closing quote, or the space after it).
    fn value_end(&mut self);
    /// A tag's `>`. The answer says whether the text after a start tag is
    /// raw text, and how to read it.
    fn tag_closed(&mut self, src: &str, tag: Closed<'_>) -> Option<RawMode>;
    /// Raw text read as `mode` ended: it is `src[start..end]`, and its end
    /// tag starts at `end`.
    fn raw_end(&mut self, src: &str, mode: RawMode, start: usize, end: usize);
    /// Bounded raw text found no end tag within its bound: it is `text`,
    /// and markup resumes after it.
    fn raw_abandoned(&mut self, text: &str);
}

/// A tag as its `>` closes it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Closed<'n> {
    pub(super) name: &'n Name,
    /// Where the tag starts (its `<`).
    pub(super) start: usize,
    /// Where its `>` is.
    pub(super) at: usize,
    pub(super) end_tag: bool,
}

/// Where the tokenizer is in the text and what it has read of the token
/// there: all it keeps between steps and between pieces of the text.
#[derive(Debug)]
pub(super) struct Tokenizer {
    /// The next byte to read.
    pos: usize,
    state: State,
    /// The last markup byte was whitespace: a whitespace run in a tag
    /// counts as one character.
    prev_space: bool,
    /// The current text run's state.
    run: RunState,
    /// Where the tag being read (or the `<` that may end raw text) starts.
    tag_start: usize,
    tag_name: Name,
    attr_name: Name,
    is_end_tag: bool,
    // The raw text being read.
    raw_mode: RawMode,
    raw_name: Name,
    raw_start: usize,
}

impl Tokenizer {
    pub(super) fn new() -> Self {
        Tokenizer {
            pos: 0,
            state: State::Text,
            prev_space: false,
            run: RunState::default(),
            tag_start: 0,
            tag_name: Name::default(),
            attr_name: Name::default(),
            is_end_tag: false,
            raw_mode: RawMode::Skip,
            raw_name: Name::default(),
            raw_start: 0,
        }
    }

    /// Reads `src` on from where the last call stopped, up to
    /// `Events::end`. `src` is the text so far: each call sees the same
    /// text, grown at its end.
    pub(super) fn run<E: Events>(&mut self, src: &str, sink: &mut E) {
        while self.pos < sink.end() {
            self.step(src, sink);
        }
    }

    /// The text has ended: bounded raw text still open is abandoned as if
    /// its bound had passed. True when there is text to read again (from
    /// where it ended).
    pub(super) fn end_of_text<E: Events>(&mut self, src: &str, sink: &mut E) -> bool {
        if matches!(self.state, State::Raw(_)) && self.raw_mode == RawMode::Bounded {
            self.abandon_raw(src, sink);
            return true;
        }
        false
    }

    /// Advances over at least one byte.
    ///
    /// The states where most bytes are spent (text, comments, raw text,
    /// the space between attributes and whole quoted attributes, attribute
    /// values, tag and attribute names) are consumed a run at a time; the
    /// rest go byte by byte in one loop (`byte_run`), which stays there
    /// until a run state is reached (a call per byte was a fifth of the
    /// scanner's time).
    fn step<E: Events>(&mut self, src: &str, sink: &mut E) {
        match self.state {
            State::Text => self.text_run(src, sink),
            State::Comment(dashes) => self.comment_run(src, dashes),
            State::Raw(0) => self.raw_run(src, sink),
            State::ValueQuoted(q) => self.value_run(src, sink, q),
            State::ValueUnquoted => self.unquoted_run(src, sink),
            State::InTag => self.attrs_run(src, sink),
            State::TagName => self.tag_name_resume::<false, E>(src, sink),
            State::EndTagName => self.tag_name_resume::<true, E>(src, sink),
            State::AttrName => self.attr_name_run(src, sink),
            _ => self.byte_run(src, sink),
        }
    }

    /// Bytes of the small states, one at a time, until a run state.
    fn byte_run<E: Events>(&mut self, src: &str, sink: &mut E) {
        loop {
            let b = src.as_bytes()[self.pos];
            self.byte(src, sink, b);
            self.pos += 1;
            if self.pos >= src.len() || self.state.is_run() {
                return;
            }
        }
    }

    /// A whitespace byte in markup: one character for the run.
    fn code_space<E: Events>(&mut self, sink: &mut E) {
        if !self.prev_space {
            sink.code(Run::ascii(1));
        }
        self.prev_space = true;
    }

    /// Between attributes: whitespace (up to sixteen bytes at a time) and
    /// whole `name="value"` attributes are taken at once, and so are `>`
    /// and `/`; anything else (unquoted values, spaces around `=`, an
    /// attribute cut off by the end of the buffer) goes to the byte-wise
    /// states, which report exactly the same.
    fn attrs_run<E: Events>(&mut self, src: &str, sink: &mut E) {
        loop {
            let (spaces, attr) = next_attribute(src.as_bytes(), self.pos);
            if spaces > 0 {
                self.code_space(sink);
                self.pos += spaces;
            }
            let Some(attr) = attr else {
                match src.as_bytes().get(self.pos) {
                    // The tag's end, the common case, without `byte_run`'s
                    // dispatch (`in_tag` is what `byte` calls here).
                    Some(b'>') => {
                        self.in_tag(src, sink, b'>');
                        self.pos += 1;
                    }
                    // The `/` of a self-closing tag (`<br/>`, `<img … />`):
                    // what `in_tag` does with it, and on to the `>`, with no
                    // return to `step` in between.
                    Some(b'/') => {
                        sink.code(Run::byte(b'/'));
                        self.pos += 1;
                        continue;
                    }
                    Some(_) => self.byte_run(src, sink),
                    None => {}
                }
                return;
            };
            self.quoted_attr(src, sink, attr);
        }
    }

    /// One complete `name="value"` attribute at `pos`: what `in_tag`,
    /// `attr_name_run`, `attr_name_byte`, `before_value`, `value_run` and
    /// `value_quoted` would report byte by byte, as one event.
    fn quoted_attr<E: Events>(&mut self, src: &str, sink: &mut E, attr: QuotedAttr) {
        let bytes = src.as_bytes();
        let start = self.pos;
        // As in `attr_name_run`: only a name longer than its first byte
        // ends a whitespace run.
        if attr.name > 1 {
            self.prev_space = false;
        }
        let run = if attr.ascii {
            Run::ascii(attr.len)
        } else {
            Run::of(bytes, start, start + attr.len)
        };
        sink.code(run);
        self.pos = start + attr.len;
        // Most tags (span, a, img, ...) have no attribute the sink reads:
        // their names are not even copied.
        if !sink.reads_attributes() {
            sink.attr_unread(src, start, attr.name, attr.len);
            return;
        }
        // `class` as most pages write it, the commonest name, told from
        // its first eight bytes (`class="` and one more: the attribute is
        // at least that long) with no copy of the name for the sink to
        // read back and match byte by byte. Any other spelling is copied,
        // which gives the same.
        let class = attr.name == 5
            && bytes
                .get(start..)
                .and_then(<[u8]>::first_chunk::<8>)
                .is_some_and(|w| u64::from_le_bytes(*w) & CLASS_MASK == CLASS_WORD);
        let name = if class {
            AttrName::Class
        } else {
            self.attr_name.set_at(bytes, start, attr.name);
            AttrName::Named(&self.attr_name)
        };
        sink.attr(src, name, start + attr.name + 2, attr.len - attr.name - 3);
    }

    /// A tag name up to its end (space, `/` or `>`), then that byte and the
    /// attributes. One copy for start tags and one for end tags (`END`),
    /// which the callers already tell apart: the tests below on what
    /// follows the name then each have a branch of their own, and an end
    /// tag's (almost always `>`) is predicted well, where one branch for
    /// both was mispredicted whenever start and end tags alternated.
    // Inlined into `text_run`'s loop, where almost every tag is read: as
    // a call, each tag saved and restored six registers and spilled more
    // (−13.3 M instructions on every 15th page). `step` reaches it only
    // for a tag a chunk's end cut (after `<` or `</`, or inside the
    // name), through `tag_name_resume`, which keeps the copies to these
    // two.
    #[inline(always)]
    fn tag_name_run<const END: bool, E: Events>(&mut self, src: &str, sink: &mut E) {
        let bytes = src.as_bytes();
        // The tag is ASCII up to here when this run starts at the name's
        // first byte (right after `<` or `</`; a letter): then the name's
        // high bits, noted block by block, say whether all of it is, and
        // an ASCII tag's counts need no second look at its bytes.
        let whole = self.pos == self.tag_start + if END { 2 } else { 1 };
        let mut high = 0;
        // The name's first block, lowercase (see `run_key`).
        let mut first = None;
        // Sixteen bytes at a time: names vary in length, and a byte loop's
        // exit was the scanner's most mispredicted branch.
        loop {
            let block = Block::at(bytes, self.pos);
            let ends = text_count::spaces(block.v) | block.eq(b'/') | block.eq(b'>');
            // The padding past the buffer's end stops the name too.
            let stop = ends | !block.present;
            let n = stop.trailing_zeros() as usize;
            // The name's bytes and the one that ends it (`stop`'s bits up
            // to its lowest), rather than a mask shifted by `n`: the byte
            // that ends a name is ASCII (a space, `/`, `>`, or the zero
            // padding), and bit 16 lies past the block's bits.
            high |= block.v.to_bitmask() & (stop ^ stop.wrapping_sub(1));
            let lower = lowercase(block.v);
            first.get_or_insert(lower);
            self.tag_name.append(lower, n);
            self.pos += n;
            if n < 16 {
                break;
            }
        }
        let ascii = whole && high == 0;
        // The byte that ends the name, as `byte` would take it, and on
        // into the attributes: a tag goes through without `step`'s
        // dispatch between its parts.
        let Some(&b) = bytes.get(self.pos) else {
            return;
        };
        // The loop stopped at the name's end: `b` ends it.
        let key = match (whole, first) {
            (true, Some(first)) => self.run_key(first),
            _ => self.tag_name.name_key(),
        };
        if END {
            self.end_tag_named(src, sink, ascii, key);
        } else {
            self.start_tag_named(src, sink, ascii, key);
        }
        self.state = State::InTag;
        self.in_tag(src, sink, b);
        self.pos += 1;
        if self.state == State::InTag {
            self.attrs_run(src, sink);
        }
    }

    /// [`Self::tag_name_run`] from `step`: a tag cut by a chunk's end
    /// (after `<` or `</`, or inside the name).
    #[inline(never)]
    fn tag_name_resume<const END: bool, E: Events>(&mut self, src: &str, sink: &mut E) {
        self.tag_name_run::<END, E>(src, sink);
    }

    /// An attribute name up to `=`, space, `/` or `>`: all code.
    fn attr_name_run<E: Events>(&mut self, src: &str, sink: &mut E) {
        let bytes = &src.as_bytes()[self.pos..];
        let n = attr_name_end(bytes, 0).unwrap_or(bytes.len());
        for &b in &bytes[..n] {
            self.attr_name.push(b);
        }
        if n > 0 {
            self.prev_space = false;
            sink.code(Run::of(src.as_bytes(), self.pos, self.pos + n));
        }
        self.pos += n;
        if self.pos < src.len() {
            self.byte_run(src, sink);
        }
    }

    /// Text: counts characters up to the next `<`, then the tag there, and
    /// on into the text after it while the tag leaves the state at text
    /// (as `run` would go, without `step`'s dispatch: a tag and the text
    /// after it are one turn of this loop rather than one of `run`'s
    /// each).
    fn text_run<E: Events>(&mut self, src: &str, sink: &mut E) {
        loop {
            let bytes = &src.as_bytes()[self.pos..];
            let len = bytes.len();
            // A whitespace run counts as one character, and only between two
            // non-space characters of the same text run: whitespace between
            // tags is formatting, not content. The run's state outlives a
            // chunk boundary, so chunking cannot change the counts.
            let (n, c) = text_count::count_to(b'<', bytes, &mut self.run);
            sink.text(c);
            self.pos += n;
            if n == len {
                return;
            }
            self.run = RunState::default();
            self.tag_start = self.pos;
            self.pos += 1;
            self.state = State::TagOpen;
            // Straight on into the tag (as `step` would go, without its
            // dispatch): its first byte, then its name.
            if let Some(&b) = src.as_bytes().get(self.pos) {
                self.tag_open(sink, b);
                self.pos += 1;
                match self.state {
                    State::TagName => self.tag_name_run::<false, E>(src, sink),
                    State::EndTagOpen => self.end_tag_start(src, sink),
                    _ => {}
                }
            }
            // `run`'s test, and its dispatch for text.
            if self.state != State::Text || self.pos >= sink.end() {
                return;
            }
        }
    }

    /// After `</`: the name's first byte, then the name (as `step` would
    /// go, without its dispatch).
    fn end_tag_start<E: Events>(&mut self, src: &str, sink: &mut E) {
        if let Some(&b) = src.as_bytes().get(self.pos) {
            self.end_tag_open(b);
            self.pos += 1;
            if self.state == State::EndTagName {
                self.tag_name_run::<true, E>(src, sink);
            }
        }
    }

    /// Inside a quoted attribute value: everything up to the closing quote
    /// is code, counted in one go (values are most of modern markup).
    fn value_run<E: Events>(&mut self, src: &str, sink: &mut E, quote: u8) {
        let bytes = &src.as_bytes()[self.pos..];
        let n = text_count::find(quote, bytes).unwrap_or(bytes.len());
        sink.value(&bytes[..n]);
        sink.code(Run::of(src.as_bytes(), self.pos, self.pos + n));
        self.pos += n;
        if self.pos < src.len() {
            let b = src.as_bytes()[self.pos];
            self.value_quoted(sink, b, quote);
            self.pos += 1;
        }
    }

    /// An unquoted attribute value (`width=100`, common in older markup)
    /// up to its end, space or `>`: code, reported as `value_unquoted`
    /// reports it byte by byte; then that end, and on into the attributes.
    fn unquoted_run<E: Events>(&mut self, src: &str, sink: &mut E) {
        let bytes = &src.as_bytes()[self.pos..];
        let n = unquoted_value_end(bytes).unwrap_or(bytes.len());
        sink.value(&bytes[..n]);
        if n > 0 {
            self.prev_space = false;
            sink.code(Run::of(src.as_bytes(), self.pos, self.pos + n));
        }
        self.pos += n;
        let Some(&b) = src.as_bytes().get(self.pos) else {
            return;
        };
        self.value_unquoted(src, sink, b);
        self.pos += 1;
        if self.state == State::InTag {
            self.attrs_run(src, sink);
        }
    }

    fn comment_run(&mut self, src: &str, dashes: u8) {
        let bytes = &src.as_bytes()[self.pos..];
        match comment_end(bytes, dashes) {
            Ok(end) => {
                self.pos += end;
                self.state = State::Text;
            }
            Err(dashes) => {
                self.pos += bytes.len();
                self.state = State::Comment(dashes);
            }
        }
    }

    /// Raw text passed over (or counted, for `RawMode::Text`): jump to
    /// the next `<`.
    fn raw_run<E: Events>(&mut self, src: &str, sink: &mut E) {
        if self.raw_mode == RawMode::Skip {
            self.skip_raw(src, sink);
            return;
        }
        // Bounded raw text must close within TITLE_CAP bytes. The window
        // does not depend on chunking, so neither does the outcome.
        let mut end = src.len();
        if self.raw_mode == RawMode::Bounded {
            let window = self.raw_start + TITLE_CAP;
            if self.pos >= window {
                self.abandon_raw(src, sink);
                return;
            }
            end = end.min(window);
        }
        let bytes = &src.as_bytes()[self.pos..end];
        let len = bytes.len();
        let n = memchr::memchr(b'<', bytes).unwrap_or(len);
        if self.raw_mode == RawMode::Text {
            let chars = bytes[..n].iter().filter(|&&b| b & 0xC0 != 0x80).count() as u32;
            sink.text(TextCount {
                text: chars,
                ..TextCount::default()
            });
        }
        self.pos += n;
        if n < len {
            self.tag_start = self.pos;
            self.pos += 1;
            self.state = State::Raw(1);
        }
    }

    /// Script and style, which count as nothing: every `<` is tried as
    /// `</name` plus a terminator in place, and the search goes on after a
    /// miss, so a script full of `<` never leaves this loop. Only a `<`
    /// too close to the end of the buffer to decide is left to the byte
    /// states (`raw_byte`), which read exactly the same.
    fn skip_raw<E: Events>(&mut self, src: &str, sink: &mut E) {
        let name = self.raw_name.get();
        let len = src.len();
        loop {
            let bytes = &src.as_bytes()[self.pos..];
            let Some(i) = memchr::memchr(b'<', bytes) else {
                self.pos = len;
                return;
            };
            let at = self.pos + i;
            self.tag_start = at;
            let Some(closes) = closes_raw(&src.as_bytes()[at..], name) else {
                self.pos = at + 1;
                self.state = State::Raw(1);
                return;
            };
            if closes {
                let term = src.as_bytes()[at + name.len() + 2];
                self.pos = at + name.len() + 3;
                self.leave_raw(src, sink, term);
                return;
            }
            self.pos = at + 1;
        }
    }

    fn byte<E: Events>(&mut self, src: &str, sink: &mut E, b: u8) {
        match self.state {
            // Handled by the run functions in `step`.
            State::Text | State::Comment(_) => {}
            State::TagOpen => self.tag_open(sink, b),
            State::TagName => self.tag_name_byte(src, sink, b, false),
            State::EndTagOpen => self.end_tag_open(b),
            State::EndTagName => self.end_tag_name_byte(src, sink, b, false),
            State::InTag => self.in_tag(src, sink, b),
            State::AttrName => self.attr_name_byte(src, sink, b),
            State::AfterAttrName => self.after_attr_name(src, sink, b),
            State::BeforeValue => self.before_value(src, sink, b),
            State::ValueQuoted(q) => self.value_quoted(sink, b, q),
            State::ValueUnquoted => self.value_unquoted(src, sink, b),
            State::Decl(n) => self.decl(b, n),
            State::Bogus => {
                if b == b'>' {
                    self.state = State::Text;
                }
            }
            State::Raw(n) => self.raw_byte(src, sink, b, n),
        }
    }

    // Inlined into both callers, the run functions and `byte` (every
    // tag passes through these): -1 % instructions, +1 % time.
    //
    // A name's first byte is left where it is, for `tag_name_run` to
    // read with the rest (as `end_tag_open` leaves it): the buffer's
    // first sixteen bytes are then one store, where a store of the first
    // byte and one of the block beside it made the wide loads of the name
    // that followed (`pop_to`'s `Name::short`, `push_open`'s copy,
    // `Name::key`) wait for both stores (perf: `pop_to` 1.2 % → 0.9 % of
    // the samples in one run, though its load of the name still holds
    // some; −4.5 M instructions on every 15th page, the solid part).
    #[inline(always)]
    fn tag_open<E: Events>(&mut self, sink: &mut E, b: u8) {
        if b.is_ascii_alphabetic() {
            self.tag_name.clear();
            self.is_end_tag = false;
            self.state = State::TagName;
            self.pos -= 1;
        } else if b == b'/' {
            self.state = State::EndTagOpen;
        } else if b == b'!' {
            self.state = State::Decl(0);
        } else if b == b'?' {
            self.state = State::Bogus;
        } else {
            // A lone '<' is text; re-read this byte as text.
            self.prev_space = false;
            sink.text(TextCount {
                text: 1,
                high: 0,
                low: 1,
            });
            self.state = State::Text;
            self.pos -= 1;
        }
    }

    /// `ascii`: the tag so far is known to be ASCII (see `tag_name_run`).
    #[inline(always)]
    fn tag_name_byte<E: Events>(&mut self, src: &str, sink: &mut E, b: u8, ascii: bool) {
        if ends_tag_name(b) {
            let key = self.tag_name.name_key();
            self.start_tag_named(src, sink, ascii, key);
            self.state = State::InTag;
            self.in_tag(src, sink, b);
        } else {
            self.tag_name.push(b);
        }
    }

    /// The name of a start tag is known: report it, with its counts so far.
    // Inlined into `tag_name_run` (and `byte`), as `end_tag_named` is,
    // and so is the sink's `start_tag`: the call and a second save of
    // the registers were 2.0 M instructions on p15 (2.9 M for end tags).
    #[inline(always)]
    fn start_tag_named<E: Events>(&mut self, src: &str, sink: &mut E, ascii: bool, key: NameKey) {
        // A start tag: `tag_open` set `is_end_tag` to false.
        debug_assert!(!self.is_end_tag);
        let run = self.tag_run(src, ascii);
        sink.start_tag(&self.tag_name, key, self.tag_start, run);
    }

    /// What `self.tag_name.name_key()` says once `tag_name_run` has read a
    /// whole name from its first byte: `first` is the name's first block,
    /// lowercase. A name short enough for a key is keyed from `first`
    /// where it is, in a register: read back from the buffer, the key
    /// waited on the store (perf: 12 to 18 % of `tag_name_run`'s samples
    /// on the key).
    #[inline(always)]
    fn run_key(&self, first: u8x16) -> NameKey {
        let len = self.tag_name.len;
        if len > tags::KEY_NAME_MAX {
            return self.tag_name.name_key();
        }
        // The block's low eight bytes.
        let bytes = u128::from_le_bytes(first.to_array()) as u64;
        NameKey::Short(tags::word_key(bytes, len))
    }

    /// The counts of the tag so far (`<` or `</` and the name), read
    /// again only when it is not known to be ASCII.
    #[inline(always)]
    fn tag_run(&self, src: &str, ascii: bool) -> Run {
        match ascii {
            true => Run::ascii(self.pos - self.tag_start),
            false => Run::of(src.as_bytes(), self.tag_start, self.pos),
        }
    }

    /// A name's first byte is left for `tag_name_run` (see `tag_open`).
    fn end_tag_open(&mut self, b: u8) {
        if b.is_ascii_alphabetic() {
            self.tag_name.clear();
            self.is_end_tag = true;
            self.state = State::EndTagName;
            self.pos -= 1;
        } else if b == b'>' {
            self.state = State::Text;
        } else {
            self.state = State::Bogus;
        }
    }

    #[inline(always)]
    fn end_tag_name_byte<E: Events>(&mut self, src: &str, sink: &mut E, b: u8, ascii: bool) {
        if ends_tag_name(b) {
            let key = self.tag_name.name_key();
            self.end_tag_named(src, sink, ascii, key);
            self.state = State::InTag;
            self.in_tag(src, sink, b);
        } else {
            self.tag_name.push(b);
        }
    }

    /// The name of an end tag is known: report it. Inlined, as
    /// `start_tag_named` is.
    #[inline(always)]
    fn end_tag_named<E: Events>(&mut self, src: &str, sink: &mut E, ascii: bool, key: NameKey) {
        debug_assert!(self.is_end_tag);
        let run = self.tag_run(src, ascii);
        sink.end_tag(&self.tag_name, key, self.tag_start, run);
    }

    #[inline(always)]
    fn in_tag<E: Events>(&mut self, src: &str, sink: &mut E, b: u8) {
        match b {
            b'>' => self.tag_closed(src, sink),
            b'/' => sink.code(Run::byte(b)),
            _ if is_space(b) => self.code_space(sink),
            _ => {
                self.attr_name.clear();
                self.attr_name.push(b);
                sink.code(Run::byte(b));
                self.state = State::AttrName;
            }
        }
    }

    fn attr_name_byte<E: Events>(&mut self, src: &str, sink: &mut E, b: u8) {
        match b {
            b'=' => {
                sink.code(Run::byte(b));
                sink.attr_named(&self.attr_name);
                self.state = State::BeforeValue;
            }
            b'>' => {
                sink.attr_bare(&self.attr_name);
                self.tag_closed(src, sink);
            }
            b'/' => {
                sink.attr_bare(&self.attr_name);
                sink.code(Run::byte(b));
                self.state = State::InTag;
            }
            _ if is_space(b) => {
                // A value may still follow (`hidden = "…"`): the name is
                // taken as ending here, whatever follows.
                sink.attr_bare(&self.attr_name);
                self.code_space(sink);
                self.state = State::AfterAttrName;
            }
            _ => {
                self.prev_space = false;
                self.attr_name.push(b);
                sink.code(Run::byte(b));
            }
        }
    }

    fn after_attr_name<E: Events>(&mut self, src: &str, sink: &mut E, b: u8) {
        match b {
            b'=' => {
                sink.code(Run::byte(b));
                sink.attr_named(&self.attr_name);
                self.state = State::BeforeValue;
            }
            _ if is_space(b) => self.code_space(sink),
            _ => {
                self.state = State::InTag;
                self.in_tag(src, sink, b);
            }
        }
    }

    fn before_value<E: Events>(&mut self, src: &str, sink: &mut E, b: u8) {
        match b {
            b'"' | b'\'' => {
                sink.code(Run::byte(b));
                self.state = State::ValueQuoted(b);
            }
            b'>' => self.tag_closed(src, sink),
            _ if is_space(b) => self.code_space(sink),
            _ => {
                self.state = State::ValueUnquoted;
                self.value_unquoted(src, sink, b);
            }
        }
    }

    fn value_quoted<E: Events>(&mut self, sink: &mut E, b: u8, quote: u8) {
        sink.code(Run::byte(b));
        if b == quote {
            sink.value_end();
            self.state = State::InTag;
        } else {
            sink.value(&[b]);
        }
    }

    fn value_unquoted<E: Events>(&mut self, src: &str, sink: &mut E, b: u8) {
        if is_space(b) {
            sink.value_end();
            self.code_space(sink);
            self.state = State::InTag;
        } else if b == b'>' {
            sink.value_end();
            self.tag_closed(src, sink);
        } else {
            self.prev_space = false;
            sink.code(Run::byte(b));
            sink.value(&[b]);
        }
    }

    /// `>` of a tag: report it, and read on as the sink says (text, or
    /// raw text).
    #[inline(always)]
    fn tag_closed<E: Events>(&mut self, src: &str, sink: &mut E) {
        let tag = Closed {
            name: &self.tag_name,
            start: self.tag_start,
            at: self.pos,
            end_tag: self.is_end_tag,
        };
        let raw = sink.tag_closed(src, tag);
        self.prev_space = false;
        self.state = State::Text;
        if let Some(mode) = raw {
            self.enter_raw(mode);
        }
    }

    fn enter_raw(&mut self, mode: RawMode) {
        self.raw_mode = mode;
        self.raw_name = self.tag_name;
        self.raw_start = self.pos + 1;
        self.state = State::Raw(0);
    }

    /// Raw text, byte by byte: matching `</name`.
    fn raw_byte<E: Events>(&mut self, src: &str, sink: &mut E, b: u8, matched: u8) {
        let name = self.raw_name.get();
        let m = matched as usize;
        let ok = match m {
            0 => b == b'<',
            1 => b == b'/',
            _ if m - 2 < name.len() => b.to_ascii_lowercase() == name[m - 2],
            _ => ends_tag_name(b),
        };
        if ok && m >= 2 + name.len() {
            self.leave_raw(src, sink, b);
        } else if ok {
            self.state = State::Raw(matched + 1);
        } else {
            self.raw_text_bytes(sink, matched, b);
        }
    }

    /// Bytes that turned out not to end the raw element.
    fn raw_text_bytes<E: Events>(&mut self, sink: &mut E, matched: u8, b: u8) {
        if self.raw_mode == RawMode::Text {
            sink.text(TextCount {
                text: u32::from(matched) + 1,
                ..TextCount::default()
            });
        }
        if b == b'<' {
            self.tag_start = self.pos;
            self.state = State::Raw(1);
        } else {
            self.state = State::Raw(0);
        }
    }

    /// The raw text's end tag is read up to the byte `b` after its name.
    fn leave_raw<E: Events>(&mut self, src: &str, sink: &mut E, b: u8) {
        sink.raw_end(src, self.raw_mode, self.raw_start, self.tag_start);
        self.state = if b == b'>' { State::Text } else { State::Bogus };
    }

    /// Bounded raw text with no end tag in sight (a truncated or broken
    /// page) would swallow the page: it ends at its first line break or
    /// `<` instead, and reading resumes there as ordinary markup.
    fn abandon_raw<E: Events>(&mut self, src: &str, sink: &mut E) {
        // Only the window is searched, so the result does not depend on
        // how much of the page has arrived. The window ends on a
        // character boundary: TITLE_CAP bytes may fall inside a
        // multi-byte character.
        let rest = &src[self.raw_start..];
        let raw = &rest.as_bytes()[..rest.floor_char_boundary(TITLE_CAP)];
        let end = raw.iter().position(|&b| b == b'<' || b == b'\n');
        let end = end.unwrap_or(raw.len());
        sink.raw_abandoned(&rest[..end]);
        self.pos = self.raw_start + end;
        self.state = State::Text;
    }

    fn decl(&mut self, b: u8, dashes: u8) {
        match (b, dashes) {
            (b'-', 0) => self.state = State::Decl(1),
            (b'-', _) => self.state = State::Comment(0),
            (b'>', _) => self.state = State::Text,
            _ => self.state = State::Bogus,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::policy::tag_of;
    use super::super::tests::every_string;
    use super::*;
    use crate::extract::tags::Tag;

    /// What [`Recorder`] keeps of the events: names and values as text,
    /// an attribute whole however it came (at once, or named and then its
    /// value in pieces), text as its characters, adjacent pieces joined.
    #[derive(Debug, Clone, PartialEq, Eq)]
    enum Event {
        Text(u32),
        Start(String),
        End(String),
        Attr(String, String),
        Bare(String),
        Close,
        Raw(String),
    }

    /// An [`Events`] sink that reads every attribute and takes `script`
    /// as raw text, and records what it hears: the tokenizer on its own,
    /// with no page behind it.
    #[derive(Default)]
    struct Recorder {
        end: usize,
        events: Vec<Event>,
        code: u32,
        /// An attribute named byte by byte, its value so far.
        pending: Option<(String, String)>,
    }

    fn text_of(bytes: &[u8]) -> String {
        String::from_utf8_lossy(bytes).into_owned()
    }

    impl Events for Recorder {
        fn end(&self) -> usize {
            self.end
        }
        fn text(&mut self, count: TextCount) {
            match self.events.last_mut() {
                _ if count.text == 0 => {}
                Some(Event::Text(n)) => *n += count.text,
                _ => self.events.push(Event::Text(count.text)),
            }
        }
        fn code(&mut self, run: Run) {
            self.code += run.chars;
        }
        fn start_tag(&mut self, name: &Name, _: NameKey, _: usize, run: Run) {
            self.code += run.chars;
            self.events.push(Event::Start(text_of(name.get())));
        }
        fn end_tag(&mut self, name: &Name, _: NameKey, _: usize, run: Run) {
            self.code += run.chars;
            self.events.push(Event::End(text_of(name.get())));
        }
        fn reads_attributes(&self) -> bool {
            true
        }
        fn attr_unread(&mut self, _: &str, _: usize, _: usize, _: usize) {
            unreachable!("every attribute is read");
        }
        fn attr(&mut self, src: &str, name: AttrName<'_>, value: usize, len: usize) {
            let name = match name {
                AttrName::Class => "class".to_string(),
                AttrName::Named(name) => text_of(name.get()),
            };
            let value = src[value..value + len].to_string();
            self.events.push(Event::Attr(name, value));
        }
        fn attr_named(&mut self, name: &Name) {
            self.pending = Some((text_of(name.get()), String::new()));
        }
        fn attr_bare(&mut self, name: &Name) {
            self.events.push(Event::Bare(text_of(name.get())));
        }
        fn value(&mut self, bytes: &[u8]) {
            if let Some((_, value)) = &mut self.pending {
                value.push_str(&text_of(bytes));
            }
        }
        fn value_end(&mut self) {
            if let Some((name, value)) = self.pending.take() {
                self.events.push(Event::Attr(name, value));
            }
        }
        fn tag_closed(&mut self, _: &str, tag: Closed<'_>) -> Option<RawMode> {
            self.value_end();
            self.code += 1;
            self.events.push(Event::Close);
            (!tag.end_tag && tag.name.get() == b"script").then_some(RawMode::Skip)
        }
        fn raw_end(&mut self, src: &str, _: RawMode, start: usize, end: usize) {
            self.events.push(Event::Raw(src[start..end].to_string()));
        }
        fn raw_abandoned(&mut self, text: &str) {
            self.events.push(Event::Raw(text.to_string()));
        }
    }

    /// The tokenizer alone, driven by a recording sink: a start tag with
    /// attributes of every shape, text, a comment (which reports
    /// nothing), a script's raw text (a `<` inside it included) and end
    /// tags come out as these events, fed whole or a byte at a time.
    #[test]
    fn the_tokenizer_reports_events_to_any_sink() {
        let html = "<P Class=\"lead\" class=\"x\" data-x='1' id=intro hidden>Hi  <b>you</B></p>\
                    <!-- a <b>note</b> --><script type=\"t\">if (a < b) x();</script >ok";
        let run = |pieces: &mut dyn Iterator<Item = &str>| {
            let mut tokens = Tokenizer::new();
            let mut sink = Recorder::default();
            let mut src = String::new();
            for piece in pieces {
                src.push_str(piece);
                sink.end = src.len();
                tokens.run(&src, &mut sink);
            }
            (sink.events, sink.code)
        };
        let attr = |n: &str, v: &str| Event::Attr(n.to_string(), v.to_string());
        let name = |n: &str| n.to_string();
        let want = vec![
            Event::Start(name("p")),
            attr("class", "lead"),
            attr("class", "x"),
            attr("data-x", "1"),
            attr("id", "intro"),
            Event::Bare(name("hidden")),
            Event::Close,
            // `Hi`: the spaces before a tag are formatting.
            Event::Text(2),
            Event::Start(name("b")),
            Event::Close,
            Event::Text(3),
            Event::End(name("b")),
            Event::Close,
            Event::End(name("p")),
            Event::Close,
            Event::Start(name("script")),
            attr("type", "t"),
            Event::Close,
            Event::Raw(name("if (a < b) x();")),
            Event::Text(2),
        ];
        // Markup: `<p`, the attributes and a space before each, `>`;
        // `<b>`, `</B>`, `</p>`; `<script type="t">` (its end tag ends the
        // raw text and is not reported).
        let code = 2 + 13 + 10 + 11 + 9 + 7 + 1 + 3 + 4 + 4 + 7 + 9 + 1;
        let whole = run(&mut std::iter::once(html));
        assert_eq!(whole, (want.clone(), code));
        let mut bytes = (0..html.len()).map(|i| &html[i..i + 1]);
        assert_eq!(run(&mut bytes), (want, code));
    }

    /// The comment end as the byte-at-a-time state machine finds it.
    fn comment_end_by_bytes(bytes: &[u8], mut dashes: u8) -> Result<usize, u8> {
        for (i, &b) in bytes.iter().enumerate() {
            match b {
                b'-' => dashes = dashes.saturating_add(1),
                b'>' if dashes >= 2 => return Ok(i + 1),
                b'!' if dashes >= 2 => {}
                _ => dashes = 0,
            }
        }
        Err(dashes)
    }

    #[test]
    fn comment_end_agrees_with_the_byte_machine() {
        // Every string of up to 7 bytes over the bytes that matter, from
        // every carried dash count that can differ.
        let alphabet = b"-!>x";
        for len in 0..=7u32 {
            for code in 0..4usize.pow(len) {
                let mut s = Vec::new();
                let mut c = code;
                for _ in 0..len {
                    s.push(alphabet[c % 4]);
                    c /= 4;
                }
                for carried in [0, 1, 2, 3, 254, 255] {
                    assert_eq!(
                        comment_end(&s, carried),
                        comment_end_by_bytes(&s, carried),
                        "{:?} carrying {carried}",
                        String::from_utf8_lossy(&s)
                    );
                }
            }
        }
    }

    /// `next_attribute` finds what `leading_spaces` and then
    /// `quoted_attribute` find (but for sixteen spaces or more, which it
    /// leaves to the caller): every shape of up to five pieces, at the
    /// buffer's start and after a byte, cut at each length; then names
    /// and values of every length up to past two blocks, with a high
    /// byte at each place, so that names, `=`, quotes and values fall on
    /// both sides of its one block and of the buffer's end.
    #[test]
    fn next_attribute_agrees_with_the_two_searches() {
        let pieces = [
            "a", "=", "\"", "'", " ", "\t", "/", ">", "\u{e9}", "v\u{b}", "xxxxxxx",
        ];
        let check = |bytes: &[u8], at: usize| {
            let spaces = leading_spaces(bytes, at);
            let want = match spaces {
                16.. => (16, None),
                _ => (spaces, quoted_attribute(&bytes[at + spaces..])),
            };
            assert_eq!(
                next_attribute(bytes, at),
                want,
                "{:?} at {at}",
                bytes.escape_ascii().to_string()
            );
        };
        for attr in every_string(&pieces, 5) {
            // The block starts at `at`: other offsets shift nothing.
            for at in [0, 1] {
                let s = format!("{}{attr}", "<".repeat(at));
                for end in at..=s.len() {
                    check(&s.as_bytes()[..end], at);
                }
            }
        }
        // Spaces up to and past a block, then an attribute.
        for spaces in 0..40 {
            let s = format!("<{}href=\"x\" ", " ".repeat(spaces));
            check(s.as_bytes(), 1);
        }
        // Names and values short and long, closing in the first block,
        // at its end or past it; all ASCII, or one byte high anywhere.
        for name in 1..20 {
            for value in 0..40 {
                for spaces in [0, 1, 3] {
                    let len = spaces + name + 3 + value;
                    for high in std::iter::once(None).chain((0..len).map(Some)) {
                        let mut s = " ".repeat(spaces) + &"n".repeat(name) + "=\"";
                        s += &"v".repeat(value);
                        s += "\" x";
                        let mut bytes = s.into_bytes();
                        match high {
                            // A high byte in the name or the value (not
                            // in place of a space, `=` or a quote).
                            Some(i) if bytes[i].is_ascii_alphabetic() => bytes[i] = 0xE9,
                            Some(_) => continue,
                            None => {}
                        }
                        check(&bytes, 0);
                    }
                }
            }
        }
    }

    /// The blockwise search ends a name where a byte loop would, across
    /// block boundaries, past control bytes and at the slice's end.
    #[test]
    fn attr_name_end_agrees_with_a_byte_loop() {
        let by_bytes = |bytes: &[u8], from: usize| {
            bytes[from..]
                .iter()
                .position(|&b| is_space(b) || matches!(b, b'=' | b'/' | b'>'))
                .map(|i| from + i)
        };
        let names = ["", "a", "data-x\u{1}\u{b}y", "é", "n\u{0}"];
        let ends = [
            "", "=", " ", "\t", "\r", "\u{c}", "/", ">", "\u{b}", "\u{1f}",
        ];
        for name in names {
            for pad in [0, 14, 15, 16, 31, 40] {
                for end in ends {
                    let s = format!("x{}{name}{end}\"v\"", "n".repeat(pad));
                    let bytes = s.as_bytes();
                    assert_eq!(attr_name_end(bytes, 1), by_bytes(bytes, 1), "{s:?}");
                    let cut = &bytes[..bytes.len() - 3];
                    assert_eq!(attr_name_end(cut, 1), by_bytes(cut, 1), "{s:?} cut");
                }
            }
        }
    }

    /// Spaces before an attribute are counted as a byte loop counts them,
    /// in runs across block boundaries and up to the end.
    #[test]
    fn leading_spaces_agree_with_a_byte_loop() {
        let ws = [" ", "\t", "\n", "\r", "\u{c}"];
        for len in [0, 1, 2, 15, 16, 17, 33] {
            for after in ["", "a", "\u{b}", "\u{0}", ">"] {
                let run: String = (0..len).map(|i| ws[i % ws.len()]).collect();
                let s = format!("x{run}{after}");
                let by_bytes = s.bytes().skip(1).take_while(|&b| is_space(b)).count();
                assert_eq!(leading_spaces(s.as_bytes(), 1), by_bytes, "{s:?}");
            }
        }
        assert_eq!(leading_spaces(b"  ", 2), 0);
    }

    /// An unquoted value ends at the first space or `>` a byte loop finds,
    /// not at other control bytes, across block boundaries and at the end.
    #[test]
    fn unquoted_value_end_agrees_with_a_byte_loop() {
        let by_bytes = |bytes: &[u8]| bytes.iter().position(|&b| is_space(b) || b == b'>');
        let values = ["", "1", "a/b=c\u{1}\u{b}d", "é\"'", "n\u{0}"];
        let ends = [
            "", " ", "\t", "\n", "\r", "\u{c}", ">", "\u{b}", "\u{1f}", "=",
        ];
        for value in values {
            for pad in [0, 15, 16, 17, 31, 40] {
                for end in ends {
                    let s = format!("{}{value}{end}x>", "v".repeat(pad));
                    let bytes = s.as_bytes();
                    assert_eq!(unquoted_value_end(bytes), by_bytes(bytes), "{s:?}");
                    let cut = &bytes[..bytes.len() - 2];
                    assert_eq!(unquoted_value_end(cut), by_bytes(cut), "{s:?} cut");
                }
            }
        }
    }

    #[test]
    fn comment_end_finds_the_real_close() {
        assert_eq!(comment_end(b" a > b -> c --!> d", 0), Ok(16));
        assert_eq!(comment_end(b"x-->", 0), Ok(4));
        assert_eq!(comment_end(b">", 2), Ok(1));
        assert_eq!(comment_end(b"x--", 0), Err(2));
    }

    /// Names' `short` forms are equal exactly when `get() == get()`,
    /// whatever the names held before
    /// (a long name, then a short one set or pushed over it, or set from
    /// within a longer source).
    #[test]
    fn names_compare_as_their_bytes() {
        let names = [
            "",
            "a",
            "A",
            "li",
            "div",
            "DIV",
            "section",
            "article",
            "h1",
            "mainx",
            "colgroup",
            "abcdefghijklmnop",
        ];
        let long = "abcdefghijklmnopq";
        let mut all: Vec<Name> = Vec::new();
        for earlier in ["", long, "blockquote"] {
            for n in names.iter().chain([&long]) {
                let mut set = Name::default();
                set.set(earlier.as_bytes());
                set.set(n.as_bytes());
                let mut pushed = Name::default();
                pushed.set(earlier.as_bytes());
                pushed.clear();
                n.bytes().for_each(|b| pushed.push(b));
                // Set from within a longer source, as an attribute's name
                // is: the block read runs on past the name's end.
                let mut within = Name::default();
                let source = format!("{earlier}{n}=\"V\" Z");
                within.set_at(source.as_bytes(), earlier.len(), n.len());
                assert_eq!(within.get(), pushed.get(), "{earlier:?} then {n:?}");
                all.extend([set, pushed, within]);
            }
        }
        for a in &all {
            for b in &all {
                assert_eq!(
                    a.short() == b.short(),
                    a.get() == b.get(),
                    "{:?} {:?}",
                    a,
                    b
                );
            }
            // The key read off the buffer (whatever an earlier, longer
            // name left past `len`) is the one `tags` builds from bytes,
            // and the tag is the one `Tag::classify` gives.
            let want = (Tag::classify(a.get()), tags::name_key(a.get()));
            assert_eq!((tag_of(a, a.name_key()), a.key()), want, "{a:?}");
            assert_eq!(a.short().get(), a.get(), "{a:?}");
            assert_eq!(a.short().key(), a.key(), "{a:?}");
        }
    }

    /// The block lowercasing is `to_ascii_lowercase` for every byte value,
    /// in every lane.
    #[test]
    fn blocks_lowercase_as_bytes_do() {
        for first in (0..=255u8).step_by(16) {
            let bytes: [u8; 16] = std::array::from_fn(|i| first + i as u8);
            let want = bytes.map(|b| b.to_ascii_lowercase());
            assert_eq!(lowercase(u8x16::new(bytes)).to_array(), want);
        }
    }

    /// `Run::of` counts a range by blocks read from the whole buffer; the
    /// byte rule (a char per byte that is no continuation byte, a high
    /// byte per byte ≥ 128) must come out for every range of a buffer
    /// mixing one- to four-byte chars, at every offset and length across
    /// block boundaries, up to the buffer's end (where the block is
    /// padded). Mutation-checked: leaving out the `keep` mask fails it.
    #[test]
    fn runs_count_as_the_byte_rule() {
        let text = "a<é>\"x\u{1F600}=b€ \u{7FF}'cd\u{10000}ef/ghij\u{FFFD}klmnop\u{80}q".repeat(3);
        let src = text.as_bytes();
        for start in 0..=src.len() {
            for end in start..=src.len() {
                let run = &src[start..end];
                let got = Run::of(src, start, end);
                let want = (
                    run.len() as u32,
                    run.iter().filter(|&&b| b & 0xC0 != 0x80).count() as u32,
                    run.iter().filter(|&&b| b >= 0x80).count() as u32,
                );
                assert_eq!((got.bytes, got.chars, got.high), want, "{start}..{end}");
            }
        }
    }
}
