//! Boilerplate signals from `class` and `id` attribute values (seed 003).
//!
//! A value is split into name parts at anything that is not a letter or a
//! digit and at lower→upper case changes (`site-footer`, `mainNav`,
//! `comment_list`), and each part is looked up whole. Substring matching is
//! deliberately avoided: `content-sidebar-wrap` must not read as "sidebar"
//! alone, since it wraps the content; content words in the same value
//! (content, main, article, post, ...) cancel the boilerplate words. A
//! furniture word in a modifier's place marks nothing: after a BEM
//! modifier's `--`, or inside a compound before a camelCase head
//! (`lm_navSource`). Words
//! that name a page's building blocks (widget, banner, teaser, ...) give a
//! weaker mark, [`Signal::Layout`], which the selection may drop, and so
//! do those that name blocks shown only on demand (modal, popup,
//! dropdown, hidden, ...), [`Signal::Overlay`].
//!
//! This module only classifies one attribute value; the scanner decides what
//! an element's signal means for its lines.

use super::blocks::{Block, at_most};
use super::text_count::spaces;
use wide::u8x16;

/// What a class/id value says about its element. Ordered by precedence:
/// when a value (or an element's class and id) says several things, the
/// greatest wins, so content words cancel boilerplate ones and a
/// furniture word outranks a layout word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Signal {
    #[default]
    Neutral,
    /// Names a building block of the page (widget, banner, teaser, ...):
    /// furniture on most pages, but page builders wrap the article in
    /// them too. Counted as boilerplate; the selection drops these marks
    /// when most of the page's text carries them.
    Layout,
    /// Names a block shown only on demand (modal, popup, dropdown,
    /// hidden, offcanvas): a [`Layout`](Signal::Layout) mark in every
    /// respect, except that such a block is never part of the article's
    /// flow (the selection drops in-flow layout marks inside an article,
    /// not these). Above `Layout`: a widget that pops up is a pop-up.
    Overlay,
    /// Names page furniture: navigation, footers, sharing, ads.
    Boilerplate,
    /// Names reader comments (comments, disqus, ...): furniture like
    /// [`Boilerplate`](Signal::Boilerplate) everywhere, except that the
    /// selection keeps these marks when it drops the others on a page
    /// that reads as mostly boilerplate (a blog post and its thread under
    /// one misleading wrapper). Above furniture: `comment-nav` is still
    /// the thread's.
    Comment,
    /// Names the content itself.
    Content,
}

/// Classifies one class or id attribute value: its words as they stand
/// ([`classify_parts`]), or, when a token names a BEM element
/// (`block__element`), as [`bem_elements`] cuts them.
pub fn classify(value: &[u8]) -> Signal {
    classify_parts(value, true)
}

/// A class value whose BEM element names are cut to the element where
/// their block names the content (`c-article__sharing` to `c-sharing`,
/// `entry-meta__date` to `meta-date`): what follows a token's last `__`
/// names the node, and the block before it an ancestor, which carries its
/// own class. The block's words that mark something, content or
/// furniture, say nothing of this node and go; its other words stay, as
/// they may name the node with the element (`entry-author__description`
/// is an author's box). A block that names no content stays whole
/// (`footer__text` is read whole).
fn bem_elements(value: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(value.len() + 1);
    for token in value.split(|b| b.is_ascii_whitespace()) {
        match token.windows(2).rposition(|w| w == b"__") {
            Some(i) if classify_parts(&token[..i], false) == Signal::Content => {
                for part in token[..i].split(|b| !b.is_ascii_alphanumeric()) {
                    if !part.is_empty() && classify_parts(part, false) == Signal::Neutral {
                        out.extend_from_slice(part);
                        out.push(b'-');
                    }
                }
                out.extend_from_slice(&token[i + 2..]);
            }
            _ => out.extend_from_slice(token),
        }
        out.push(b' ');
    }
    out
}

/// Classifies a class or id value by its words as they stand; with `bem`,
/// a value that holds a `__` is cut by [`bem_elements`] first (the `__`
/// is found by the same vector tests).
///
/// Sixteen bytes at a time (`super::blocks`): a few vector tests give
/// bitmasks of the letters, digits and whitespace, and from them where
/// each name part starts and ends; only the ends are visited. Most parts
/// are no word (four in five on the corpus), so a part is first tested
/// by its length and its first and last bytes ([`may_be_word`]), and only
/// one that passes is looked up and placed in its token ([`Place`],
/// [`Words`]): what the rules need of the bytes before it (the last
/// whitespace and `--`, whether the token has a part before it, the word
/// just before) is worked out then, not tracked part by part. This runs
/// for every id and every class the memo has not seen (a third of them;
/// see [`Memo`]); tracking each part's place, as every part was looked
/// up, cost 1,000 instructions a value on the corpus, against 650 this
/// way.
fn classify_parts(value: &[u8], bem: bool) -> Signal {
    // A value that is `reviews` alone names the block of reviews (see
    // `Reviews` for the word within values).
    if value.eq_ignore_ascii_case(b"reviews") {
        return Signal::Boilerplate;
    }
    let mut words = Words::default();
    // The previous block's bytes and this one's, lowercased (a part is
    // letters and digits: setting bit 5 lowercases the letters and leaves
    // the digits), then zeros: a part's key is loaded from here at once.
    let mut bytes = [0u8; 48];
    // The previous block's last byte: alphanumeric, lowercase letter, dash.
    let (mut prev_alnum, mut prev_lower, mut prev_dash) = (0u32, 0u32, 0u32);
    let mut prev_under = 0u32;
    // Where the last whitespace and the last `--` before this block end
    // (0: none).
    let (mut space_end, mut double_end) = (0usize, 0usize);
    // Where the part being read started.
    let mut start = 0usize;
    // Parts ended so far.
    let mut parts = 0usize;
    let mut at = 0;
    // One block more when a part runs to the end of a value that fills
    // its last block: the zero padding after it ends it.
    while at < value.len() || prev_alnum != 0 {
        let block = Block::at_unpadded(value, at);
        let kinds = Kinds::of(block);
        bytes.copy_within(16..32, 0);
        bytes[16..32].copy_from_slice(&(block.v | u8x16::splat(0x20)).to_array());
        let before_alnum = (kinds.alnum << 1) | prev_alnum;
        let camel = kinds.upper & ((kinds.lower << 1) | prev_lower);
        // A part ends at a separator after a letter or digit (the zero
        // padding past the value's end among them) and where a lowercase
        // letter is followed by an uppercase one, where the next starts.
        let ends = (!kinds.alnum & before_alnum & 0xffff) | camel;
        let starts = (kinds.alnum & !before_alnum) | camel;
        let dash = block.eq(b'-');
        let double = dash & ((dash << 1) | prev_dash);
        let under = block.eq(b'_');
        if bem && under & ((under << 1) | prev_under) != 0 {
            return classify_parts(&bem_elements(value), false);
        }
        let mut ends_left = ends;
        while ends_left != 0 {
            let i = ends_left.trailing_zeros() as usize;
            // The part's start: the last start before its end, in this
            // block or (none here) carried from an earlier one.
            let below = starts & ((1 << i) - 1);
            if below != 0 {
                start = at + (31 - below.leading_zeros()) as usize;
            }
            let len = at + i - start;
            if len <= LONGEST {
                // The part's place in the window: it began at most
                // fifteen bytes back, so in this block or the previous.
                let k = i + 16 - len;
                // k is 1..=30, so `k + 16` stays inside the 48-byte
                // window: the masks and `get` only spare bounds checks.
                if may_be_word(len, bytes[k & 31], bytes[(i + 15) & 31]) {
                    let key = bytes
                        .get(k..k + 16)
                        .and_then(|b| b.try_into().ok())
                        .map_or(0, u128::from_le_bytes)
                        & (u128::MAX >> (8 * (16 - len)));
                    // The whitespace and `--` last before the part: in
                    // this block, or (none here, or the part began in the
                    // previous one, which then has none after its start)
                    // carried.
                    let before = match start.checked_sub(at) {
                        Some(j) => (1u32 << j) - 1,
                        None => 0,
                    };
                    let token_start = end_of(kinds.space & before, at).unwrap_or(space_end);
                    let modifier = end_of(double & before, at).unwrap_or(double_end) > token_start;
                    words.part(
                        value,
                        key,
                        Place {
                            part: parts,
                            start,
                            token_start,
                            modifier,
                            camel_end: camel >> i & 1 != 0,
                        },
                    );
                }
            }
            parts += 1;
            ends_left &= ends_left - 1;
        }
        if words.found == Signal::Content && !words.may_take_back(parts) {
            // Nothing outranks it (but `reviews` may yet undo the
            // content word just read), unless a `__` follows.
            let rest = value.get(at + 15..).unwrap_or_default();
            if bem && rest.windows(2).any(|w| w == b"__") {
                return classify_parts(&bem_elements(value), false);
            }
            return Signal::Content;
        }
        space_end = end_of(kinds.space, at).unwrap_or(space_end);
        double_end = end_of(double, at).unwrap_or(double_end);
        if starts != 0 {
            start = at + (31 - starts.leading_zeros()) as usize;
        }
        prev_alnum = kinds.alnum >> 15 & 1;
        prev_lower = kinds.lower >> 15 & 1;
        prev_dash = dash >> 15 & 1;
        prev_under = under >> 15 & 1;
        at += 16;
    }
    words.found
}

