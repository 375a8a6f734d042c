//! Finding the headline: TitleFinder (thesis 000 ch. 5) and linesift's own
//! block-level method; `arbitrate` chooses among what they find.
//!
//! TitleFinder treats the `<title>` text as a query and every text fragment
//! of the page, split into sentences, as a candidate; stop words and the
//! characters `' " , :` are removed, and the candidate most similar to the
//! query (TF cosine, TF-IDF cosine, OSM, or their sum) is the headline.
//!
//! The `Auto` method keeps the idea but fixes what the corpus showed it
//! loses to: site names in titles ("… | Small Business Administration"),
//! sentence splitting inside a headline ("U.S.", "?"), and headlines broken
//! up by inline tags. It scores whole heading blocks against the title and
//! against each part of the title split at its separators, prefers an `<h1>`
//! that agrees with the title, and falls back to og:title, then the
//! title's longest part. An og:title without a site name is the headline
//! where no `<h1>` repeats it ([`og_title_instead`]).

mod arbitrate;
pub(in crate::extract) use arbitrate::line_reads_as;
pub mod prefilter;
pub mod terms;

use super::options::HeadlineMethod;
use std::collections::BTreeMap;
pub use terms::StopWords;
use terms::TermVector;

/// A text block that may be the headline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate<'a> {
    pub text: &'a str,
    /// Logical line the block starts on.
    pub line: u32,
    /// Heading level 1-6, or 0 for ordinary text.
    pub heading: u8,
    /// Most of the block's text is link text (menus, teasers).
    pub links: bool,
}

/// The chosen headline and, when it came from the page body, its line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Headline {
    pub text: String,
    pub line: Option<u32>,
}

/// Everything the headline finder looks at.
pub struct Inputs<'a> {
    pub title: &'a str,
    pub og_title: &'a str,
    pub candidates: &'a [Candidate<'a>],
    pub stop: &'a StopWords,
    /// First line of the chosen main content, if any.
    pub content_start: Option<u32>,
    /// First line of the first chosen region (may precede the seed).
    pub content_first: Option<u32>,
}

/// Picks the headline with the given method.
pub fn find(method: HeadlineMethod, input: &Inputs<'_>) -> Option<Headline> {
    match method {
        HeadlineMethod::Off => None,
        HeadlineMethod::Auto => auto(input),
        m => title_finder(m, input),
    }
}

/// Lower-cased word tokens without stop words and without `' " , :`.
pub fn terms(text: &str, stop: &StopWords) -> Vec<String> {
    let mut out = Vec::new();
    terms::each_term(text, stop, &mut String::new(), |w| out.push(w.to_string()));
    out
}

/// A term vector. Ordered, so that sums over it run in the same order
/// every time: with a hashed map the float sums differed in the last bit
/// between two runs on the same page and near-ties flipped the headline.
type Vector = BTreeMap<String, f64>;

fn tf(terms: &[String]) -> Vector {
    let mut v = Vector::new();
    for t in terms {
        *v.entry(t.clone()).or_insert(0.0) += 1.0;
    }
    v
}

fn cosine(a: &Vector, b: &Vector) -> f64 {
    let dot: f64 = a.iter().filter_map(|(k, x)| b.get(k).map(|y| x * y)).sum();
    let na: f64 = a.values().map(|x| x * x).sum::<f64>().sqrt();
    let nb: f64 = b.values().map(|x| x * x).sum::<f64>().sqrt();
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot / (na * nb)
    }
}

fn weighted(v: &Vector, idf: &Vector) -> Vector {
    v.iter()
        .map(|(k, x)| (k.clone(), x * idf.get(k).copied().unwrap_or(0.0)))
        .collect()
}

/// Splits a fragment into sentences at `.`, `!` or `?` followed by
/// whitespace, as the thesis does.
pub fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let b = text.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        let end = matches!(c, b'.' | b'!' | b'?')
            && b.get(i + 1).is_some_and(|n| n.is_ascii_whitespace());
        if end {
            out.push(text[start..=i].trim());
            start = i + 1;
        }
    }
    out.push(text[start..].trim());
    out.retain(|s| !s.is_empty());
    out
}

/// TitleFinder exactly as the thesis describes it.
fn title_finder(method: HeadlineMethod, input: &Inputs<'_>) -> Option<Headline> {
    let q_terms = terms(input.title, input.stop);
    if q_terms.is_empty() {
        return None;
    }
    let mut sents: Vec<(&str, u32, Vector)> = Vec::new();
    for c in input.candidates {
        for s in sentences(c.text) {
            let v = tf(&terms(s, input.stop));
            if !v.is_empty() {
                sents.push((s, c.line, v));
            }
        }
    }
    let n = sents.len() as f64;
    let mut df = Vector::new();
    for (_, _, v) in &sents {
        for k in v.keys() {
            *df.entry(k.clone()).or_insert(0.0) += 1.0;
        }
    }
    let idf: Vector = df.into_iter().map(|(k, d)| (k, (n / d).ln())).collect();
    let q = tf(&q_terms);
    let qw = weighted(&q, &idf);
    let score = |v: &Vector| {
        let tfc = || cosine(&q, v);
        let tfidf = || cosine(&qw, &weighted(v, &idf));
        let osm = || {
            let norm = v
                .values()
                .map(|x| x * x)
                .sum::<f64>()
                .sqrt()
                .max(f64::MIN_POSITIVE);
            qw.iter()
                .map(|(k, w)| w * v.get(k).map_or(0.0, |x| x / norm))
                .sum::<f64>()
        };
        match method {
            HeadlineMethod::TfIdf => tfidf(),
            HeadlineMethod::Osm => osm(),
            HeadlineMethod::Aggregate => tfc() + tfidf() + osm(),
            _ => tfc(),
        }
    };
    let mut best: Option<(f64, &str, u32)> = None;
    for (s, line, v) in &sents {
        let sc = score(v);
        if sc > 0.0 && best.is_none_or(|(b, _, _)| sc > b) {
            best = Some((sc, s, *line));
        }
    }
    best.map(|(_, s, line)| Headline {
        text: s.to_string(),
        line: Some(line),
    })
}

/// og:title in place of `found` when the publisher's og:title names the
/// page by itself (no site name set apart by a separator; `": "` may
/// stay inside a headline) and `found`, not an `<h1>`, does not repeat
/// it (cosine below 0.9): on landing, product and shop pages the blocks
/// that agree with the title best are teasers and calls to action ("Buy
/// Rust" for "Rust on Steam"), while og:title is what a reader sees as
/// the page's name. An `<h1>` is the page's own choice and stays.
pub fn og_title_instead(found: &Headline, heading: u8, input: &Inputs<'_>) -> Option<Headline> {
    if heading == 1 {
        return None;
    }
    let og = clean(input.og_title);
    let separated = SEPARATORS
        .iter()
        .filter(|&&sep| sep != ": ")
        .any(|sep| og.contains(sep));
    if og.is_empty() || separated {
        return None;
    }
    let sim = terms::cosine(
        &TermVector::of(&og, input.stop),
        &TermVector::of(&found.text, input.stop),
    );
    (sim < 0.9).then_some(Headline {
        text: og,
        line: None,
    })
}

/// A heading set on two lines for its layout ("Data Analytics<br>Agency",
/// "Cosmetic Packaging<br>Design") names the page in both: its first two
/// lines joined by a space, where together they agree with the title or
/// og:title (cosine at least 0.5, what a plain block needs) and better
/// than the first line alone. A second line that is a teaser brings words
/// the title lacks and agrees less, and the first line stays the headline
/// ([`normalize`]); so it does under a title naming only the site (its
/// "news daily" is no reason to take "World news daily"). A byline or a
/// date is never joined, though the title may share its words ("By Helen
/// Briggs BBC News" under "BBC News - …"): a second line beginning "By",
/// or with as many words holding a digit as not. Only a heading's: plain
/// blocks run on into their story. Runs once a page, on the headline.
pub fn joined_heading(text: &str, heading: u8, input: &Inputs<'_>) -> Option<String> {
    if heading == 0 {
        return None;
    }
    let (first, second) = (first_line(text), second_line(text)?);
    let (words, numeric) = word_counts(second);
    if is_byline(second) || numeric * 2 >= words {
        return None;
    }
    let joined = format!("{first} {second}");
    let together = agreement(&joined, input);
    (together >= 0.5 && together > agreement(first, input) + COSINE_SLACK).then_some(joined)
}

