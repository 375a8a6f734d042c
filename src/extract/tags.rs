//! Tag names the scanner cares about, and what each one means for line
//! breaking, counting and boilerplate.
//!
//! Names arrive ASCII-lowercased (the scanner folds case while it reads
//! them into a fixed buffer). A name of up to seven bytes is one integer,
//! its key, looked up in a small table built at compile time (one
//! multiply, no allocation); the few longer names are matched as slices.
//! Unknown names are `Tag::Other`, which is inline and counts like any
//! markup.

/// The tags that change how the scanner counts or breaks lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tag {
    A,
    Br,
    Title,
    Meta,
    Html,
    Body,
    Pre,
    /// `h1` … `h6`, one variant a level rather than one carrying the
    /// level: a `Tag` is then one byte, a test of a few kinds one bit
    /// test, and an equality one compare (with a level beside it, the
    /// scanner stored and loaded two bytes a tag, and its tests of kinds
    /// compared the level too). See [`Tag::heading_level`].
    H1,
    H2,
    H3,
    H4,
    H5,
    H6,
    /// Block-level containers that also take part in region growth
    /// (div, section, article, main, td, li, ...).
    Container,
    /// Block-level tags that start a new line but are not worth tracking as
    /// containers (p, hr, dt, ...).
    Block,
    /// `nav`, `footer`, `aside`, `figcaption`, `noscript`: boilerplate by
    /// element name. A caption or photo credit describes a picture; what a
    /// page shows only with scripts off is a notice, a tracking pixel or an
    /// ad's fallback (often escaped markup that reads as text), never the
    /// article.
    Landmark,
    /// `header`: page chrome at the top level, but inside an article it holds
    /// the headline, so it only counts as boilerplate outside content.
    Header,
    /// Elements whose content is not text at all: script, style, and the
    /// other raw-text elements. The scanner skips to the matching end tag.
    /// (`noscript` is not one of them: with scripting off, which is what a
    /// crawler sees, its content is markup.)
    RawText,
    /// Elements whose content is parsed but never main text (svg, select,
    /// template, button, form controls with labels).
    Opaque,
    /// `textarea`: raw text that is shown, counted as content.
    Textarea,
    /// Void elements other than the ones above (img, input, link, ...).
    Void,
    Other,
}

impl Tag {
    /// `h1` … `h6`'s level, 1 to 6; `None` for any other tag.
    pub fn heading_level(self) -> Option<u8> {
        match self {
            Tag::H1 => Some(1),
            Tag::H2 => Some(2),
            Tag::H3 => Some(3),
            Tag::H4 => Some(4),
            Tag::H5 => Some(5),
            Tag::H6 => Some(6),
            _ => None,
        }
    }

    /// Is this `h1` … `h6`?
    pub fn is_heading(self) -> bool {
        matches!(
            self,
            Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6
        )
    }

    /// Classifies an ASCII-lowercased tag name.
    pub fn classify(name: &[u8]) -> Tag {
        match name_key(name) {
            0 => Tag::long(name),
            key => Tag::by_key(key),
        }
    }

    /// [`Tag::classify`] of a lowercase `name` whose first eight bytes
    /// (whatever follows its end) are `word`: a short name keyed from one
    /// load, not byte by byte as [`name_key`] must.
    pub fn classify_word(word: u64, name: &[u8]) -> Tag {
        match name.len() {
            len @ 1..=KEY_NAME_MAX => Tag::by_key(word_key(word, len)),
            _ => Tag::long(name),
        }
    }

    /// Classifies a name of 1 to [`KEY_NAME_MAX`] bytes by its
    /// [`name_key`]. The scanner has its names' keys at hand: one
    /// multiply and, almost always, one comparison, where a `match` on
    /// the name jumped on its length first (the scanner's worst-predicted
    /// jump: about half its mispredicted indirect jumps) and then
    /// compared the name with each of that length.
    #[inline]
    pub fn by_key(key: u64) -> Tag {
        let mut i = tag_slot(key);
        // Ends: the table always has empty slots, and no name's key is 0.
        loop {
            let k = TAG_KEYS[i];
            if k == key {
                return TAG_KINDS[i];
            }
            if k == 0 {
                return Tag::Other;
            }
            i = (i + 1) % TAG_SLOTS;
        }
    }

    /// Names too long for a key (and the empty name).
    pub fn long(name: &[u8]) -> Tag {
        match name {
            b"blockquote" | b"fieldset" | b"frameset" => Tag::Container,
            b"colgroup" => Tag::Block,
            b"figcaption" | b"noscript" => Tag::Landmark,
            b"noframes" | b"plaintext" => Tag::RawText,
            b"template" => Tag::Opaque,
            b"textarea" => Tag::Textarea,
            _ => Tag::Other,
        }
    }