/// Where the last byte that `mask` marks in the block at `at` ends (the
/// place after it), if any.
#[inline]
fn end_of(mask: u32, at: usize) -> Option<usize> {
    (mask != 0).then(|| at + 32 - mask.leading_zeros() as usize)
}

/// Whether the part starting at `start` is the first of its class token:
/// no letter or digit comes before it after the last whitespace. Read
/// back from the part, only for a part that may be a word: the bytes
/// read for one part lie after the previous part's last letter or digit,
/// so a value's bytes are read once at most, however many parts it has.
fn first_in_token(value: &[u8], start: usize) -> bool {
    for &b in value.get(..start).unwrap_or_default().iter().rev() {
        if b.is_ascii_alphanumeric() {
            return false;
        }
        if b.is_ascii_whitespace() {
            return true;
        }
    }
    true
}

/// Whether the part starting at `start` begins at a camelCase change (a
/// capital after a small letter), as `classify`'s `camel` mask marks it:
/// worked out only for the rare `reviews` part.
fn camel_at(value: &[u8], start: usize) -> bool {
    start > 0
        && value.get(start).is_some_and(u8::is_ascii_uppercase)
        && value.get(start - 1).is_some_and(u8::is_ascii_lowercase)
}

/// Where a part that may be a word stands (see [`Words::part`]).
struct Place {
    /// How many parts came before it in the value.
    part: usize,
    /// Where it starts.
    start: usize,
    /// Where its class token starts.
    token_start: usize,
    /// Whether a BEM modifier's `--` comes before it in its token.
    modifier: bool,
    /// Whether the next part begins where it ends, at a camelCase change.
    camel_end: bool,
}

/// What the words read so far in a value say, and what the last of them
/// leaves for the next part. A part that is no word (the table says
/// nothing of it) leaves nothing: it is not looked at, and the next word
/// sees that it does not follow the last word read.
#[derive(Debug, Clone, Copy, Default)]
struct Words {
    found: Signal,
    /// What the first part of the token that `head_start` began said
    /// (see `in_token`).
    head: Signal,
    head_start: usize,
    /// The index of the part right after the last word read: when the
    /// part being read has another index, parts that are no word came
    /// between.
    next: usize,
    /// The flags of the last word (see `author_box`).
    last_flags: Flags,
    /// The furniture word a camelCase part just followed inside a
    /// compound: it counts when that part is `bar`.
    camel_modifier: Signal,
    /// What the last word left (see `Reviews`).
    reviews: Reviews,
}

impl Words {
    /// Reads a part that may be a word: its lowercase `key`, where it
    /// stands.
    #[inline]
    fn part(&mut self, value: &[u8], key: u128, place: Place) {
        if self.next != place.part {
            // Parts that are no word came between: what the last word
            // left is gone. (Whitespace no longer resets `reviews`: a part
            // after whitespace is first in its token, and `reviews` first
            // in its token takes nothing back.)
            self.last_flags = 0;
            self.camel_modifier = Signal::Neutral;
            self.reviews = Reviews::default();
        }
        let first = first_in_token(value, place.start);
        let modifier = place.modifier;
        let (signal, flags) = lookup(key);
        let signal = author_box(
            part_signal(signal, flags, first),
            flags,
            first,
            &mut self.last_flags,
        );
        let mut signal = unless_modifier(signal, modifier);
        if flags & IS_REVIEWS != 0 {
            signal = self.reviews.head(
                &mut self.found,
                first || modifier || camel_at(value, place.start),
            );
        }
        if self.camel_modifier != Signal::Neutral {
            if flags & IS_BAR != 0 {
                self.found = self.found.max(self.camel_modifier);
            }
            self.camel_modifier = Signal::Neutral;
        }
        // Inside a compound, a furniture word that a camelCase part
        // follows modifies that part, the compound's head: `lm_navSource`
        // is the panel a nav tab shows, `StoreSaleWidgetShortDesc` a
        // description. Unless the head is `Bar` (`topNavBar` spells a
        // navbar). A token's first part is left alone: there camelCase
        // names a block by its place (`sidePanel`, `AdsLeft`).
        if signal != Signal::Neutral && signal < Signal::Comment && place.camel_end && !first {
            self.camel_modifier = signal;
            signal = Signal::Neutral;
        }
        if first {
            self.head_start = place.start;
        } else if self.head_start < place.token_start {
            // The token's first part was no word.
            self.head = Signal::Neutral;
        }
        let said = in_token(&mut self.head, signal, first);
        self.reviews.read(self.found, said);
        self.found = self.found.max(said);
        self.next = place.part + 1;
    }

    /// Whether a `reviews` part may yet take back what `found` says: the
    /// last part read (`parts` of them) was a content word.
    #[inline]
    fn may_take_back(&self, parts: usize) -> bool {
        self.next == parts && self.reviews.after_content
    }
}

/// Whether a part of `len` bytes (at most [`LONGEST`]) with this first
/// and last byte (lowercase) may be a word: [`FIRST_LAST`] says.
#[inline]
fn may_be_word(len: usize, first: u8, last: u8) -> bool {
    FIRST_LAST[(len << 5 | usize::from(first & 31)) & 511] >> (last & 31) & 1 != 0
}

/// For each length (at most [`LONGEST`]) and first byte (its low five
/// bits), a bit for the last byte's low five bits of each word in the
/// table: a part whose bit is clear is no word. The part's length and
/// two bytes come straight from the window, with no key to cut: about
/// one part in twenty-five that is no word gets past (on the corpus).
static FIRST_LAST: [u32; 512] = {
    let mut f = [0u32; 512];
    let mut i = 0;
    while i < SLOTS {
        let k = TABLE[i].0;
        if k != 0 {
            let len = (128 - k.leading_zeros() as usize).div_ceil(8);
            let first = k as u8;
            let last = (k >> (8 * (len - 1))) as u8;
            f[len << 5 | (first & 31) as usize] |= 1 << (last & 31);
        }
        i += 1;
    }
    f
};