/// How well `text` agrees with the title or og:title (TF cosine, the
/// higher of the two).
pub fn agreement(text: &str, input: &Inputs<'_>) -> f64 {
    let v = TermVector::of(text, input.stop);
    let title = terms::cosine(&TermVector::of(&clean(input.title), input.stop), &v);
    let og = terms::cosine(&TermVector::of(&clean(input.og_title), input.stop), &v);
    title.max(og)
}

/// Separators sites put between headline and site name in `<title>`.
/// `" -- "` is the ASCII stand-in for a dash of old pages ("toledoblade.com
/// -- Steelers' Heinz turf is terrible").
const SEPARATORS: &[&str] = &[
    " | ", " - ", " – ", " — ", " -- ", " :: ", " · ", " • ", " » ", " / ", ": ",
];

/// The parts of a title split at its separators, longest first.
pub fn title_parts(title: &str) -> Vec<&str> {
    let mut parts = vec![title.trim()];
    // Every part is a piece of the title: a separator the title lacks
    // splits nothing, and most titles hold one or two of the eleven (the
    // passes for the others cost more than the rest of the headline's
    // setup).
    let present = SEPARATORS.iter().filter(|sep| holds(title, sep));
    let mut split = Vec::new();
    for sep in present {
        // `str::split` as it splits, by the separator's rare byte: a
        // two-way searcher set up for each part, and each part's chars
        // counted in every comparison of the sort, cost 0.6 M instructions
        // more on every 15th page.
        for p in parts.drain(..) {
            let mut from = 0;
            while let Some(at) = find_separator(p, sep, from) {
                split.push(p[from..at].trim());
                from = at + sep.len();
            }
            split.push(p[from..].trim());
        }
        std::mem::swap(&mut parts, &mut split);
    }
    parts.retain(|p| !p.is_empty());
    if parts.len() > 1 {
        // Each part's length counted once, not in every comparison; a
        // stable sort, as `sort_by_key` is.
        let mut counted: Vec<(usize, &str)> =
            parts.iter().map(|p| (p.chars().count(), *p)).collect();
        counted.sort_by_key(|&(n, _)| std::cmp::Reverse(n));
        parts.clear();
        parts.extend(counted.into_iter().map(|(_, p)| p));
    }
    parts
}

/// Whether `title` holds the separator `sep`.
fn holds(title: &str, sep: &str) -> bool {
    find_separator(title, sep, 0).is_some()
}

/// The first place at or after `from` where `sep` (one of
/// [`SEPARATORS`]) starts in `text`: a `memchr` for the separator's first
/// byte that is not a space, each hit then compared whole. Most titles
/// lack most separators, and that byte rules them out at once, before a
/// substring search would be set up.
fn find_separator(text: &str, sep: &str, from: usize) -> Option<usize> {
    let (hay, sep) = (text.as_bytes(), sep.as_bytes());
    let k = sep.iter().position(|&b| b != b' ')?;
    let mut at = from + k;
    while let Some(i) = memchr::memchr(sep[k], hay.get(at..)?) {
        let start = at + i - k;
        if hay.get(start..start + sep.len()) == Some(sep) {
            return Some(start);
        }
        at += i + 1;
    }
    None
}

/// The last place where `sep` (one of [`SEPARATORS`]) starts in `text`,
/// as `str::rfind` finds it: [`find_separator`] from the end.
fn rfind_separator(text: &str, sep: &str) -> Option<usize> {
    let (hay, sep) = (text.as_bytes(), sep.as_bytes());
    let k = sep.iter().position(|&b| b != b' ')?;
    let mut end = hay.len();
    while let Some(i) = memchr::memrchr(sep[k], hay.get(..end)?) {
        if let Some(start) = i.checked_sub(k)
            && hay.get(start..start + sep.len()) == Some(sep)
        {
            return Some(start);
        }
        end = i;
    }
    None
}

/// The part of a title that is its page's headline: the longest of its
/// parts split at the separators, where it has more than one and that
/// part has at least six words. A block repeating it agrees with it
/// fully, while against the whole title a short block repeating the site
/// name ("CTV Toronto" in "CTV Toronto - OPP says 'enough' after 2
/// accused of drunk driving - CTV News, Shows and Sports") can score
/// higher than the headline itself. Site names and section labels are
/// shorter than six words; headlines mostly are not.
fn headline_part<'t>(parts: &[&'t str]) -> Option<&'t str> {
    let longest = parts.first().copied().filter(|_| parts.len() > 1)?;
    (longest.split_whitespace().count() >= 6).then_some(longest)
}

/// linesift's block-level headline finder.
///
/// Every short block is scored by TF cosine against the title (or
/// og:title), with a bonus for headings and for sitting just before the
/// main content; headings need less agreement than plain blocks. Without
/// agreement, the heading nearest before the content wins, then og:title,
/// then a lone `<h1>`, then the title's longest part.
fn auto(input: &Inputs<'_>) -> Option<Headline> {
    best_match(input).or_else(|| auto_fallback(input))
}

/// `Auto` when no block agrees with the title: the nearest heading before
/// the content, the nearest short block, then og:title, a lone `<h1>` or
/// the title's longest part. A page without a `<title>` (one its scripts
/// would name) but with an og:title goes by og:title's longest part
/// first: it is the only name its publisher gave it, and the headings
/// near the content of such shop pages are menus ("Browse by Category").
pub fn auto_fallback(input: &Inputs<'_>) -> Option<Headline> {
    let og = clean(input.og_title);
    if clean(input.title).is_empty() && !og.is_empty() {
        return fallback("", &og, input.candidates);
    }
    nearest_heading(input)
        .or_else(|| nearest_block(input))
        .or_else(|| content_first_line(input))
        .or_else(|| {
            fallback(
                &clean(input.title),
                &clean(input.og_title),
                input.candidates,
            )
        })
}

/// How far before the content start the fallbacks look (the nearest
/// heading; the nearest block looks less far), and how far into it (the
/// content's first lines): [`fallback_may_use`] renders by these.
const REACH_BEFORE: u32 = 30;
const REACH_INTO: u32 = 1;
const _: () = assert!(NEAREST_BLOCK_REACH <= REACH_BEFORE);
/// How far before the content start [`nearest_block`] looks.
const NEAREST_BLOCK_REACH: u32 = 12;

/// Whether [`auto_fallback`] may look at a block on `line` with this
/// heading level: one at most [`REACH_BEFORE`] lines before the content
/// start or on its first two lines ([`nearest_heading`], [`nearest_block`],
/// [`content_first_line`]), or an `<h1>` (the lone one [`fallback`]
/// takes). The others need not be rendered for it: on the corpus sample
/// (every 15th page) they were seven in ten of the lines rendered for the
/// fallbacks (1,096 of them, 4.4 M instructions; now 1.5 M).
pub fn fallback_may_use(line: u32, heading: u8, content_start: Option<u32>) -> bool {
    heading == 1
        || content_start.is_some_and(|start| {
            line.saturating_add(REACH_BEFORE) >= start && line <= start.saturating_add(REACH_INTO)
        })
}

/// `Auto`'s first choice: the best-scoring block that agrees with the
/// title or og:title (cosine at least 0.35 for a heading, 0.5 otherwise).
/// Only blocks sharing a term with [`Matcher::query_terms`] can agree,
/// which is what lets the caller skip rendering the others (see
/// [`prefilter`]).
pub fn best_match(input: &Inputs<'_>) -> Option<Headline> {
    let mut matcher = Matcher::new(input);
    let mut best = None;
    for c in input.candidates {
        if matcher.may_win(c.line, c.heading) && matcher.consider(c) {
            best = Some(c);
        }
    }
    best.map(|c| Headline {
        text: matcher.chosen(c.text).to_string(),
        line: Some(c.line),
    })
}

/// [`best_match`] one candidate at a time, so that a caller can leave
/// unrendered the blocks that cannot win any more ([`Matcher::may_win`]).
pub struct Matcher<'s> {
    q: TermVector,
    og_v: TermVector,
    /// Most pages repeat the title as og:title: one cosine then does.
    og_differs: bool,
    /// The title's headline part ([`headline_part`]), if it has one.
    part_v: TermVector,
    /// The title's last part ([`site_part`]), if it has one.
    site_v: TermVector,
    /// The cleaned title, what [`Matcher::site_longest`] reads.
    title: String,
    /// [`Matcher::site_longest`], once asked: it is wanted only for a
    /// block repeating the site's name near the content, and finding the
    /// parts of the title before it again cost every page 1,700
    /// instructions (0.5 M on every 15th page).
    site_longest: Option<bool>,
    v: TermVector,
    stop: &'s StopWords,
    content_start: Option<u32>,
    content_first: Option<u32>,
    /// The title names only the site or a section ([`names_the_site_only`]).
    site_title: bool,
    /// The best score so far and its block's line.
    best: Option<(f64, u32)>,
    /// The best block's headline is its second line ([`Matcher::consider`]).
    best_second: bool,
}