    /// Does an opening tag of this kind start a new logical line?
    pub fn breaks_line(self) -> bool {
        matches!(
            self,
            Tag::Container
                | Tag::Block
                | Tag::Landmark
                | Tag::Header
                | Tag::H1
                | Tag::H2
                | Tag::H3
                | Tag::H4
                | Tag::H5
                | Tag::H6
                | Tag::Pre
                | Tag::Body
                | Tag::Title
                | Tag::Textarea
        )
    }

    /// Does this element go on the open-element stack? Void elements never
    /// have content; inline formatting tags are not worth tracking, since
    /// they neither contain boilerplate regions nor take part in growth.
    ///
    /// Paragraph-like blocks (`p`, `dt`, ...) are not tracked either: their
    /// end tags are optional, and untracked they cannot pile up unclosed.
    pub fn is_tracked(self) -> bool {
        matches!(
            self,
            Tag::A
                | Tag::Container
                | Tag::Landmark
                | Tag::Header
                | Tag::Body
                | Tag::Html
                | Tag::Opaque
        )
    }

    /// Does an opening tag of this kind go on the scanner's element stack
    /// when it closes? Anchors are tracked apart (they never nest).
    pub fn is_stacked(self) -> bool {
        self.is_tracked() && self != Tag::A
    }

    /// Is this an element the scanner does not stack but still stacks
    /// when the `hidden` attribute or its style hides it (and, until it
    /// closes, every element of these kinds inside it): `<pre hidden>`
    /// with a raw copy of the article, `<span hidden>` with a widget's
    /// settings as JSON, `<span style="display:none">` with a gallery's
    /// captions. Paragraphs are not among them: their end tag is often
    /// implied.
    pub fn stacks_when_hidden(self) -> bool {
        matches!(self, Tag::Pre | Tag::Other)
    }

    /// Does the text renderer leave out this element's content (script,
    /// style, svg, title, textarea and the like)?
    pub fn hides_text(self) -> bool {
        matches!(
            self,
            Tag::RawText | Tag::Opaque | Tag::Title | Tag::Textarea
        )
    }

    /// Is this a block element for the text renderer (starts a paragraph)?
    pub fn is_block(self) -> bool {
        self.breaks_line() || matches!(self, Tag::Html)
    }
}

/// Every name that is not [`Tag::Other`], and the commonest that are
/// (listed so that they are found at once rather than by probing to an
/// empty slot). The table holds those short enough for a key.
const NAMES: &[(&[u8], Tag)] = &[
    (b"a", Tag::A),
    (b"br", Tag::Br),
    (b"wbr", Tag::Br),
    (b"title", Tag::Title),
    (b"meta", Tag::Meta),
    (b"html", Tag::Html),
    (b"body", Tag::Body),
    (b"pre", Tag::Pre),
    (b"listing", Tag::Pre),
    (b"h1", Tag::H1),
    (b"h2", Tag::H2),
    (b"h3", Tag::H3),
    (b"h4", Tag::H4),
    (b"h5", Tag::H5),
    (b"h6", Tag::H6),
    (b"div", Tag::Container),
    (b"section", Tag::Container),
    (b"article", Tag::Container),
    (b"main", Tag::Container),
    (b"td", Tag::Container),
    (b"th", Tag::Container),
    (b"li", Tag::Container),
    (b"ul", Tag::Container),
    (b"ol", Tag::Container),
    (b"dl", Tag::Container),
    (b"table", Tag::Container),
    (b"tbody", Tag::Container),
    (b"thead", Tag::Container),
    (b"tfoot", Tag::Container),
    (b"tr", Tag::Container),
    (b"blockquote", Tag::Container),
    (b"form", Tag::Container),
    (b"fieldset", Tag::Container),
    (b"figure", Tag::Container),
    (b"center", Tag::Container),
    (b"dd", Tag::Container),
    (b"details", Tag::Container),
    (b"dialog", Tag::Container),
    (b"menu", Tag::Container),
    (b"frameset", Tag::Container),
    (b"frame", Tag::Container),
    (b"hgroup", Tag::Container),
    (b"address", Tag::Container),
    (b"caption", Tag::Container),
    (b"p", Tag::Block),
    (b"hr", Tag::Block),
    (b"dt", Tag::Block),
    (b"figcaption", Tag::Landmark),
    (b"legend", Tag::Block),
    (b"summary", Tag::Block),
    (b"option", Tag::Block),
    (b"head", Tag::Block),
    (b"colgroup", Tag::Block),
    (b"nav", Tag::Landmark),
    (b"footer", Tag::Landmark),
    (b"aside", Tag::Landmark),
    (b"header", Tag::Header),
    (b"script", Tag::RawText),
    (b"style", Tag::RawText),
    (b"iframe", Tag::RawText),
    (b"noembed", Tag::RawText),
    (b"noframes", Tag::RawText),
    (b"xmp", Tag::RawText),
    (b"plaintext", Tag::RawText),
    (b"svg", Tag::Opaque),
    (b"math", Tag::Opaque),
    (b"select", Tag::Opaque),
    (b"template", Tag::Opaque),
    (b"button", Tag::Opaque),
    (b"object", Tag::Opaque),
    (b"canvas", Tag::Opaque),
    (b"video", Tag::Opaque),
    (b"audio", Tag::Opaque),
    (b"map", Tag::Opaque),
    (b"textarea", Tag::Textarea),
    (b"img", Tag::Void),
    (b"input", Tag::Void),
    (b"link", Tag::Void),
    (b"area", Tag::Void),
    (b"base", Tag::Void),
    (b"col", Tag::Void),
    (b"embed", Tag::Void),
    (b"param", Tag::Void),
    (b"source", Tag::Void),
    (b"track", Tag::Void),
    (b"keygen", Tag::Void),
    (b"image", Tag::Void),
    // Common inline names, found at once.
    (b"span", Tag::Other),
    (b"b", Tag::Other),
    (b"i", Tag::Other),
    (b"em", Tag::Other),
    (b"strong", Tag::Other),
    (b"label", Tag::Other),
    (b"path", Tag::Other),
    (b"use", Tag::Other),
    (b"small", Tag::Other),
    (b"time", Tag::Other),
    (b"picture", Tag::Other),
    (b"font", Tag::Other),
    (b"sup", Tag::Other),
    (b"code", Tag::Other),
    (b"u", Tag::Other),
    (b"abbr", Tag::Other),
    (b"cite", Tag::Other),
];