/// What a class token's previous part left, for `reviews`, which marks
/// furniture ([`Signal::Boilerplate`]) only where it names a list of
/// customers' reviews below a product: as a whole value (`id="reviews"`)
/// or after another part of its token (`grw-reviews`, `customer-reviews`,
/// `user_reviews`), even after a content word (`product-reviews`,
/// `recipe-reviews`: the reviews of the product, not the product). First
/// in its token (`reviews-section`, `Reviews_section`, a class `reviews`
/// beside others) it names a section of a landing page, a review site's
/// own section or a card's look; after a BEM modifier's `--` or begun at a
/// camelCase change (Amazon's `editorialReviews`, a book's blurbs) it is
/// left alone too.
#[derive(Debug, Clone, Copy, Default)]
struct Reviews {
    /// Whether the token's previous part was a content word.
    after_content: bool,
    /// What the value said before that part.
    before: Signal,
}

impl Reviews {
    /// Notes a part read: `found` before it, `said` by it.
    #[inline]
    fn read(&mut self, found: Signal, said: Signal) {
        self.after_content = said == Signal::Content;
        self.before = found;
    }

    /// The signal of a `reviews` part, `alone` when it begins its token
    /// or a camelCase part; after a content word, that word's mark is
    /// taken back from `found`.
    #[inline]
    fn head(&self, found: &mut Signal, alone: bool) -> Signal {
        if alone {
            return Signal::Neutral;
        }
        if self.after_content {
            *found = self.before;
        }
        Signal::Boilerplate
    }
}

/// The signal of a part (`signal` from the tables) where the box about a
/// post's author counts: one of [`AUTHOR_BOX`] right after `author` in its
/// token (`author-bio`, `author_info`, `elementor-author-box`) marks
/// furniture, as does `author` right after `about` (`about-author`,
/// `wp-about-author-wrap`, `AboutAuthor`), and `authorbio`, `authorbox`
/// and `authorinfo` in the tables. Alone, `bio` names the content of
/// profile pages (`profile_bio`, a company's profile), `about` an about
/// page's, and `author-profile` may hold a speaker's profile that is the
/// page's content. `last` carries the flags of this part to the next: one
/// comparison a part, the pairs looked at only after `author` or `about`.
#[inline]
fn author_box(signal: Signal, flags: Flags, first: bool, last: &mut Flags) -> Signal {
    let was = std::mem::replace(last, flags);
    if was & (IS_AUTHOR | IS_ABOUT) == 0 || first {
        return signal;
    }
    let pair = (was & IS_AUTHOR != 0 && flags & IS_AUTHOR_BOX != 0)
        || (was & IS_ABOUT != 0 && flags & IS_AUTHOR != 0);
    if pair { Signal::Boilerplate } else { signal }
}

/// The bytes of a block that are ASCII letters (lower and upper case),
/// letters or digits, and whitespace, as bitmasks (only the value's own
/// bytes: the padding is none of these).
struct Kinds {
    lower: u32,
    upper: u32,
    alnum: u32,
    space: u32,
}

impl Kinds {
    #[inline]
    fn of(block: Block) -> Kinds {
        let within = |from: u8, to: u8| at_most(block.v - u8x16::splat(from), to - from);
        let lower = within(b'a', b'z');
        let upper = within(b'A', b'Z');
        let digit = within(b'0', b'9');
        Kinds {
            lower,
            upper,
            alnum: lower | upper | digit,
            space: spaces(block.v) & block.present,
        }
    }
}

/// A part's signal where it stands after a BEM modifier's `--`
/// (`container--section-more-ads`, `card--sidebar`): there a furniture
/// word says how a block looks or where it sits, not what it holds.
#[inline]
fn unless_modifier(signal: Signal, modifier: bool) -> Signal {
    if modifier && signal < Signal::Comment {
        Signal::Neutral
    } else {
        signal
    }
}

/// What a part's signal says within its class token, whose first part
/// said `head` (set here when the part is the first). A content word
/// after a comment word names a part of a comment (`comment-body`,
/// `comment-content`, `comments-body`: WordPress's and Movable Type's
/// comments), not the page's content.
#[inline]
fn in_token(head: &mut Signal, signal: Signal, first: bool) -> Signal {
    if first {
        *head = signal;
        signal
    } else if *head == Signal::Comment && signal == Signal::Content {
        Signal::Comment
    } else {
        signal
    }
}

/// What a part (its signal and flags from the table) says where it
/// stands: a modifier word (see [`FIRST_ONLY`]) marks boilerplate only
/// as the first part of its class token.
#[inline]
fn part_signal(signal: Signal, flags: u8, first: bool) -> Signal {
    match signal {
        Signal::Boilerplate | Signal::Layout | Signal::Overlay
            if !first && flags & IS_FIRST_ONLY != 0 =>
        {
            Signal::Neutral
        }
        signal => signal,
    }
}

/// Remembers the signals of recent class values (the scanner classifies
/// ids, unique on a page, every time). Pages repeat the same values
/// (every item of a list, every cell of a table), and a hash and a
/// compare cost far less than splitting and looking up each part again.
/// Direct-mapped: a value evicts whatever shared its slot (512 slots
/// instead of 256 saved 0.14 M of 583 M instructions on every 15th
/// corpus page: not worth twice the slots to set up for each page).
/// Values longer than [`MEMO_WIDTH`] are classified every time. The
/// values are kept one after another in an arena allocated whole at the
/// first value remembered (a page with no class value allocates
/// nothing; one with only `class=""` takes it all) that starts over,
/// forgetting everything, when full.
#[derive(Debug, Clone)]
pub(crate) struct Memo {
    arena: Vec<u8>,
    slots: [Slot; MEMO_SLOTS],
}

/// A remembered value: `arena[start..start + len]`, and its signal.
#[derive(Debug, Clone, Copy)]
struct Slot {
    start: u32,
    /// `u16::MAX` for an empty slot (no value is that long).
    len: u16,
    signal: Signal,
}

const EMPTY: Slot = Slot {
    start: 0,
    len: u16::MAX,
    signal: Signal::Neutral,
};

/// 256 rather than 64: an eighth fewer values classified again on the
/// corpus, for 2 KiB of slots to set up a page (against 512 bytes).
const MEMO_SLOTS: usize = 256;
const _: () = assert!(MEMO_SLOTS.is_power_of_two() && MEMO_SLOTS > 1);
/// Long values are worth remembering most: utility-class lists run to
/// hundreds of bytes and repeat on every item.
const MEMO_WIDTH: usize = 512;
/// The arena's size: when the next value would not fit, it starts over.
const ARENA_CAP: usize = 16 * 1024;

impl Default for Memo {
    fn default() -> Self {
        Memo {
            arena: Vec::new(),
            slots: [EMPTY; MEMO_SLOTS],
        }
    }
}