/// How many lines past the content start a plain block may sit and still
/// be the headline; the same reach as a heading's before it is replaced
/// by one above the content (`heading_above_content` in the extractor).
pub const PAST_CONTENT: u32 = 15;

/// A cosine is at most 1; this much more covers its rounding.
const COSINE_SLACK: f64 = 1e-9;

impl<'s> Matcher<'s> {
    /// A matcher for `input`'s title, og:title and content (its
    /// candidates are not looked at).
    pub fn new(input: &Inputs<'s>) -> Self {
        let title = clean(input.title);
        let og = clean(input.og_title);
        let parts = title_parts(&title);
        let site = site_part(&title);
        Matcher {
            q: TermVector::of(&title, input.stop),
            // Looked at only where og:title differs from the title.
            og_v: if og != title {
                TermVector::of(&og, input.stop)
            } else {
                TermVector::default()
            },
            og_differs: og != title,
            part_v: headline_part(&parts)
                .map(|p| TermVector::of(p, input.stop))
                .unwrap_or_default(),
            site_v: site
                .map(|(_, p)| TermVector::of(p, input.stop))
                .unwrap_or_default(),
            site_longest: None,
            v: TermVector::default(),
            stop: input.stop,
            content_start: input.content_start,
            content_first: input.content_first,
            site_title: og.is_empty() && names_a_site(&parts),
            best: None,
            best_second: false,
            title,
        }
    }

    /// The title's last part ([`site_part`]) has more words than each of
    /// the others: it may be the headline ("danah boyd | apophenia » Three
    /// conversations for parents: navigating networked publics").
    fn site_longest(&mut self) -> bool {
        if let Some(longest) = self.site_longest {
            return longest;
        }
        let longest = site_part(&self.title).is_some_and(|(head, part)| {
            let words = part.split_whitespace().count();
            title_parts(head)
                .iter()
                .all(|p| p.split_whitespace().count() < words)
        });
        self.site_longest = Some(longest);
        longest
    }

    /// Could a block on `line` with this heading level beat the best so
    /// far? Its score is its cosine (at most 1) plus bonuses known from
    /// `line` and `heading` alone, and only a higher score wins: a block
    /// for which this is false need not be rendered, and the choice is the
    /// same as with it.
    pub fn may_win(&self, line: u32, heading: u8) -> bool {
        self.best
            .is_none_or(|(best, _)| 1.0 + COSINE_SLACK + self.bonus(line, heading) > best)
    }

    /// Could a block on `line` with this heading level, made of link text
    /// or not, be chosen at all? Known before it is rendered: where not,
    /// it need not be.
    ///
    /// A plain block more than [`PAST_CONTENT`] lines past the content
    /// start never is.
    ///
    /// Under a title naming only the site, a linked block that is no
    /// heading and agrees with it is the site's logo or a section's link
    /// ("Calgary Sun", "LIFESTYLE & ENTERTAINMENT"), not the story's
    /// headline. So is a linked heading past the content start: it heads a
    /// box beside or below the story (a section's "Business"), whose own
    /// heading came first. (Under a title naming the page, a linked
    /// heading far past the start may be a teaser naming it, and stays:
    /// `heading_above_content` in the extractor.)
    pub fn may_be_chosen(&self, line: u32, heading: u8, links: bool) -> bool {
        let past = |by: u32| {
            self.content_start
                .is_some_and(|start| line > start.saturating_add(by))
        };
        let far_past = heading == 0 && past(PAST_CONTENT);
        let site_link = self.site_title && links && (heading == 0 || past(0));
        !far_past && !site_link
    }

    /// What a block on `line` with this heading level scores on top of
    /// its cosine: blocks looked at in falling order of it meet the
    /// strong ones first ([`Matcher::may_win`]).
    pub fn bonus(&self, line: u32, heading: u8) -> f64 {
        heading_bonus(heading)
            + near_content_bonus(line, self.content_start)
                .max(near_content_bonus(line, self.content_first))
    }

    /// The terms a block must share with the title or og:title to agree
    /// with either: those of the title, then those only og:title has (the
    /// vectors already made of both, not a second reading of them).
    pub fn query_terms(&self) -> impl Iterator<Item = &str> {
        let og_only = self
            .og_v
            .iter()
            .filter(|_| self.og_differs)
            .filter(|(t, _)| !self.q.iter().any(|(q, _)| q == *t));
        self.q.iter().chain(og_only).map(|(t, _)| t)
    }

    /// Scores `c` by its first line (what the headline would be of it: a
    /// heading's line may go on with a date or a teaser after a break),
    /// or a plain block by its second line where that agrees better
    /// ([`Matcher::chosen`] then reads the headline from it);
    /// `true` when it is the best so far: it scores higher, or as high
    /// and comes first on the page (so the choice does not depend on the
    /// order the blocks are considered in).
    ///
    /// A byline ("By Ann Reed -- Harbor Times, 1/21/2008") agrees with a
    /// title's site name and date but is never the headline; nor is a
    /// plain block more than [`PAST_CONTENT`] lines past the content
    /// start (a headline comes before what it heads: past it, blocks
    /// naming the site are footers, copyright lines and comment notices).
    pub fn consider(&mut self, c: &Candidate) -> bool {
        let mut text = first_line(c.text);
        let (mut words, mut numeric) = word_counts(text);
        if words == 0 || words > 40 || is_byline(text) {
            return false;
        }
        if !self.may_be_chosen(c.line, c.heading, c.links) {
            return false;
        }
        let mut sim = self.agreement(text);
        // A block repeating the title's last part is the site's or the
        // section's name ("Starpulse Entertainment News Blog" under
        // "'Bucket List' Tops Box Office - Starpulse Entertainment News
        // Blog", a logo's `<h1>`): it competes on its agreement alone,
        // without the bonuses that would lift it over the headline set in
        // a lower heading. Not where that part is the title's longest and
        // the block sits just before the content: titles that put the
        // site first end with the headline.
        let names_site =
            !self.site_v.is_empty() && terms::cosine(&self.site_v, &self.v) >= 1.0 - COSINE_SLACK;
        let near = near_content_bonus(c.line, self.content_start)
            .max(near_content_bonus(c.line, self.content_first));
        // A plain block may set a label or a caption above the headline
        // ("More World news" / "Judges in Liberian ex-president's trial
        // …"): its second line is the headline where it looks like one
        // and agrees with the title better than the first.
        let mut second = false;
        if c.heading == 0
            && let Some(next) = second_line(c.text)
            && looks_like_headline(next)
        {
            let next_sim = self.agreement(next);
            if next_sim > sim {
                (text, sim, second) = (next, next_sim, true);
                (words, numeric) = word_counts(text);
            }
        }
        let needed = if c.heading > 0 { 0.35 } else { 0.5 };
        let sure = if c.heading > 0 { 0.5 } else { 0.9 };
        if sim < sure && !headline_shape(words, numeric) {
            return false;
        }
        // Summed in this order, as it always was: a float sum in another
        // order can differ in the last bit and flip a near-tie.
        let score = if names_site && !second && !(near > 0.0 && self.site_longest()) {
            sim
        } else {
            sim + heading_bonus(c.heading) + near
        };
        let wins = sim >= needed
            && self
                .best
                .is_none_or(|(b, line)| score > b || (score == b && c.line < line));
        if wins {
            self.best = Some((score, c.line));
            self.best_second = second;
        }
        wins
    }

    /// How well `text` agrees with the title, og:title or the title's
    /// headline part (TF cosine, the highest); leaves its terms in `v`.
    fn agreement(&mut self, text: &str) -> f64 {
        self.v.set(text, self.stop);
        let mut sim = terms::cosine(&self.q, &self.v);
        if self.og_differs {
            sim = sim.max(terms::cosine(&self.og_v, &self.v));
        }
        if !self.part_v.is_empty() {
            sim = sim.max(terms::cosine(&self.part_v, &self.v));
        }
        sim
    }