/// The longest name that has a key: one byte of the key holds the
/// length. (Nine of the names this module knows are longer: see
/// [`Tag::long`].)
pub const KEY_NAME_MAX: usize = 7;

/// A name of 1 to [`KEY_NAME_MAX`] bytes as an integer: its bytes
/// little-endian, then zeros, and its length in the top byte (so a name
/// with NUL bytes never matches a shorter one); 0 for any other.
pub const fn name_key(name: &[u8]) -> u64 {
    if name.is_empty() || name.len() > KEY_NAME_MAX {
        return 0;
    }
    let mut k = (name.len() as u64) << 56;
    let mut i = 0;
    while i < name.len() {
        k |= (name[i] as u64) << (8 * i);
        i += 1;
    }
    k
}

/// [`name_key`] of a name of `len` bytes (1 to [`KEY_NAME_MAX`]) held in
/// the low bytes of `word`, little-endian, whatever the bytes above it:
/// for names read eight bytes at once (the scanner's and the text
/// stage's), where `name_key` would take them byte by byte.
#[inline(always)]
pub fn word_key(word: u64, len: usize) -> u64 {
    debug_assert!((1..=KEY_NAME_MAX).contains(&len));
    // The mask from a table: one load, where building it took a shift
    // by a count worked out from `len` (x86 shifts only by `cl`): −1.0 M
    // instructions on every 15th page, the scanner's and the text
    // stage's names together.
    word & LOW_BYTES[len & 7] | (len as u64) << 56
}

/// `LOW_BYTES[n]`: the low `n` bytes of a word set (for `n` below 8).
static LOW_BYTES: [u64; 8] = {
    let mut masks = [0u64; 8];
    let mut n = 1;
    while n < 8 {
        masks[n] = (1 << (8 * n)) - 1;
        n += 1;
    }
    masks
};

/// Table size: a power of two, under a third full.
const TAG_SLOTS: usize = 512;
const _: () = assert!(TAG_SLOTS.is_power_of_two() && 3 * NAMES.len() < TAG_SLOTS);

const fn tag_slot(key: u64) -> usize {
    let mixed = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (mixed >> (64 - TAG_SLOTS.trailing_zeros())) as usize
}

/// The keys of the names that have one in an open-addressing table (0:
/// an empty slot), and in the same slots their kinds: apart, so that the
/// keys probed are dense (4 KiB).
static TAG_KEYS: [u64; TAG_SLOTS] = tag_table().0;
static TAG_KINDS: [Tag; TAG_SLOTS] = tag_table().1;