impl Memo {
    /// [`classify`], answered from memory when the value was seen lately.
    pub(crate) fn classify(&mut self, value: &[u8]) -> Signal {
        if value.len() > MEMO_WIDTH {
            return classify(value);
        }
        let slot = memo_slot(value);
        let kept = self.slots[slot];
        let start = kept.start as usize;
        if usize::from(kept.len) == value.len()
            && self.arena.get(start..start + value.len()) == Some(value)
        {
            return kept.signal;
        }
        let signal = classify(value);
        if self.arena.len() + value.len() > ARENA_CAP {
            self.arena.clear();
            self.slots = [EMPTY; MEMO_SLOTS];
        }
        if self.arena.capacity() == 0 {
            // All the room the arena will take, at its first value: grown
            // from empty, it was reallocated and copied about six times on
            // a page with classes.
            self.arena.reserve(ARENA_CAP);
        }
        self.slots[slot] = Slot {
            start: self.arena.len() as u32,
            len: value.len() as u16,
            signal,
        };
        self.arena.extend_from_slice(value);
        signal
    }
}

/// A value's slot: a hash of its length and of its first, middle and
/// last eight bytes (a value under eight bytes: its first and last four,
/// or its first and last byte), not of every byte,
/// which foldhash spent 25 instructions a value on. Values that differ
/// only elsewhere share a slot and push each other out; the compare of
/// the whole value keeps the answers right.
#[inline]
fn memo_slot(value: &[u8]) -> usize {
    let n = value.len();
    let (first, middle, last) = match (value.first_chunk::<8>(), value.last_chunk::<8>()) {
        (Some(first), Some(last)) => {
            let middle = value
                .get(n / 2 - 4..)
                .and_then(<[u8]>::first_chunk::<8>)
                .map_or(0, |m| u64::from_le_bytes(*m));
            (
                u64::from_le_bytes(*first),
                middle,
                u64::from_le_bytes(*last),
            )
        }
        _ => {
            let (first, last) = match (value.first_chunk::<4>(), value.last_chunk::<4>()) {
                (Some(first), Some(last)) => {
                    (u32::from_le_bytes(*first), u32::from_le_bytes(*last))
                }
                _ => {
                    let byte = |i: usize| value.get(i).map_or(0, |&b| u32::from(b));
                    (byte(0) | byte(1) << 8, byte(n.wrapping_sub(1)))
                }
            };
            (u64::from(first), 0, u64::from(last))
        }
    };
    let h = (first ^ n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ middle.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(21)
        ^ last.wrapping_mul(0x1656_67B1_9E37_79F9).rotate_left(42);
    // The top bits of a last multiply mix every bit of `h`.
    (h.wrapping_mul(0xD6E8_FEB8_6659_FD93) >> (64 - MEMO_SLOTS.trailing_zeros())) as usize
}

/// Boilerplate and layout words that also name modifiers and layout slots
/// in class tokens: `class="hidden"` or `class="sidebar"` is page
/// furniture; `overflow-hidden`, `field--label-hidden`, `l-grid--sidebar`,
/// `is-style-sidebar` or `banner-layers` say how an element looks or where
/// it sits, not what it holds. These count only as the first part of their
/// token.
const FIRST_ONLY: [&str; 6] = ["hidden", "side", "sidebar", "banner", "more", "teaser"];

/// The furniture word that counts only where [`Reviews`] says (in no
/// list: the table's words count wherever they stand).
const REVIEWS: &str = "reviews";

/// The head that keeps a compound's furniture word (`topNavBar`).
const BAR: &str = "bar";

/// The words of an author's box (see [`author_box`]): `author`, and
/// the parts that name the box after it.
const AUTHOR: &str = "author";
/// The word before `author` that names its box too (`about-author`).
const ABOUT: &str = "about";
const AUTHOR_BOX: [&str; 7] = [
    "bio",
    "bios",
    "box",
    "info",
    "description",
    "details",
    "card",
];

/// What the table says of a word besides its signal: the rules that look
/// at particular words rather than at a word's class, each a bit. They
/// sit in the table's entries (a `u128` key leaves room beside it), so a
/// part's lookup answers them all and a part that is no word still
/// leaves at the filter: comparing every part's key with each word was
/// most of these rules' cost (the author-box rule's alone +4.0 M
/// instructions on every 15th corpus page, 110 a `classify` call).
type Flags = u8;
/// A word of [`FIRST_ONLY`].
const IS_FIRST_ONLY: Flags = 1;
/// [`REVIEWS`].
const IS_REVIEWS: Flags = 2;
/// [`BAR`].
const IS_BAR: Flags = 4;
/// [`AUTHOR`].
const IS_AUTHOR: Flags = 8;
/// A word of [`AUTHOR_BOX`].
const IS_AUTHOR_BOX: Flags = 16;
/// [`ABOUT`].
const IS_ABOUT: Flags = 32;

/// Words with flags that no list has: they enter the table as
/// [`Signal::Neutral`]. (Checked by `the_table_holds_every_word_once`.)
const FLAGGED_ONLY: usize = 10;

/// The longest word in any list; longer parts are neutral.
const LONGEST: usize = 15;

/// Name parts that mark page furniture: navigation, footers, sharing,
/// ads.
const BOILERPLATE: &[&str] = &[
    "nav",
    "navbar",
    "navigation",
    "menu",
    "menus",
    "footer",
    "sidebar",
    "aside",
    "share",
    "sharing",
    "social",
    "related",
    "advert",
    "advertisement",
    "ad",
    "ads",
    "adsense",
    "breadcrumb",
    "breadcrumbs",
    "promo",
    "cookie",
    "cookies",
    "newsletter",
    "subscribe",
    "subscription",
    "masthead",
    "skip",
    "pagination",
    "pager",
    "toolbar",
    "login",
    "signup",
    "outbrain",
    "taboola",
    "sponsored",
    "sponsor",
    "recommended",
    "recommendations",
    "trending",
    "popular",
    "copyright",
    "legal",
    "rss",
    "tagcloud",
    "topbar",
    "bottombar",
    "sitemap",
    "also",
    "latest",
    "authorbio",
    "authorbox",
    "authorinfo",
];
/// Name parts that mark the page's building blocks ([`Signal::Layout`]):
/// furniture on most pages, the article's own wrappers on pages made
/// with page builders (`elementor-widget-container`,
/// `so-widget-sow-editor`) and on pages that open as overlays.
const LAYOUT: &[&str] = &[
    "widget", "widgets", "banner", "side", "more", "teaser", "teasers",
];
/// Name parts that mark blocks shown only on demand
/// ([`Signal::Overlay`]): layout words too, split from [`LAYOUT`] since
/// they never name a part of the article's flow.
const OVERLAY: &[&str] = &["offcanvas", "modal", "popup", "dropdown", "hidden"];
/// Name parts that mark reader comments ([`Signal::Comment`]). `respond`
/// is WordPress's comment form (`<div id="respond">`, often with no other
/// name), which sits between a post and its thread. `commentbody` and
/// `commentform` are Movable Type's comment and thread wrapper, written
/// as one word (so not split as `commentBody` is); unmarked, a thread ten
/// times the post's length was kept as content.
const COMMENT: &[&str] = &[
    "comment",
    "comments",
    "commentlist",
    "commentbody",
    "commentform",
    "disqus",
    "respond",
];
/// Name parts that mark the main content.
const CONTENT: &[&str] = &[
    "content",
    "main",
    "article",
    "articles",
    "post",
    "posts",
    "entry",
    "story",
    "body",
    "text",
    "blog",
    "prose",
    "markdown",
    "documentation",
    "docs",
    "answer",
    "question",
    "review",
    "description",
    "product",
    "recipe",
    "instructions",
    // The same words in the web's next most common languages, ASCII as
    // class names write them: content, article and body or text in
    // German, French, Spanish, Portuguese, Italian, Dutch and Polish.
    "inhalt",
    "artikel",
    "beitrag",
    "contenu",
    "texte",
    "corps",
    "contenido",
    "articulo",
    "cuerpo",
    "texto",
    "conteudo",
    "artigo",
    "corpo",
    "contenuto",
    "articolo",
    "testo",
    "inhoud",
    "tekst",
    "tresc",
    "artykul",
];

/// Every word as its key with its signal, in an open-addressing hash table
/// built at compile time (key 0 marks an empty slot: no word is empty).
/// A part is looked up with a multiply and, on average, little more than
/// one comparison: a `match` on byte strings compares them one by one, and
/// a case-insensitive scan of the lists was a tenth of the core's time.
static TABLE: [(u128, Signal, Flags); SLOTS] = table();

/// Table size: a power of two, under a third full.
const SLOTS: usize = 512;
const WORDS: usize =
    BOILERPLATE.len() + LAYOUT.len() + OVERLAY.len() + COMMENT.len() + CONTENT.len();
const _: () = assert!(3 * (WORDS + FLAGGED_ONLY) < SLOTS);

/// A lowercase word of at most [`LONGEST`] bytes as an integer: its bytes
/// little-endian, zero-padded, so the length is part of the key.
const fn key(word: &[u8]) -> u128 {
    assert!(!word.is_empty() && word.len() <= LONGEST);
    let mut k = 0u128;
    let mut i = 0;
    while i < word.len() {
        k |= (word[i] as u128) << (8 * i);
        i += 1;
    }
    k
}

/// The key's hash (multiplicative hashing of both halves).
const fn mix(key: u128) -> u64 {
    (key as u64 ^ (key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The key's first slot: the hash's top bits.
const fn slot(key: u128) -> usize {
    (mix(key) >> (64 - SLOTS.trailing_zeros())) as usize
}

/// Bits in [`FILTER`]: one set for each word, so about one part in
/// twenty that is no word gets past it.
const FILTER_BITS: usize = 2048;
const _: () = assert!(FILTER_BITS.is_power_of_two() && FILTER_BITS >= 16 * (WORDS + FLAGGED_ONLY));

/// The key's bit in [`FILTER`]: the hash's top bits too (more of them
/// than `slot` takes).
const fn filter_bit(key: u128) -> usize {
    (mix(key) >> (64 - FILTER_BITS.trailing_zeros())) as usize
}

/// A bit for each word's [`filter_bit`]: a part whose bit is clear is no
/// word.
static FILTER: [u64; FILTER_BITS / 64] = {
    let mut f = [0u64; FILTER_BITS / 64];
    let mut i = 0;
    while i < SLOTS {
        let k = TABLE[i].0;
        if k != 0 {
            let bit = filter_bit(k);
            f[bit / 64] |= 1 << (bit % 64);
        }
        i += 1;
    }
    f
};

/// What a lowercase part's key says.
#[inline]
fn lookup(key: u128) -> (Signal, Flags) {
    // Most parts are no word at all: the filter, small enough to stay in
    // cache, turns nearly all of them away before the table, whose 16 KiB
    // a page's scan evicts (its load was a sixth of classifying's time).
    let bit = filter_bit(key);
    if FILTER[bit / 64] >> (bit % 64) & 1 == 0 {
        return (Signal::Neutral, 0);
    }
    let mut i = slot(key);
    // Ends: the table always has empty slots.
    loop {
        let (k, signal, flags) = TABLE[i];
        if k == key {
            return (signal, flags);
        }
        if k == 0 {
            return (Signal::Neutral, 0);
        }
        i = (i + 1) % SLOTS;
    }
}

const fn table() -> [(u128, Signal, Flags); SLOTS] {
    let mut t = [(0u128, Signal::Neutral, 0); SLOTS];
    let mut i = 0;
    let (b, l, o, c) = (
        BOILERPLATE.len(),
        LAYOUT.len(),
        OVERLAY.len(),
        COMMENT.len(),
    );
    while i < WORDS {
        let (word, signal) = if i < b {
            (BOILERPLATE[i], Signal::Boilerplate)
        } else if i < b + l {
            (LAYOUT[i - b], Signal::Layout)
        } else if i < b + l + o {
            (OVERLAY[i - b - l], Signal::Overlay)
        } else if i < b + l + o + c {
            (COMMENT[i - b - l - o], Signal::Comment)
        } else {
            (CONTENT[i - b - l - o - c], Signal::Content)
        };
        let k = key(word.as_bytes());
        let mut at = slot(k);
        while t[at].0 != 0 {
            // A word listed twice would be a mistake in the lists.
            assert!(t[at].0 != k);
            at = (at + 1) % SLOTS;
        }
        t[at] = (k, signal, 0);
        i += 1;
    }
    let mut i = 0;
    while i < FIRST_ONLY.len() {
        flag(&mut t, FIRST_ONLY[i], IS_FIRST_ONLY);
        i += 1;
    }
    let mut i = 0;
    while i < AUTHOR_BOX.len() {
        flag(&mut t, AUTHOR_BOX[i], IS_AUTHOR_BOX);
        i += 1;
    }
    flag(&mut t, REVIEWS, IS_REVIEWS);
    flag(&mut t, BAR, IS_BAR);
    flag(&mut t, AUTHOR, IS_AUTHOR);
    flag(&mut t, ABOUT, IS_ABOUT);
    t
}

/// Sets `flags` on `word`'s entry, adding it as a neutral word if no list
/// has it.
const fn flag(t: &mut [(u128, Signal, Flags); SLOTS], word: &str, flags: Flags) {
    let k = key(word.as_bytes());
    let mut at = slot(k);
    while t[at].0 != 0 && t[at].0 != k {
        at = (at + 1) % SLOTS;
    }
    if t[at].0 == 0 {
        t[at] = (k, Signal::Neutral, 0);
    }
    t[at].2 |= flags;
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The rule spelled out plainly: split into class tokens at
    /// whitespace, each token at non-alphanumerics and at lower→upper
    /// changes, look each part up in lowercase; a modifier word counts
    /// only as its token's first part, and a content word after a token's
    /// first part that is a comment word counts as a comment word.
    /// `reviews` is furniture as a whole value, or after another part of
    /// its token that no `--` or camelCase change separates from it; then
    /// a content word just before it says nothing.
    fn classify_plainly(value: &[u8]) -> Signal {
        if value.eq_ignore_ascii_case(b"reviews") {
            return Signal::Boilerplate;
        }
        let mut found = Signal::Neutral;
        for token in value.split(|b| b.is_ascii_whitespace()) {
            let mut head = Signal::Neutral;
            let parts = parts_plainly(token);
            let mut saids = Vec::new();
            for (k, (p, bem, camel_next)) in parts.iter().enumerate() {
                let p = std::str::from_utf8(p).unwrap();
                let modifier = FIRST_ONLY.contains(&p);
                let camel_started = k > 0 && parts[k - 1].2;
                let said = if p == "reviews" {
                    if k == 0 || camel_started || *bem {
                        Signal::Neutral
                    } else {
                        if saids.last() == Some(&Signal::Content) {
                            *saids.last_mut().unwrap() = Signal::Neutral;
                        }
                        Signal::Boilerplate
                    }
                } else if COMMENT.contains(&p) {
                    Signal::Comment
                } else if (BOILERPLATE.contains(&p) && (k == 0 || !modifier))
                    || (k > 0 && parts[k - 1].0 == b"author" && AUTHOR_BOX.contains(&p))
                    || (k > 0 && parts[k - 1].0 == b"about" && p == "author")
                {
                    Signal::Boilerplate
                } else if OVERLAY.contains(&p) && (k == 0 || !modifier) {
                    Signal::Overlay
                } else if LAYOUT.contains(&p) && (k == 0 || !modifier) {
                    Signal::Layout
                } else if CONTENT.contains(&p) && head == Signal::Comment {
                    Signal::Comment
                } else if CONTENT.contains(&p) {
                    Signal::Content
                } else {
                    Signal::Neutral
                };
                // Furniture words after a `--` are modifiers.
                // And a furniture word inside a compound that a
                // camelCase part other than `bar` follows.
                let bar_next = parts.get(k + 1).is_some_and(|n| n.0 == b"bar");
                let camel_mod = *camel_next && k > 0 && !bar_next;
                let said = if (*bem || camel_mod) && said < Signal::Comment {
                    Signal::Neutral
                } else {
                    said
                };
                if k == 0 {
                    head = said;
                }
                saids.push(said);
            }
            for said in saids {
                // Content over comments over furniture over layout,
                // spelled out.
                found = match (found, said) {
                    (Signal::Content, _) | (_, Signal::Content) => Signal::Content,
                    (Signal::Comment, _) | (_, Signal::Comment) => Signal::Comment,
                    (Signal::Boilerplate, _) | (_, Signal::Boilerplate) => Signal::Boilerplate,
                    (Signal::Overlay, _) | (_, Signal::Overlay) => Signal::Overlay,
                    (Signal::Layout, _) | (_, Signal::Layout) => Signal::Layout,
                    _ => Signal::Neutral,
                };
            }
        }
        found
    }

    /// A token's non-empty parts, lowercased.
    fn parts_plainly(token: &[u8]) -> Vec<(Vec<u8>, bool, bool)> {
        let mut parts: Vec<(Vec<u8>, bool, bool)> = vec![(Vec::new(), false, false)];
        let mut bem = false;
        for (i, &b) in token.iter().enumerate() {
            let camel = i > 0 && token[i - 1].is_ascii_lowercase() && b.is_ascii_uppercase();
            bem |= b == b'-' && i > 0 && token[i - 1] == b'-';
            if camel {
                parts.last_mut().unwrap().2 = true;
            }
            if !b.is_ascii_alphanumeric() || camel {
                parts.push((Vec::new(), false, false));
            }
            if b.is_ascii_alphanumeric() {
                let part = parts.last_mut().unwrap();
                part.0.push(b.to_ascii_lowercase());
                part.1 = bem;
            }
        }
        parts.retain(|p| !p.0.is_empty());
        parts
    }

    proptest! {
        /// A value with a `__` anywhere is cut as `bem_elements` cuts it,
        /// wherever the `__` falls: across a block's edge, or after a
        /// content word that would end the reading early.
        #[test]
        fn a_double_underscore_is_found_wherever_it_falls(
            pieces in proptest::collection::vec(
                prop_oneof![
                    Just("entry"), Just("content"), Just("_"), Just("__"), Just("-"),
                    Just("x"), Just("abcdefghijklmno"), Just("sharing"), Just(" "),
                    Just("footer"),
                ],
                0..24,
            )
        ) {
            let value = pieces.concat();
            let plain = match value.contains("__") {
                true => classify_parts(&bem_elements(value.as_bytes()), false),
                false => classify_parts(value.as_bytes(), false),
            };
            prop_assert_eq!(classify(value.as_bytes()), plain, "{:?}", value);
        }
    }

    proptest! {
        #[test]
        fn blockwise_split_is_the_plain_rule(
            pieces in proptest::collection::vec(
                prop_oneof![
                    Just("nav"), Just("Nav"), Just("content"), Just("MAIN"), Just("x"),
                    Just("-"), Just(" "), Just("_"), Just("2"), Just("ü"),
                    Just("recommendations"), Just("Footer"), Just("ad"),
                    Just("hidden"), Just("Sidebar"), Just("\t"), Just("\n"),
                    Just("widget"), Just("Q"), Just("9"), Just("aB"),
                    Just("comments"), Just("Disqus"), Just("--"), Just("Bar"),
                    Just("abcdefghijklmno"), Just("sixteen-or-more-bytes"),
                    Just("reviews"), Just("Reviews"), Just("product"), Just("author"), Just("Bio"), Just("box"),
                ],
                0..24,
            )
        ) {
            let value = pieces.concat();
            prop_assert_eq!(classify_parts(value.as_bytes(), false), classify_plainly(value.as_bytes()));
        }
    }

    /// Every word and flagged word of the tables, for values built of them.
    fn all_words() -> Vec<&'static str> {
        let mut words: Vec<&str> = [BOILERPLATE, LAYOUT, OVERLAY, COMMENT, CONTENT].concat();
        words.extend(AUTHOR_BOX);
        words.extend([AUTHOR, REVIEWS, BAR, "authors", "navs", "cont"]);
        words
    }

    proptest! {
        /// Values of any length made of the tables' words (in three
        /// cases), separators and other parts: only the parts that pass
        /// `may_be_word` are placed in their tokens, and what the rules
        /// need of the parts between is read from the masks; the answer
        /// is the plain rule's wherever the parts fall in the blocks.
        #[test]
        fn words_anywhere_are_read_as_the_plain_rule_reads_them(
            pieces in proptest::collection::vec(
                (0usize..200, 0u8..3, prop_oneof![
                    Just(""), Just("-"), Just("--"), Just("_"), Just(" "),
                    Just("\t"), Just("  "), Just("-_"), Just("ü"), Just(":"),
                ]),
                0..40,
            )
        ) {
            let words = all_words();
            let fillers = ["x", "Q", "4", "px", "col", "md", "12", "item", "wrapper", "abcdefghijklmnop"];
            let mut value = String::new();
            for (pick, case, sep) in pieces {
                let word = words.get(pick).copied().unwrap_or(fillers[pick % fillers.len()]);
                match case {
                    0 => value.push_str(word),
                    1 => {
                        let mut chars = word.chars();
                        if let Some(c) = chars.next() {
                            value.push(c.to_ascii_uppercase());
                            value.push_str(chars.as_str());
                        }
                    }
                    _ => value.push_str(&word.to_uppercase()),
                }
                value.push_str(sep);
            }
            prop_assert_eq!(
                classify_parts(value.as_bytes(), false),
                classify_plainly(value.as_bytes()),
                "{:?}",
                value
            );
        }
    }

    /// The memo answers what `classify` answers, whatever was seen before:
    /// values that share a slot, a value that is a prefix of another,
    /// values too long to remember.
    #[test]
    fn memo_agrees_with_classify_over_a_long_mixed_sequence() {
        let long_boiler = format!("{} footer", "x".repeat(MEMO_WIDTH));
        let long_content = format!("{} content", "x".repeat(MEMO_WIDTH));
        let mut values: Vec<String> = vec![
            "nav".into(),
            "na".into(),
            "navx".into(),
            "content".into(),
            "".into(),
            long_boiler,
            long_content,
        ];
        // Far more distinct values than slots, so slots are shared and
        // overwritten; each differs from its neighbours by one signal word.
        for i in 0..(4 * MEMO_SLOTS) {
            let word = ["footer", "main", "plain", "share"][i % 4];
            values.push(format!("item-{i} {word}"));
        }
        let mut memo = Memo::default();
        for round in 0..3 {
            for v in values.iter().chain(values.iter().rev()) {
                let want = classify(v.as_bytes());
                assert_eq!(memo.classify(v.as_bytes()), want, "{v:?} in round {round}");
            }
        }
        // A value seen once is answered from the memo the second time: the
        // slot holds it.
        let slot = memo_slot(b"site-footer");
        memo.classify(b"site-footer");
        assert_eq!(usize::from(memo.slots[slot].len), b"site-footer".len());
        assert_eq!(memo.slots[slot].signal, Signal::Boilerplate);
        // Values adding up to several arenas (about 60 KiB): it starts
        // over each time it fills, and the answers stay right.
        for i in 0..(ARENA_CAP / 8) {
            let v = format!("{i:05} share {}", "y".repeat(i % 40));
            assert_eq!(memo.classify(v.as_bytes()), classify(v.as_bytes()), "{v:?}");
            assert!(memo.arena.len() <= ARENA_CAP);
        }
    }

    /// A furniture word in a modifier's place marks nothing: after a BEM
    /// modifier's `--`, or inside a compound before a camelCase head.
    /// At a token's head, or before `Bar`, it still marks.
    #[test]
    fn furniture_words_as_modifiers_mark_nothing() {
        use Signal::{Boilerplate, Comment, Layout, Neutral};
        let cases: [(&[u8], Signal); 10] = [
            (b"tab_panel lm_navSource", Neutral),
            (b"StoreSaleWidgetShortDesc", Neutral),
            (b"container--section-more-ads", Neutral),
            (b"card card--footer", Neutral),
            (b"box--comments", Comment),
            (b"menu--primary-links", Boilerplate),
            (b"topNavBar", Boilerplate),
            (b"footerLinks", Boilerplate),
            (b"sidePanel", Layout),
            (b"lm_nav", Boilerplate),
        ];
        for (value, signal) in cases {
            let shown = String::from_utf8_lossy(value);
            assert_eq!(classify(value), signal, "{shown}");
            assert_eq!(classify_plainly(value), signal, "{shown} plainly");
        }
    }

    /// A BEM element's class is read for the element where its block
    /// names the content: the block's word says nothing of the node.
    #[test]
    fn a_bem_element_is_read_apart_from_a_content_block() {
        for (value, signal) in [
            ("c-article__sharing", Signal::Boilerplate),
            ("entry-content__footer--dark", Signal::Boilerplate),
            ("post__related-links", Signal::Boilerplate),
            ("article__comments", Signal::Comment),
            ("post__content", Signal::Content),
            ("entry-meta__date", Signal::Neutral),
            // The block's unmarked words name the node with the element;
            // its marked ones stay with the block.
            ("entry-author__description", Signal::Boilerplate),
            ("product-details-modal__paragraph", Signal::Neutral),
            // A block that names no content is read with its element.
            ("footer__text", Signal::Content),
            ("nav__item", Signal::Boilerplate),
            // Another token that names the content still wins.
            ("article-body c-article__sharing", Signal::Content),
            ("c-article-sharing", Signal::Content),
            // The `__` in a later block than the content word.
            ("entry-x-abcdefghijklmno__sharing", Signal::Boilerplate),
            ("abcdefghij-post__share", Signal::Boilerplate),
        ] {
            assert_eq!(classify(value.as_bytes()), signal, "{value}");
        }
    }

    #[test]
    fn whole_parts_only() {
        assert_eq!(classify(b"site-footer"), Signal::Boilerplate);
        assert_eq!(classify(b"mainNav"), Signal::Content);
        assert_eq!(classify(b"topNav"), Signal::Boilerplate);
        assert_eq!(classify(b"navigation_bar"), Signal::Boilerplate);
        // "sidebar" as a part of a content wrapper is cancelled by "content".
        assert_eq!(classify(b"content-sidebar-wrap"), Signal::Content);
        // A word that merely contains "ad" is not an advert.
        assert_eq!(classify(b"headline shadow"), Signal::Neutral);
        assert_eq!(classify(b""), Signal::Neutral);
        assert_eq!(classify(b"comment-list"), Signal::Comment);
    }

    /// Pages name their body in their own language as often as in
    /// English: those words weigh as `content` does, furniture beside
    /// them included (`cuerpo-ad` is a Spanish story's body).
    #[test]
    fn content_words_are_read_in_the_webs_common_languages() {
        for value in [
            "cuerpo-ad",
            "artikel-inhalt",
            "beitrag",
            "contenu-principal",
            "conteudo",
            "testo-articolo",
            "inhoud",
            "tresc",
        ] {
            assert_eq!(classify(value.as_bytes()), Signal::Content, "{value}");
        }
        assert_eq!(classify(b"inhaltsverzeichnis"), Signal::Neutral);
    }

    /// A word that ends a value exactly at a block's end (byte 16 or 32,
    /// with no padding byte after it to end it) or ends just before one,
    /// and words split across blocks, read as the plain rule reads them.
    #[test]
    fn words_at_block_edges() {
        let cases: [(&[u8], Signal); 8] = [
            (b"abcdefghijk-menu", Signal::Boilerplate),
            (b"abcdefghijklmnopqrstuvwxyz1-menu", Signal::Boilerplate),
            (b"abcdefghij-menu", Signal::Boilerplate),
            (b"abcdefghijklm-menu x", Signal::Boilerplate),
            (b"abcdefghijklmnopqrstuvwxyz1234-Nav", Signal::Boilerplate),
            (b"abcdefghijklmn\rfooter", Signal::Boilerplate),
            (b"abcdefghijklmn\x0cmain", Signal::Content),
            (b"abcdefghijklm--menu", Signal::Neutral),
        ];
        for (value, signal) in cases {
            let shown = value.escape_ascii();
            assert_eq!(classify(value), signal, "{shown}");
            assert_eq!(classify_plainly(value), signal, "{shown} plainly");
        }
    }

    /// Layout words anywhere in a value (page builders' wrappers among
    /// them) mark a building block, unless a furniture word marks the
    /// value as furniture or a content word as content.
    #[test]
    fn layout_words_rank_below_furniture_and_content() {
        use Signal::{Boilerplate, Content, Layout, Overlay};
        let cases: [(&[u8], Signal); 8] = [
            (b"elementor-widget-container", Layout),
            (b"so-widget-sow-editor so-widget-sow-editor-base", Layout),
            (b"overlay__modal", Overlay),
            (b"widget dropdown-panel", Overlay),
            (b"modal footer", Boilerplate),
            (b"widget widget_disquswidget", Layout),
            (b"widget widget_nav_menu", Boilerplate),
            (b"widget entry-content", Content),
        ];
        for (value, signal) in cases {
            let shown = String::from_utf8_lossy(value);
            assert_eq!(classify(value), signal, "{shown}");
        }
    }

    /// Comment words mark the thread whatever furniture word shares the
    /// value (`comment-nav`, `widget_comments`), and content words still
    /// cancel them (`comments content`, `post-comments`), except after a
    /// comment word at the head of their token: `comment-content`,
    /// `comments-body` and `commentBody` name a comment's own text, which
    /// on some blogs (Movable Type's) nothing else marks; written as one
    /// lowercase word (`commentbody`, `commentform`) they are comment
    /// words themselves.
    #[test]
    fn comment_words_rank_above_furniture_and_below_content() {
        use Signal::{Comment, Content};
        let cases: [(&[u8], Signal); 13] = [
            (b"comments-area", Comment),
            (b"comment-nav", Comment),
            (b"widget widget_comments", Comment),
            (b"commentList footer", Comment),
            (b"disqus_thread", Comment),
            (b"respond", Comment),
            (b"comment-content", Comment),
            (b"comments-body", Comment),
            (b"commentBody", Comment),
            (b"commentbody by-reader", Comment),
            (b"commentform", Comment),
            (b"comments content", Content),
            (b"post-comments", Content),
        ];
        for (value, signal) in cases {
            assert_eq!(classify(value), signal, "{}", value.escape_ascii());
        }
    }

    /// `reviews` marks a list of customers' reviews as a whole value or
    /// ending a compound, even one with a content word before it
    /// (`product-reviews`, where the undone content word may end a
    /// 16-byte block); first in its token, after `--` or at a camelCase
    /// change it names a page's section, a card's look or Amazon's
    /// blurbs, and marks nothing. The singular stays a content word (a
    /// review article).
    #[test]
    fn reviews_mark_a_list_of_customers_reviews() {
        use Signal::{Boilerplate, Content, Neutral};
        let cases: [(&[u8], Signal); 16] = [
            (b"reviews", Boilerplate),
            (b"Reviews", Boilerplate),
            (b"grw-reviews", Boilerplate),
            (b"customer-reviews_feature_div", Boilerplate),
            (b"product-reviews", Boilerplate),
            (b"abcdefgh-product-reviews", Boilerplate),
            // `product` ends at byte 15 and `reviews` starts the next
            // block: the early return on a content word must wait.
            (b"abcdefg-product-reviews", Boilerplate),
            (b"abcdefghi-product-reviews", Boilerplate),
            (b"judgeme_product_reviews", Boilerplate),
            (b"recipe-reviews entry-content", Content),
            (b"reviews-section container-fluid", Neutral),
            (b"mover-profile reviews", Neutral),
            (b"editorialReviews_feature_div", Neutral),
            (b"components--reviews-section", Neutral),
            (b"product reviews", Content),
            (b"product-review", Content),
        ];
        for (value, signal) in cases {
            let shown = value.escape_ascii();
            assert_eq!(classify(value), signal, "{shown}");
            assert_eq!(classify_plainly(value), signal, "{shown} plainly");
        }
    }

    /// `bio`, `box`, `info` and the like mark the box about a post's
    /// author right after `author`, and `author` right after `about`;
    /// `bio` alone names a profile page's content, `about` an about
    /// page's, and `author-profile` a speaker's, kept by the golds.
    #[test]
    fn an_author_box_is_furniture() {
        use Signal::{Boilerplate, Neutral};
        let cases: [(&[u8], Signal); 19] = [
            (b"author-bio", Boilerplate),
            (b"about-author", Boilerplate),
            (b"wp-about-author-wrap", Boilerplate),
            (b"AboutAuthor", Boilerplate),
            (b"about", Neutral),
            (b"about author", Neutral),
            (b"author-about", Neutral),
            (b"author_info", Boilerplate),
            (b"authorinfo", Boilerplate),
            (b"author-profile", Neutral),
            (b"elementor-author-box", Boilerplate),
            (b"about author_box", Boilerplate),
            (b"authorBio", Boilerplate),
            (b"authorbox", Boilerplate),
            (b"abcdefghijklm-author-bio", Boilerplate),
            (b"profile_bio", Neutral),
            (b"bio", Neutral),
            (b"author bio", Neutral),
            (b"box-author", Neutral),
        ];
        for (value, signal) in cases {
            let shown = value.escape_ascii();
            assert_eq!(classify(value), signal, "{shown}");
            assert_eq!(classify_plainly(value), signal, "{shown} plainly");
        }
    }

    /// Real class lists from the corpus's pages: a utility class that
    /// clips overflow or hides a field's label says nothing; an element
    /// whose own class is `hidden` or `sidebar` is page furniture
    /// (`hidden` a block shown on demand, see [`OVERLAY`]).
    #[test]
    fn modifier_words_count_only_first_in_their_token() {
        use Signal::{Boilerplate, Layout, Neutral, Overlay};
        let cases: [(&[u8], Signal); 12] = [
            (b"relative overflow-hidden h-full", Neutral),
            (b"hx-w-full hx-overflow-x-hidden", Neutral),
            (b"field field--label-hidden field__items", Neutral),
            (b"l-grid l-grid--sidebar", Neutral),
            (b"wp-block-columns is-style-sidebar", Neutral),
            (b"hdrSearch hidden", Overlay),
            (b"errorMessage\thidden", Overlay),
            (b"more-link", Layout),
            (b"sidebar section", Boilerplate),
            (b"sidebar_list", Boilerplate),
            (b"hidden-sm col-md-7", Overlay),
            // Words that are not modifiers count anywhere in a token.
            (b"js-site-footer", Boilerplate),
        ];
        for (value, signal) in cases {
            assert_eq!(classify(value), signal, "{}", value.escape_ascii());
        }
    }

    #[test]
    fn every_listed_word_is_found_in_any_case() {
        for (words, signal) in [
            (BOILERPLATE, Signal::Boilerplate),
            (LAYOUT, Signal::Layout),
            (OVERLAY, Signal::Overlay),
            (COMMENT, Signal::Comment),
            (CONTENT, Signal::Content),
        ] {
            for w in words {
                assert_eq!(classify(w.as_bytes()), signal, "{w}");
                assert_eq!(classify(w.to_uppercase().as_bytes()), signal, "{w}");
                assert_eq!(classify(format!("x {w}-y").as_bytes()), signal, "{w}");
                // Inside a token, a modifier word says nothing.
                let inside = if FIRST_ONLY.contains(w) {
                    Signal::Neutral
                } else {
                    signal
                };
                assert_eq!(classify(format!("x-{w}-y").as_bytes()), inside, "{w}");
            }
        }
        // Every word has its slot (a word listed twice fails to compile).
        let filled = TABLE.iter().filter(|&&(k, _, _)| k != 0).count();
        assert_eq!(filled, WORDS + FLAGGED_ONLY);
    }

    #[test]
    fn flagged_words_carry_their_flags_and_keep_their_signals() {
        let entry = |w: &str| lookup(key(w.as_bytes()));
        for w in FIRST_ONLY {
            let (signal, flags) = entry(w);
            assert_ne!(signal, Signal::Neutral, "{w}");
            assert_eq!(flags, IS_FIRST_ONLY, "{w}");
        }
        for w in AUTHOR_BOX {
            assert_eq!(entry(w).1, IS_AUTHOR_BOX, "{w}");
        }
        // `description` is a content word as well.
        assert_eq!(entry("description"), (Signal::Content, IS_AUTHOR_BOX));
        assert_eq!(entry(AUTHOR), (Signal::Neutral, IS_AUTHOR));
        assert_eq!(entry(REVIEWS), (Signal::Neutral, IS_REVIEWS));
        assert_eq!(entry(BAR), (Signal::Neutral, IS_BAR));
        assert_eq!(entry("nav"), (Signal::Boilerplate, 0));
        assert_eq!(entry("authors"), (Signal::Neutral, 0));
    }

    #[test]
    fn parts_match_whole_and_case_insensitively() {
        // The longest words of each list, in any case.
        assert_eq!(classify(b"RECOMMENDATIONS"), Signal::Boilerplate);
        assert_eq!(classify(b"Documentation"), Signal::Content);
        assert_eq!(classify(b"ADS"), Signal::Boilerplate);
        // One letter past the longest word is no word at all.
        assert_eq!(classify(b"recommendationsx"), Signal::Neutral);
        assert_eq!(classify(b"navx"), Signal::Neutral);
        assert_eq!(classify(b"na"), Signal::Neutral);
        // Non-ASCII bytes separate parts and never match.
        assert_eq!(classify("menü footer".as_bytes()), Signal::Boilerplate);
    }
}