    /// The best block's text as the headline is to be read from it: from
    /// its second line on where that line won ([`Matcher::consider`]).
    pub fn chosen<'t>(&self, block: &'t str) -> &'t str {
        if !self.best_second {
            return block;
        }
        let first = first_line(block);
        let at = block.find(first).map_or(0, |i| i + first.len());
        block[at..].trim_start()
    }
}

/// The second line of a block with text, trimmed.
fn second_line(text: &str) -> Option<&str> {
    text.lines().map(str::trim).filter(|l| !l.is_empty()).nth(1)
}

/// The title before its last separator other than `": "` (which may
/// stay inside a headline), and its last part after it: where titles
/// name the site ("… - Broadcasting & Cable", "… | Yoga With Olivia").
/// `None` for a title without such a separator.
fn site_part(title: &str) -> Option<(&str, &str)> {
    // Most titles hold one or two of the separators: the others are ruled
    // out by a `memrchr` each, as in [`title_parts`] (ten `rfind`s cost a
    // page 7,000 instructions; a test that the title holds a separator,
    // then an `rfind`, 700 more than this).
    let (at, len) = SEPARATORS
        .iter()
        .filter(|&&sep| sep != ": ")
        .filter_map(|sep| rfind_separator(title, sep).map(|i| (i, sep.len())))
        .max_by_key(|&(i, len)| i + len)?;
    let (head, part) = (title[..at].trim(), title[at + len..].trim());
    (!part.is_empty() && !head.is_empty()).then_some((head, part))
}

fn heading_bonus(level: u8) -> f64 {
    match level {
        1 => 0.3,
        2 => 0.08,
        3 => 0.04,
        _ => 0.0,
    }
}

/// Headlines sit just before the main content (thesis 000 §7.2.1).
fn near_content_bonus(line: u32, content_start: Option<u32>) -> f64 {
    match content_start {
        Some(start) if line <= start && start - line <= 15 => 0.1,
        _ => 0.0,
    }
}

/// The closest `<h1>`-`<h3>` at most 30 lines before the content start
/// whose first line, the one [`normalize`] keeps, looks like a headline: a
/// label with a teaser after a break ("Subscribe" / "Offers, tips and
/// more") is no headline for the teaser's words.
fn nearest_heading(input: &Inputs<'_>) -> Option<Headline> {
    let start = input.content_start?;
    input
        .candidates
        .iter()
        .filter(|c| {
            (1..=3).contains(&c.heading) && c.line <= start && start - c.line <= REACH_BEFORE
        })
        .filter(|c| looks_like_headline(first_line(c.text)))
        .max_by_key(|c| c.line)
        .map(|c| Headline {
            text: c.text.to_string(),
            line: Some(c.line),
        })
}

/// A sentence-like block: 3 to 25 words, not a date or a section label
/// ("Business", "STATE NEWS", "Dec 30 2007"), nor a byline.
pub fn looks_like_headline(text: &str) -> bool {
    let (words, numeric) = word_counts(text);
    headline_shape(words, numeric) && !is_byline(text)
}

/// A byline ("By Ann Reed, Harbor Times"): its first word is "By".
fn is_byline(text: &str) -> bool {
    text.split_whitespace()
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("by"))
}

fn headline_shape(words: usize, numeric: usize) -> bool {
    (3..=25).contains(&words) && numeric * 3 < words
}

/// Whitespace-separated words, and how many of them hold an ASCII digit.
fn word_counts(text: &str) -> (usize, usize) {
    let (mut words, mut numeric) = (0, 0);
    // ASCII text (most candidates) in one pass by bytes: its Unicode
    // whitespace is the ASCII whitespace and U+000B. A test that it is
    // ASCII, a search for U+000B, a split and a search for digits a word
    // took 0.3 M instructions more on every 15th page (the candidates'
    // first lines counted).
    let (mut in_word, mut digit) = (false, false);
    for &b in text.as_bytes() {
        match WORD_BYTES[usize::from(b)] {
            SPACE => {
                if in_word {
                    words += 1;
                    numeric += usize::from(digit);
                }
                (in_word, digit) = (false, false);
            }
            DIGIT => (in_word, digit) = (true, true),
            LETTER => in_word = true,
            _ => return unicode_word_counts(text),
        }
    }
    if in_word {
        words += 1;
        numeric += usize::from(digit);
    }
    (words, numeric)
}

/// [`word_counts`] of text that is not all ASCII.
fn unicode_word_counts(text: &str) -> (usize, usize) {
    text.split_whitespace().fold((0, 0), |(words, numeric), w| {
        let digit = w.bytes().any(|b| b.is_ascii_digit());
        (words + 1, numeric + usize::from(digit))
    })
}

/// What an ASCII byte is to [`word_counts`]: Unicode whitespace, a digit,
/// any other ASCII character; bytes past ASCII are `OTHER`.
const WORD_BYTES: [u8; 256] = {
    let mut table = [OTHER; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        table[b] = if c.is_ascii_whitespace() || c == 0x0b {
            SPACE
        } else if c.is_ascii_digit() {
            DIGIT
        } else {
            LETTER
        };
        b += 1;
    }
    table
};
const SPACE: u8 = 0;
const DIGIT: u8 = 1;
const LETTER: u8 = 2;
const OTHER: u8 = 3;

/// Old pages set headlines in `<b>` or `<font>`: the closest short block
/// that is not a link, at most 8 lines before the content start.
fn nearest_block(input: &Inputs<'_>) -> Option<Headline> {
    let start = input.content_start?;
    input
        .candidates
        .iter()
        .filter(|c| c.line < start && start - c.line <= NEAREST_BLOCK_REACH && !c.links)
        .filter(|c| looks_like_headline(c.text))
        .max_by_key(|c| c.line)
        .map(|c| Headline {
            text: headline_line(c.text).to_string(),
            line: Some(c.line),
        })
}

/// A title of at most three words ("Bloomberg.com", "Charleston Daily
/// Mail", "Top Stories") without an og:title names the site or a section,
/// not the page: the page's own headline, set in neither a heading nor a
/// block before the content, is then the content's first line (news
/// pages of the 2000s open the story with its headline in a `<p>` or a
/// `<font>`). The first headline-shaped block on the content's first two
/// lines that is not a link; `None` where og:title names the page or the
/// title is longer (it is more likely the page's own name then).
fn content_first_line(input: &Inputs<'_>) -> Option<Headline> {
    let start = input.content_start?;
    if !names_the_site_only(input) {
        return None;
    }
    input
        .candidates
        .iter()
        .filter(|c| c.line >= start && c.line - start <= REACH_INTO && !c.links)
        .map(|c| (c.line, headline_line(c.text)))
        .find(|&(_, text)| looks_like_headline(text))
        .map(|(line, text)| Headline {
            text: text.to_string(),
            line: Some(line),
        })
}

/// A title of at most three words in its longest part and no og:title:
/// the site's or a section's name, not the page's.
fn names_the_site_only(input: &Inputs<'_>) -> bool {
    clean(input.og_title).is_empty() && names_a_site(&title_parts(&clean(input.title)))
}

/// A title whose longest part (see [`title_parts`]) is at most three
/// words long, or that has none.
fn names_a_site(parts: &[&str]) -> bool {
    parts
        .first()
        .is_none_or(|part| part.split_whitespace().count() <= 3)
}

/// No block agrees with the title: og:title, a lone `<h1>`, then the
/// longest part of the title.
fn fallback(title: &str, og: &str, candidates: &[Candidate]) -> Option<Headline> {
    if !og.is_empty() {
        let part = title_parts(og)
            .first()
            .map(|s| s.to_string())
            .unwrap_or_default();
        return Some(Headline {
            text: part,
            line: None,
        });
    }
    let mut h1 = candidates
        .iter()
        .filter(|c| c.heading == 1 && !c.text.is_empty());
    if let (Some(c), None) = (h1.next(), h1.next()) {
        return Some(Headline {
            text: c.text.to_string(),
            line: Some(c.line),
        });
    }
    let part = title_parts(title).first()?.to_string();
    Some(Headline {
        text: part,
        line: None,
    })
}

/// The first line of a block with text, trimmed: what [`normalize`]
/// keeps of it.
pub fn first_line(text: &str) -> &str {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
}