const fn tag_table() -> ([u64; TAG_SLOTS], [Tag; TAG_SLOTS]) {
    let mut keys = [0u64; TAG_SLOTS];
    let mut kinds = [Tag::Other; TAG_SLOTS];
    let mut i = 0;
    while i < NAMES.len() {
        let (name, tag) = NAMES[i];
        let k = name_key(name);
        if k == 0 {
            // Too long for a key: `Tag::long` has it.
            i += 1;
            continue;
        }
        let mut at = tag_slot(k);
        while keys[at] != 0 {
            // A name listed twice would be a mistake in the list.
            assert!(keys[at] != k);
            at = (at + 1) % TAG_SLOTS;
        }
        keys[at] = k;
        kinds[at] = tag;
        i += 1;
    }
    (keys, kinds)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name's key read from a word is the key read byte by byte,
    /// whatever follows the name in the word.
    #[test]
    fn word_key_is_name_key() {
        for name in [
            &b"a"[..],
            b"br",
            b"DiV",
            b"x\0y",
            b"\xff\xfe",
            b"section",
            b"article",
        ] {
            for tail in [0u8, b'>', 0xFF] {
                let mut word = [tail; 8];
                word[..name.len()].copy_from_slice(name);
                assert_eq!(
                    word_key(u64::from_le_bytes(word), name.len()),
                    name_key(name),
                    "{name:?}"
                );
            }
        }
    }

    /// The classification as it was written before the table: a `match`.
    fn classify_by_match(name: &[u8]) -> Tag {
        match name {
            b"a" => Tag::A,
            b"br" | b"wbr" => Tag::Br,
            b"title" => Tag::Title,
            b"meta" => Tag::Meta,
            b"html" => Tag::Html,
            b"body" => Tag::Body,
            b"pre" | b"listing" => Tag::Pre,
            b"h1" => Tag::H1,
            b"h2" => Tag::H2,
            b"h3" => Tag::H3,
            b"h4" => Tag::H4,
            b"h5" => Tag::H5,
            b"h6" => Tag::H6,
            b"div" | b"section" | b"article" | b"main" | b"td" | b"th" | b"li" | b"ul" | b"ol"
            | b"dl" | b"table" | b"tbody" | b"thead" | b"tfoot" | b"tr" | b"blockquote"
            | b"form" | b"fieldset" | b"figure" | b"center" | b"dd" | b"details" | b"dialog"
            | b"menu" | b"frameset" | b"frame" | b"hgroup" | b"address" | b"caption" => {
                Tag::Container
            }
            b"p" | b"hr" | b"dt" | b"legend" | b"summary" | b"option" | b"head" | b"colgroup" => {
                Tag::Block
            }
            b"nav" | b"footer" | b"aside" | b"figcaption" | b"noscript" => Tag::Landmark,
            b"header" => Tag::Header,
            b"script" | b"style" | b"iframe" | b"noembed" | b"noframes" | b"xmp" | b"plaintext" => {
                Tag::RawText
            }
            b"svg" | b"math" | b"select" | b"template" | b"button" | b"object" | b"canvas"
            | b"video" | b"audio" | b"map" => Tag::Opaque,
            b"textarea" => Tag::Textarea,
            b"img" | b"input" | b"link" | b"area" | b"base" | b"col" | b"embed" | b"param"
            | b"source" | b"track" | b"keygen" | b"image" => Tag::Void,
            _ => Tag::Other,
        }
    }

    /// The table answers what the `match` answered: for every listed
    /// name, every name one byte longer or shorter, names with NUL bytes
    /// (which a key's zero padding must not confuse with shorter ones),
    /// upper case, and names too long for a key.
    #[test]
    fn table_agrees_with_the_match() {
        let mut names: Vec<Vec<u8>> = Vec::new();
        for &(name, _) in NAMES {
            names.push(name.to_vec());
            names.push(name[..name.len() - 1].to_vec());
            names.push([name, b"x"].concat());
            names.push([name, b"\0"].concat());
            names.push([b"\0", name].concat());
            names.push(name.to_ascii_uppercase());
        }
        names.push(vec![b'x'; KEY_NAME_MAX + 1]);
        names.push(Vec::new());
        names.push(b"annotation-xml".to_vec());
        for name in &names {
            assert_eq!(
                Tag::classify(name),
                classify_by_match(name),
                "{}",
                name.escape_ascii()
            );
            // Keyed from a word whose bytes past the name are not zero.
            let mut word = [b'z'; 8];
            let n = name.len().min(8);
            word[..n].copy_from_slice(&name[..n]);
            assert_eq!(
                Tag::classify_word(u64::from_le_bytes(word), name),
                classify_by_match(name),
                "word: {}",
                name.escape_ascii()
            );
        }
    }

    #[test]
    fn classifies_common_tags() {
        assert_eq!(Tag::classify(b"p"), Tag::Block);
        assert_eq!(Tag::classify(b"div"), Tag::Container);
        assert_eq!(Tag::classify(b"h2"), Tag::H2);
        assert_eq!(Tag::classify(b"script"), Tag::RawText);
        assert_eq!(Tag::classify(b"nav"), Tag::Landmark);
        assert_eq!(Tag::classify(b"span"), Tag::Other);
        assert!(Tag::classify(b"li").breaks_line());
        assert!(!Tag::classify(b"a").breaks_line());
        assert!(!Tag::classify(b"img").is_tracked());
    }
}