/// The line of a block that would be its headline: the first, or the
/// second where the first is a label of one or two words and the second
/// looks like a headline (old news pages set a section's link and the
/// story's headline in one block: "Top Stories" / "Tributes paid to
/// Edmund Hillary").
fn headline_line(text: &str) -> &str {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("");
    if word_counts(first).0 > 2 {
        return first;
    }
    match lines.next() {
        Some(second) if looks_like_headline(second) => second,
        _ => first,
    }
}

/// A headline as people write it down: its first line only (a heading
/// block may carry a byline after a `<br>`), without a breadcrumb trail
/// before it or a short suffix after a bar. Its characters stay as the
/// page sets them (“Calm”, the keeper’s): only comparisons fold them
/// ([`compare_form`]).
pub fn normalize(text: &str) -> String {
    let first = first_line(text);
    // Permalink markers documentation generators append to headings.
    let first = first.trim_end_matches(['¶', '#', '🔗', '§']).trim_end();
    let first = without_breadcrumb(first);
    let first = without_bar_suffix(first);
    let first = without_bar_prefix(first);
    let first = without_reply_prefix(first);
    let first = without_date_prefix(first);
    let first = without_source_domain(first);
    first.to_string()
}

/// `text` as two headlines or titles are compared: lowercased, and
/// typographic apostrophes and single quotes as ASCII `'` (one page sets
/// "keeper’s" where its title says "keeper's").
pub fn compare_form(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    text.chars()
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' | '\u{201B}' | '\u{2032}' => '\'',
            c => c,
        })
        .collect::<String>()
        .to_lowercase()
}

/// A headline without the breadcrumb trail before it ("Home > News >
/// …"): what follows the last `" > "`.
fn without_breadcrumb(text: &str) -> &str {
    // Most headlines hold no `>` (nor `|`, below): a `memchr` rules the
    // separator out before a substring search is set up.
    if !text.contains('>') {
        return text;
    }
    match text.rsplit_once(" > ") {
        Some((_, last)) => last.trim_start(),
        _ => text,
    }
}

/// A link aggregator's story title without the site it links to after
/// it ("… guarantee jobs (latimes.com)"): the story's headline is what
/// comes before. Only a bare host name is taken, a word with a dot and a
/// top-level domain of letters, so "(2025)" or "(Part 2)" stay.
fn without_source_domain(text: &str) -> &str {
    let Some(head) = text.strip_suffix(')') else {
        return text;
    };
    let Some((head, host)) = head.rsplit_once(" (") else {
        return text;
    };
    // The host before any path ("github.com/someone").
    let name = host.split('/').next().unwrap_or(host);
    let host_like = name.rsplit_once('.').is_some_and(|(name, tld)| {
        !name.is_empty()
            && tld.len() >= 2
            && tld.bytes().all(|b| b.is_ascii_alphabetic())
            && host
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'/'))
    });
    if host_like && !head.trim().is_empty() {
        head.trim_end()
    } else {
        text
    }
}

/// A forum post's subject without the reply marker before it ("Re:
/// Turning off all LEDs") or the label a forum sets before a thread's
/// title ("Thread: What do you look for in a host?"): the thread's title
/// is what follows.
fn without_reply_prefix(text: &str) -> &str {
    ["re: ", "thread: "]
        .iter()
        .find(|m| {
            text.get(..m.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(m))
        })
        .and_then(|m| text.get(m.len()..))
        .map_or(text, str::trim_start)
}

/// A headline without the site's and the section's names before it
/// ("News & Observer | newsobserver.com | Players to be evaluated …", a
/// logo repeating the title): what follows the last `" | "` when at least
/// two parts of at most three words come before it and it has four words
/// or more. One short part before a bar may be the headline's own kicker
/// ("Ferries | The best boats on the coast").
fn without_bar_prefix(text: &str) -> &str {
    if !text.contains('|') {
        return text;
    }
    let Some((head, last)) = text.rsplit_once(" | ") else {
        return text;
    };
    let mut parts = 0;
    for part in head.split(" | ") {
        if part.split_whitespace().count() > 3 {
            return text;
        }
        parts += 1;
    }
    if parts >= 2 && last.split_whitespace().count() >= 4 {
        last.trim_start()
    } else {
        text
    }
}

/// A headline without the date a blog or a news site sets before it on
/// the same line ("Dec 18 2025 Preparing a transition", "Wednesday, 09
/// January 2008 Jeremy Clarkson ripped off"): an optional weekday, then a
/// day, a month's name and a four-digit year in either order. Kept where
/// fewer than three words follow (a date is no headline, but a headline
/// about one may start with one).
fn without_date_prefix(text: &str) -> &str {
    let mut rest = text;
    let mut word = next_word(rest);
    if word.is_some_and(|(w, _)| is_name_in(w, WEEKDAYS)) {
        rest = word.map_or(rest, |(_, r)| r);
        word = next_word(rest);
    }
    let (mut day, mut month) = (false, false);
    for _ in 0..2 {
        match word {
            Some((w, r)) if !day && is_day(w) => (day, rest) = (true, r),
            Some((w, r)) if !month && is_name_in(w, MONTHS) => (month, rest) = (true, r),
            _ => return text,
        }
        word = next_word(rest);
    }
    match word {
        Some((year, r)) if day && month && is_year(year) && r.split_whitespace().count() >= 3 => r,
        _ => text,
    }
}

const WEEKDAYS: &[&str] = &[
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];
const MONTHS: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// The first word of `text` and what follows it, trimmed.
fn next_word(text: &str) -> Option<(&str, &str)> {
    let text = text.trim_start();
    let end = text.find(char::is_whitespace).unwrap_or(text.len());
    let (w, rest) = text.split_at(end);
    (!w.is_empty()).then(|| (w, rest.trim_start()))
}

/// A day or a month's name, spelled out or cut short ("Wed,", "January",
/// "Sept.", "Thurs"): at least three letters that begin one of `names`.
/// A word that only starts like one ("Wedding", "Mayor", "Marching") is
/// none: "Wedding 18 May 2008 photos …" keeps its first word.
fn is_name_in(word: &str, names: &[&str]) -> bool {
    let w = word.trim_end_matches([',', '.']);
    w.len() >= 3
        && w.bytes().all(|b| b.is_ascii_alphabetic())
        && names
            .iter()
            .any(|n| n.get(..w.len()).is_some_and(|p| p.eq_ignore_ascii_case(w)))
}

/// A day of the month: one or two digits, maybe with a comma.
fn is_day(word: &str) -> bool {
    let w = word.trim_end_matches(',');
    (1..=2).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_digit())
}

/// A four-digit year, maybe with a comma.
fn is_year(word: &str) -> bool {
    let w = word.trim_end_matches(',');
    w.len() == 4 && w.bytes().all(|b| b.is_ascii_digit())
}

/// A headline without what follows its first `" | "` when that is at
/// most five words: the site name or section a heading repeats from the
/// title ("… | Opinion", "… | Top 19 Companies").
fn without_bar_suffix(text: &str) -> &str {
    if !text.contains('|') {
        return text;
    }
    match text.split_once(" | ") {
        Some((head, tail)) if tail.split_whitespace().count() <= 5 => head.trim_end(),
        _ => text,
    }
}

/// Decodes entities and collapses whitespace in a title-like string.
pub fn clean(s: &str) -> String {
    // Most titles are clean already, and a page cleans its title and
    // og:title several times: a copy then, not a decoder and a join.
    if is_clean(s) {
        return s.to_string();
    }
    let decoded = html_escape::decode_html_entities(s);
    // The words joined by single spaces, as `split_whitespace` and `join`
    // give them, without the vector of words.
    let mut out = String::with_capacity(decoded.len());
    for word in decoded.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Whether [`clean`] gives `s` back as it is: no `&` to begin a
/// reference, and no whitespace but single spaces between words.
fn is_clean(s: &str) -> bool {
    // By bytes, a char decoded only past ASCII: char by char, with
    // Unicode's whitespace test for each (and the words of a title that
    // is not clean collected in a vector to be joined), cleaning took 0.3
    // M instructions more on every 15th page.
    let bytes = s.as_bytes();
    let mut after_space = true;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let (space, len) = if b.is_ascii() {
            if b == b'&' {
                return false;
            }
            // `char::is_whitespace` in ASCII: U+000B too.
            (b.is_ascii_whitespace() || b == 0x0b, 1)
        } else {
            match s.get(i..).and_then(|rest| rest.chars().next()) {
                Some(c) => (c.is_whitespace(), c.len_utf8()),
                None => return false,
            }
        };
        if space {
            if b != b' ' || after_space {
                return false;
            }
            after_space = true;
        } else {
            after_space = false;
        }
        i += len;
    }
    !after_space || s.is_empty()
}

#[cfg(test)]
mod tests {
    /// The parts as found before the separators the title lacks were
    /// skipped: the title split at each of the eleven in turn.
    fn parts_at_every_separator(title: &str) -> Vec<&str> {
        let mut parts = vec![title.trim()];
        for sep in super::SEPARATORS {
            parts = parts
                .into_iter()
                .flat_map(|p| p.split(sep))
                .map(str::trim)
                .collect();
        }
        parts.retain(|p| !p.is_empty());
        parts.sort_by_key(|p| std::cmp::Reverse(p.chars().count()));
        parts
    }

    #[test]
    fn titles_split_at_the_separators_they_hold() {
        assert_eq!(
            super::title_parts("X-Men: Days of Future Past – Review | Film Site"),
            ["Days of Future Past", "Film Site", "Review", "X-Men"]
        );
        // A separator's character without its spaces splits nothing.
        assert_eq!(super::title_parts("A|B - C/D"), ["A|B", "C/D"]);
        assert_eq!(super::title_parts("  One part  "), ["One part"]);
        // Old pages' ASCII dash.
        assert_eq!(
            super::title_parts("harbortimes.com -- Keepers vote to light the lamps"),
            ["Keepers vote to light the lamps", "harbortimes.com"]
        );
    }

    proptest::proptest! {
        /// A clean title is given back as the decoder and the join give it.
        #[test]
        fn clean_titles_come_back_as_the_full_cleaning_gives_them(
            pieces in proptest::collection::vec(proptest::sample::select(vec![
                "Storm", "é", " ", "  ", "\t", "\n", "\u{a0}", "\u{2003}", "\u{1c}", "&amp;", "&",
                "&#8211;", "–", "|",
                "\u{b}", "\u{85}", "\u{3000}", "\r",
            ]), 0..10)
        ) {
            let s: String = pieces.concat();
            let full = html_escape::decode_html_entities(&s)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            proptest::prop_assert_eq!(super::clean(&s), full);
        }

        #[test]
        fn title_parts_are_those_of_splitting_at_every_separator(
            pieces in proptest::collection::vec(proptest::sample::select(vec![
                "News", "a", "X-Men", " ", " | ", " - ", " – ", " — ", " -- ", " :: ", " · ",
                " • ", " » ", " / ", ": ", "|", "-", "–", ":", "/", "»", "é",
            ]), 0..12)
        ) {
            let title: String = pieces.concat();
            proptest::prop_assert_eq!(super::title_parts(&title), parts_at_every_separator(&title));
        }

        /// A separator is found where `str::find` finds it, from any place.
        #[test]
        fn separators_are_found_where_find_finds_them(
            pieces in proptest::collection::vec(proptest::sample::select(vec![
                "a", " ", "  ", "|", "-", "--", " - ", " -- ", ":", "::", " :: ", "–", " – ",
                "é", "»", "/", ": ",
            ]), 0..12),
            from in 0usize..8,
        ) {
            let text: String = pieces.concat();
            for sep in super::SEPARATORS {
                let plain = text
                    .as_bytes()
                    .get(from..)
                    .and_then(|rest| rest.windows(sep.len()).position(|w| w == sep.as_bytes()))
                    .map(|i| i + from);
                proptest::prop_assert_eq!(super::find_separator(&text, sep, from), plain);
                proptest::prop_assert_eq!(super::rfind_separator(&text, sep), text.rfind(sep));
            }
        }

        /// Counting ASCII text by bytes counts what `split_whitespace` splits.
        #[test]
        fn word_counts_split_as_split_whitespace(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "a", "7", " ", "  ", "\t", "\n", "\r", "\u{b}", "\u{c}", "\u{1c}", "é", "\u{a0}",
                "x1", "-",
            ]), 0..20)
        ) {
            let text: String = parts.concat();
            let plain = text.split_whitespace().fold((0, 0), |(w, n), word| {
                (w + 1, n + usize::from(word.bytes().any(|b| b.is_ascii_digit())))
            });
            proptest::prop_assert_eq!(super::word_counts(&text), plain);
        }
    }

    use super::*;

    proptest::proptest! {
        /// The fallbacks choose the same from the blocks they may look at
        /// as from all of them.
        #[test]
        fn the_fallbacks_choose_from_the_blocks_they_may_use(
            blocks in proptest::collection::vec((
                0u32..70,
                0u8..5,
                proptest::bool::ANY,
                proptest::sample::select(vec![
                    "Lamps", "Keepers vote to light the lamps", "Top Stories\nLamps lit again tonight",
                    "Dec 18 2025", "By Ann Reed", "Harbor Times",
                ]),
            ), 0..12),
            start in proptest::option::of(0u32..70),
            title in proptest::sample::select(vec!["", "Harbor Times", "Lamps lit | Harbor Times"]),
            og_title in proptest::sample::select(vec!["", "Lamps lit"]),
        ) {
            let s = stop();
            let mut blocks = blocks;
            blocks.sort_by_key(|b| b.0);
            blocks.dedup_by_key(|b| b.0);
            let all: Vec<Candidate> = blocks
                .iter()
                .map(|&(line, heading, links, text)| Candidate { text, line, heading, links })
                .collect();
            let used: Vec<Candidate> = all
                .iter()
                .filter(|c| fallback_may_use(c.line, c.heading, start))
                .cloned()
                .collect();
            let input = |candidates| Inputs {
                og_title,
                content_start: start,
                content_first: start,
                ..inputs(title, candidates, &s)
            };
            proptest::prop_assert_eq!(auto_fallback(&input(&all)), auto_fallback(&input(&used)));
        }
    }

    fn stop() -> StopWords {
        ["the", "a", "of", "in", "to", "and", "is"]
            .into_iter()
            .collect()
    }

    /// Inputs with `title` and `candidates` only: no og:title, no
    /// content start (tests set more with `..inputs(...)`).
    fn inputs<'a>(
        title: &'a str,
        candidates: &'a [Candidate<'a>],
        stop: &'a StopWords,
    ) -> Inputs<'a> {
        Inputs {
            title,
            og_title: "",
            candidates,
            stop,
            content_start: None,
            content_first: None,
        }
    }

    fn cand(text: &str, line: u32, heading: u8) -> Candidate<'_> {
        Candidate {
            text,
            line,
            heading,
            links: false,
        }
    }

    #[test]
    fn a_heading_broken_for_its_layout_is_joined_where_the_title_has_both_lines() {
        let stop = stop();
        let input = inputs("Harbor Lights Restoration | Keeper Co", &[], &stop);
        let broken = "Harbor Lights\nRestoration";
        assert_eq!(
            joined_heading(broken, 1, &input).as_deref(),
            Some("Harbor Lights Restoration")
        );
        // A byline or a date after the break stays off.
        assert_eq!(
            joined_heading("Harbor Lights Restoration\nBy Ann Reed", 1, &input),
            None
        );
        assert_eq!(
            joined_heading("Harbor Lights Restoration\nMay 4, 2024", 2, &input),
            None
        );
        // Nor a byline or a date the title shares words with.
        let news = inputs("Harbor Lights Restoration - Harbor News 2024", &[], &stop);
        let byline = "Harbor Lights Restoration\nBy Harbor News";
        assert_eq!(joined_heading(byline, 1, &news), None);
        assert_eq!(
            joined_heading("Harbor Lights Restoration\n2024", 1, &news),
            None
        );
        // Nor a line that shares a few words with a title naming the site.
        let site = inputs("Soccer news daily: Euro 2008, World Cup 2010", &[], &stop);
        assert_eq!(
            joined_heading("Chelsea hold on\nWorld news daily", 2, &site),
            None
        );
        // A plain block runs on into its story.
        assert_eq!(joined_heading(broken, 0, &input), None);
        assert_eq!(joined_heading("Harbor Lights Restoration", 1, &input), None);
    }

    #[test]
    fn sentences_split_at_terminal_punctuation() {
        assert_eq!(
            sentences("One. Two? Three!"),
            vec!["One.", "Two?", "Three!"]
        );
        assert_eq!(sentences("3.5 percent"), vec!["3.5 percent"]);
    }

    #[test]
    fn title_finder_tf_picks_the_most_similar_sentence() {
        let s = stop();
        let c = [
            cand("Home News Sport", 0, 0),
            cand(
                "Storm hits the coast of Maine. Thousands without power.",
                5,
                0,
            ),
            cand("Weather", 9, 0),
        ];
        let input = inputs("BBC News - Storm hits coast of Maine", &c, &s);
        let h = find(HeadlineMethod::Tf, &input).unwrap();
        assert_eq!(
            h,
            Headline {
                text: "Storm hits the coast of Maine.".into(),
                line: Some(5)
            }
        );
        for m in [
            HeadlineMethod::TfIdf,
            HeadlineMethod::Osm,
            HeadlineMethod::Aggregate,
        ] {
            assert_eq!(find(m, &input).unwrap().line, Some(5), "{m}");
        }
    }

    #[test]
    fn auto_prefers_the_h1_that_agrees_with_the_title() {
        let s = stop();
        let c = [
            cand("Latest stories", 2, 2),
            cand("U.S. markets rally as rates fall", 7, 1),
        ];
        let input = inputs("U.S. markets rally as rates fall | Example Times", &c, &s);
        assert_eq!(
            find(HeadlineMethod::Auto, &input).unwrap().text,
            "U.S. markets rally as rates fall"
        );
    }

    #[test]
    fn blocks_that_cannot_beat_a_strong_match_are_not_considered() {
        let s = stop();
        let h1 = cand("U.S. markets rally as rates fall", 9, 1);
        let input = Inputs {
            content_start: Some(10),
            content_first: Some(10),
            ..inputs("U.S. markets rally as rates fall | Example Times", &[], &s)
        };
        let mut m = Matcher::new(&input);
        // Nothing matched yet: anything may win.
        assert!(m.may_win(30, 0));
        assert!(m.consider(&h1));
        // Cosine 1 + 0.3 + 0.1: a plain block (at most 1.0 + 0.1) or an
        // h2 (1.08 + 0.1) cannot beat it; another h1 as near still may
        // (the bound errs towards looking, by the cosine's rounding slack).
        assert!(!m.may_win(8, 0));
        assert!(!m.may_win(12, 2));
        assert!(m.may_win(9, 1));
        // The same text in a plain block scores less and loses.
        assert!(!m.consider(&cand("U.S. markets rally as rates fall", 8, 0)));
    }

    #[test]
    fn the_site_part_is_longest_with_more_words_than_each_other_part() {
        let s = stop();
        let longest = |title: &str| {
            let mut m = Matcher::new(&inputs(title, &[], &s));
            // Asked twice: the answer kept is the one found.
            (m.site_longest(), m.site_longest())
        };
        assert_eq!(
            longest(
                "danah boyd | apophenia » Three conversations for parents: navigating networked publics"
            ),
            (true, true)
        );
        assert_eq!(
            longest("Harbor lamps relit after storm - Harbor Times Daily Blog"),
            (false, false)
        );
        assert_eq!(longest("Harbor | Lamps relit"), (true, true));
        assert_eq!(longest("Harbor Times | Lamps"), (false, false));
        assert_eq!(longest("Harbor Times"), (false, false));
    }

    #[test]
    fn a_block_repeating_the_titles_last_part_gets_no_bonus() {
        let s = stop();
        // The logo's `<h1>` repeats the site's name; the story's headline
        // is an `<h3>` just before the content. With the `<h1>`'s bonus
        // the logo would win (0.71 + 0.3 against 0.79 + 0.04 + 0.1).
        let candidates = [
            cand("Harbor Times Daily Blog", 2, 1),
            cand("Harbor lamps relit after storm", 8, 3),
        ];
        let input = Inputs {
            content_start: Some(10),
            content_first: Some(10),
            ..inputs(
                "Harbor lamps relit after storm - Harbor Times Daily Blog",
                &candidates,
                &s,
            )
        };
        let found = best_match(&input).map(|h| h.text);
        assert_eq!(found.as_deref(), Some("Harbor lamps relit after storm"));
    }

    #[test]
    fn a_label_above_the_headline_in_one_block_gives_way_to_it() {
        let s = stop();
        let candidates = [cand(
            "More Local news\nLamps relit along the harbor after the storm",
            9,
            0,
        )];
        let input = Inputs {
            content_start: Some(10),
            content_first: Some(10),
            ..inputs(
                "Lamps relit along the harbor after the storm -- Harbor Times",
                &candidates,
                &s,
            )
        };
        let found = best_match(&input).map(|h| normalize(&h.text));
        assert_eq!(
            found.as_deref(),
            Some("Lamps relit along the harbor after the storm")
        );
    }

    #[test]
    fn an_equal_score_goes_to_the_earlier_block_whatever_the_order_considered() {
        let s = stop();
        let input = Inputs {
            content_start: Some(40),
            content_first: Some(40),
            ..inputs("Storm hits the coast | Example Times", &[], &s)
        };
        // The extractor looks at the strongest lines first, not in page
        // order; the same heading on two lines, both far from the content,
        // scores the same, and the earlier one must still be the pick.
        let mut m = Matcher::new(&input);
        assert!(m.consider(&cand("Storm hits the coast", 12, 1)));
        assert!(m.consider(&cand("Storm hits the coast", 5, 1)));
        assert!(!m.consider(&cand("Storm hits the coast", 9, 1)));
        let mut m = Matcher::new(&input);
        assert!(m.consider(&cand("Storm hits the coast", 5, 1)));
        assert!(!m.consider(&cand("Storm hits the coast", 12, 1)));
    }

    #[test]
    fn query_terms_are_the_title_and_og_title_terms_once_each() {
        let s = stop();
        let terms = |title: &str, og: &str| {
            let input = Inputs {
                og_title: og,
                ..inputs(title, &[], &s)
            };
            let mut t: Vec<String> = Matcher::new(&input)
                .query_terms()
                .map(str::to_string)
                .collect();
            t.sort();
            t
        };
        assert_eq!(
            terms(
                "Storm hits the Maine coast | News",
                "Storm hits Maine &amp; Vermont"
            ),
            ["coast", "hits", "maine", "news", "storm", "vermont"]
        );
        assert_eq!(
            terms("Storm &amp; rain", "Storm &amp; rain"),
            ["rain", "storm"]
        );
        assert_eq!(terms("", "Maine"), ["maine"]);
        assert!(terms("The", "").is_empty());
    }

    #[test]
    fn a_weak_match_leaves_room_for_better_blocks() {
        let s = stop();
        let input = inputs("Markets rally as rates fall", &[], &s);
        let mut m = Matcher::new(&input);
        // Shares two of four terms: cosine 0.5, a heading of level 3.
        assert!(m.consider(&cand("Markets rally today here", 3, 3)));
        assert!(m.may_win(4, 0));
        assert!(m.may_win(5, 1));
    }

    #[test]
    fn the_titles_headline_part_outweighs_a_block_repeating_the_site_name() {
        let s = stop();
        // Against the whole title the site's name (twice in it) agrees
        // more than the story's heading does.
        let c = [
            cand("Harbor Times", 3, 2),
            cand("Keepers vote to light the lamps tonight", 8, 3),
        ];
        let title = "Harbor Times - Keepers vote to light the lamps tonight - \
                     Harbor Times News, Weather and Sports";
        let h = best_match(&inputs(title, &c, &s)).unwrap();
        assert_eq!(h.line, Some(8));
        // A title part of five words or fewer may be the site's own name.
        assert_eq!(
            headline_part(&title_parts(
                "Harbor Times - Coast News, Weather and Sports"
            )),
            None
        );
        assert_eq!(
            headline_part(&title_parts(
                "Harbor Times | Keepers vote to light the lamps"
            )),
            Some("Keepers vote to light the lamps")
        );
        assert_eq!(
            headline_part(&title_parts("Keepers vote to light the lamps")),
            None
        );
    }

    #[test]
    fn a_byline_is_no_headline() {
        let s = stop();
        // The byline repeats the title's site name and date; the heading
        // shares only its own three words with the title.
        let c = [
            cand("Lamps lit again", 5, 2),
            cand("By Ann Reed -- Harbor Times Coast Edition, 1/21/2008", 7, 3),
        ];
        let title = "Lamps lit again - 1/21/2008 - Harbor Times Coast Edition";
        assert_eq!(best_match(&inputs(title, &c, &s)).unwrap().line, Some(5));
        assert!(!looks_like_headline("By Ann Reed, coast reporter"));
        assert!(!looks_like_headline("BY ANN REED"));
        assert!(looks_like_headline("Bypass opens to traffic today"));
    }

    #[test]
    fn a_plain_block_far_past_the_content_start_is_no_headline() {
        let s = stop();
        let input = Inputs {
            content_start: Some(10),
            content_first: Some(10),
            ..inputs("Harbor Times", &[], &s)
        };
        let footer = "Copyright 2008 Harbor Times, all rights reserved";
        // A footer naming the site, 16 lines past the content start.
        assert!(!Matcher::new(&input).consider(&cand(footer, 26, 0)));
        // Closer, it may still be the headline; so may a heading.
        assert!(Matcher::new(&input).consider(&cand(footer, 25, 0)));
        assert!(Matcher::new(&input).consider(&cand("About Harbor Times", 26, 5)));
    }

    #[test]
    fn a_reply_marker_is_left_out() {
        assert_eq!(
            normalize("Re: Turning off the lamps"),
            "Turning off the lamps"
        );
        assert_eq!(
            normalize("RE:  Turning off the lamps"),
            "Turning off the lamps"
        );
        assert_eq!(normalize("Re:Zero returns"), "Re:Zero returns");
        assert_eq!(normalize("Red lamps"), "Red lamps");
        assert_eq!(
            normalize("Thread: Which lamp oil lasts longest?"),
            "Which lamp oil lasts longest?"
        );
        assert_eq!(normalize("Threads of the tide"), "Threads of the tide");
    }

    /// The site's and the section's names a logo repeats from the title
    /// go; one short kicker before a bar stays.
    #[test]
    fn site_and_section_names_before_bars_are_left_out() {
        assert_eq!(
            normalize("Harbor Times | harbortimes.com | Keepers vote to light the lamps"),
            "Keepers vote to light the lamps"
        );
        for kept in [
            "Ferries | The best boats on the coast",
            "Harbor Times | Coast News Today | Lamps lit",
            "The Harbor Times Online | Coast | Keepers vote to light the lamps",
        ] {
            assert_eq!(normalize(kept), kept);
        }
    }

    /// A date on the headline's line before it goes, unless too little
    /// follows to be a headline.
    #[test]
    fn a_date_before_the_headline_is_left_out() {
        for dated in [
            "Dec 18 2025 Keepers vote to light the lamps",
            "Wednesday, 09 January 2008 Keepers vote to light the lamps",
            "January 9, 2008 Keepers vote to light the lamps",
            "Thurs. 10 Jan 2008 Keepers vote to light the lamps",
            "Sept 9 2008 Keepers vote to light the lamps",
        ] {
            assert_eq!(normalize(dated), "Keepers vote to light the lamps");
        }
        for kept in [
            "Dec 18 2025 lamps lit",
            "18 keepers vote 2008 to light the lamps",
            "May 18 keepers vote to light the lamps",
            // Words that only start like a weekday or a month.
            "Wedding 18 May 2008 photos from the lamp room",
            "Monsoon 12 June 2008 floods close the harbor road",
        ] {
            assert_eq!(normalize(kept), kept);
        }
    }

    /// A link aggregator's "(site.com)" after a story goes; other
    /// parentheses stay.
    #[test]
    fn a_linked_site_after_a_story_is_left_out() {
        assert_eq!(
            normalize("Grads find degrees no longer guarantee jobs (latimes.com)"),
            "Grads find degrees no longer guarantee jobs"
        );
        assert_eq!(
            normalize("Porting a parser (github.com/someone)"),
            "Porting a parser"
        );
        for kept in [
            "Best movers in New York (2025)",
            "Notes on merging (Part 2)",
            "Version 1.2 (v1.2)",
            "Why 3.14 (pi.2)",
            "(example.com)",
        ] {
            assert_eq!(normalize(kept), kept);
        }
    }

    /// The headline keeps the page's quotes and primes; comparing folds
    /// the single ones (and case) only.
    #[test]
    fn a_headline_keeps_its_typographic_quotes_and_comparing_folds_them() {
        let set = "The keeper\u{2019}s \u{2018}last\u{2019} \u{201C}light\u{201D} 16\u{2033}";
        assert_eq!(normalize(set), set);
        assert_eq!(normalize("\u{201E}Licht\u{201C}"), "\u{201E}Licht\u{201C}");
        assert_eq!(
            compare_form(set),
            "the keeper's 'last' \u{201C}light\u{201D} 16\u{2033}"
        );
        assert_eq!(compare_form("The Keeper's Log"), "the keeper's log");
    }

    #[test]
    fn a_breadcrumb_trail_is_left_out() {
        assert_eq!(
            normalize("Home > News > Coast > Keepers vote to light the lamps"),
            "Keepers vote to light the lamps"
        );
        assert_eq!(normalize("Tides > \n"), "Tides >");
        assert_eq!(normalize("Tides >Lamps"), "Tides >Lamps");
    }

    #[test]
    fn a_short_suffix_after_a_bar_is_left_out() {
        assert_eq!(normalize("How tides turn | Opinion"), "How tides turn");
        assert_eq!(
            normalize("Best ferries in 2025 | Top 9 Lines Compared Here\nby A. Keeper"),
            "Best ferries in 2025"
        );
        // Six words after the bar are part of the headline; so is a
        // leading bar, or one without spaces.
        assert_eq!(
            normalize("Ferries | The best boats on the coast"),
            "Ferries | The best boats on the coast"
        );
        assert_eq!(normalize("| Opinion"), "| Opinion");
        assert_eq!(normalize("Either|Or"), "Either|Or");
    }

    #[test]
    fn a_block_is_scored_by_its_first_line() {
        let s = stop();
        // The headline's line carries the date after a break; the section
        // label above it agrees with the title's breadcrumb part.
        let c = [
            cand("Coast News", 3, 1),
            cand("Storm hits the coast\nSun, 13 Jan 2008 10:15 a.m.", 6, 1),
        ];
        let input = inputs("Site > Coast News > Storm hits the coast", &c, &s);
        let h = best_match(&input).unwrap();
        assert_eq!(h.line, Some(6));
        assert_eq!(normalize(&h.text), "Storm hits the coast");
    }

    #[test]
    fn og_title_names_the_page_where_no_h1_repeats_it() {
        let s = stop();
        let og = |og_title: &'static str, text: &str, heading: u8| {
            let input = Inputs {
                og_title,
                ..inputs("Harbor Lights on Steam", &[], &s)
            };
            let found = Headline {
                text: text.to_string(),
                line: Some(4),
            };
            og_title_instead(&found, heading, &input).map(|h| (h.text, h.line))
        };
        // A call to action agreeing with the title in part gives way,
        // and the headline has no line of its own.
        assert_eq!(
            og("Harbor Lights on Steam", "Buy Harbor Lights", 2),
            Some(("Harbor Lights on Steam".to_string(), None))
        );
        assert_eq!(
            og("Harbor &amp; Lights", "Play now", 0),
            Some(("Harbor & Lights".to_string(), None))
        );
        // An <h1> is the page's own choice.
        assert_eq!(og("Harbor Lights on Steam", "Buy Harbor Lights", 1), None);
        // A block repeating og:title stays (it may differ in case or
        // punctuation from og:title).
        assert_eq!(
            og("Harbor Lights on Steam", "HARBOR LIGHTS ON STEAM!", 0),
            None
        );
        // A site name set apart: og:title is no headline by itself.
        assert_eq!(og("Harbor Lights | Steam", "Buy Harbor Lights", 0), None);
        assert_eq!(og("Harbor Lights – Steam", "Buy Harbor Lights", 0), None);
        // ... but a colon may sit inside a headline.
        assert!(og("Harbor Lights: the game", "Buy Harbor Lights", 0).is_some());
        assert_eq!(og("", "Buy Harbor Lights", 0), None);
    }

    #[test]
    fn auto_falls_back_to_the_title_without_the_site_name() {
        let s = stop();
        let input = inputs(
            "Small Business Loans Explained | Small Business Administration",
            &[],
            &s,
        );
        assert_eq!(
            find(HeadlineMethod::Auto, &input).unwrap().text,
            "Small Business Loans Explained"
        );
        let input = Inputs {
            og_title: "Loans &amp; Grants",
            ..input
        };
        assert_eq!(
            find(HeadlineMethod::Auto, &input).unwrap().text,
            "Loans & Grants"
        );
    }
}
