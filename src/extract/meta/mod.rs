//! Page metadata: publication and modification dates, authors, site name,
//! description, canonical URL, image, keywords and categories. Read from
//! the spots the scanner marks as it passes (`<meta>` and `<link>` tags,
//! JSON-LD scripts) and from the markup around the headline (bylines,
//! `<time>`, date lines), never from the whole page again.
//!
//! Each field takes the value of its most reliable source found: a
//! page's own metadata first, then the byline it shows.

mod author;
pub mod date;
mod jsonld;
pub(crate) mod tag;

use serde::{Deserialize, Serialize};
use tag::StartTag;

/// Spans of the page the scanner marked for metadata: byte ranges of the
/// decoded source.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Marks {
    /// `<meta …>`, `<link …>` and `<time …>` start tags.
    pub tags: Vec<(u32, u32)>,
    /// The text of `<script type="application/ld+json">` elements.
    pub scripts: Vec<(u32, u32)>,
}

/// Tags and scripts marked at most: a page's head holds a few dozen.
const MAX_TAGS: usize = 1024;
const MAX_SCRIPTS: usize = 64;
/// The markup around the headline looked at, at most.
const MAX_WINDOW: usize = 64 * 1024;
/// The start of that markup read for a byline line in its text alone.
const BYLINE_WINDOW: usize = 16 * 1024;
/// Keywords and categories kept, at most.
const MAX_WORDS: usize = 32;

impl Marks {
    /// Marks a start tag (`start..end` is `<` to one past `>`).
    pub(crate) fn tag(&mut self, start: usize, end: usize) {
        if self.tags.len() < MAX_TAGS {
            self.tags.push((start as u32, end as u32));
        }
    }

    /// Marks the text of a JSON-LD script.
    pub(crate) fn script(&mut self, start: usize, end: usize) {
        if self.scripts.len() < MAX_SCRIPTS && start <= end {
            self.scripts.push((start as u32, end as u32));
        }
    }
}

/// What a page says about itself.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Metadata {
    /// The author or authors, as a byline lists them (`A, B and C`).
    #[serde(default)]
    pub author: Option<String>,
    /// Publication date, ISO 8601: `YYYY-MM-DD`, with the time and its
    /// offset when the page gives them (`2024-05-17T10:00:00+02:00`).
    #[serde(default)]
    pub published: Option<String>,
    /// Last modification date, ISO 8601 as `published`.
    #[serde(default)]
    pub modified: Option<String>,
    #[serde(default)]
    pub site_name: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    /// `<link rel="canonical">`, else `og:url`; resolved against the
    /// page's base (its `<base href>`, else its URL) when relative.
    #[serde(default)]
    pub canonical: Option<String>,
    /// `og:image`, else `twitter:image`; resolved as `canonical` is.
    #[serde(default)]
    pub image: Option<String>,
    /// Keywords and tags (meta keywords, `article:tag`, JSON-LD keywords).
    #[serde(default)]
    pub keywords: Vec<String>,
    /// Sections and categories (`article:section`, JSON-LD
    /// `articleSection`).
    #[serde(default)]
    pub categories: Vec<String>,
}

/// Where on a page bylines and dates are looked for, as byte ranges of
/// its source.
#[derive(Debug, Clone, Copy, Default)]
pub struct Windows {
    /// Around the headline and the content's start.
    pub head: (usize, usize),
    /// Around the content's end, where a page that dates nothing above its
    /// article may show its date ("Posted on April 13, 2023" under it).
    pub tail: (usize, usize),
}

/// Reads the metadata of a page: `src` its decoded source, `marks` what
/// the scanner marked, `windows` where bylines and dates are looked for,
/// `url` the page's address and `base` what its relative URLs resolve
/// against, when known.
pub fn collect(
    src: &str,
    marks: &Marks,
    windows: Windows,
    url: Option<&str>,
    base: Option<&url::Url>,
) -> Metadata {
    let mut c = Collector::default();
    for &(start, end) in &marks.tags {
        let (start, end) = (start as usize, end as usize);
        match src.get(start..end).and_then(StartTag::at) {
            Some(tag) if tag.is("time") => c.time(src, start, tag),
            Some(tag) => c.tag(tag),
            None => {}
        }
    }
    for &(start, end) in &marks.scripts {
        if let Some(script) = src.get(start as usize..end as usize) {
            c.script(script);
        }
    }
    if c.wants_window()
        && let Some(w) = window(src, windows.head)
    {
        c.window(w);
    }
    let tail = || window(src, windows.tail).and_then(dated_element);
    c.finish(url, base, tail)
}

/// The source in `range`, at most [`MAX_WINDOW`] bytes of it.
fn window(src: &str, (start, end): (usize, usize)) -> Option<&str> {
    let end = floor_boundary(src, end.min(start.saturating_add(MAX_WINDOW)));
    src.get(start..end)
}

/// The date of the first element in `w` that names one: a `<time>`, or an
/// element whose class says date, time, publish or posted. Not a date in
/// running text: below an article, that is a comment's as often as not.
fn dated_element(w: &str) -> Option<String> {
    // No byline is wanted here: an author's Pick already taken.
    let mut c = Collector {
        author: Pick {
            value: None,
            rank: 0,
        },
        ..Collector::default()
    };
    c.window_tags(w);
    c.published.value
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// A field's best value so far and its source's rank (lower is better;
/// the first of equal rank stays).
#[derive(Debug)]
struct Pick {
    value: Option<String>,
    rank: u8,
}

impl Default for Pick {
    fn default() -> Self {
        Pick {
            value: None,
            rank: u8::MAX,
        }
    }
}

impl Pick {
    /// Is a value of this rank still wanted?
    fn wants(&self, rank: u8) -> bool {
        rank < self.rank
    }

    fn offer(&mut self, rank: u8, value: Option<String>) {
        if let Some(v) = value.filter(|v| !v.is_empty())
            && rank < self.rank
        {
            self.value = Some(v);
            self.rank = rank;
        }
    }
}

#[derive(Debug, Default)]
struct Collector {
    author: Pick,
    published: Pick,
    modified: Pick,
    site_name: Pick,
    description: Pick,
    canonical: Pick,
    image: Pick,
    keywords: Vec<String>,
    categories: Vec<String>,
    /// A class or id value lowercased (reused from tag to tag).
    lower: String,
    /// The day (`YYYY-MM-DD`) of the first date by the headline in an
    /// element marked as the page's update (see [`ClassWords::update`]).
    updated: Option<String>,
    /// The `twitter:labelN` whose `twitter:dataN` names the author, by N
    /// (see [`names_the_writer`]).
    writer_label: Option<String>,
    /// The author meta name that gave the author, and the names its tags
    /// gave: a name repeated (`citation_author`, `dc.creator`) lists the
    /// authors one to a tag.
    author_meta: Option<(String, Vec<String>)>,
}

/// Meta names of the publication date: the page's own article metadata
/// (rank 1) and looser names (rank 2). The ranks of every source of the
/// publication date, best first: these two; a `<time>` marked as the
/// publication date (3); a date in the URL (4); the first `<time>` by the
/// headline (5); the text of an element by the headline whose class
/// names a date (6); any date in the text by the headline (7); JSON-LD
/// of an article (8), of anything else (9); a date by the headline that
/// the markup marks as the update ([`UPDATE_RANK`]); the page's first
/// `<time>` (10); JSON-LD's `dateCreated` (11, 12); `uploadDate` (12);
/// the modification date. JSON-LD comes after the dates the page shows:
/// it often holds a CMS's first draft, where the page shows its date of
/// publication or its last update.
const PUBLISHED_META: &[(&str, u8)] = &[
    ("article:published_time", 1),
    ("og:published_time", 1),
    ("og:article:published_time", 1),
    ("article:published", 1),
    ("datepublished", 1),
    ("parsely-pub-date", 1),
    ("sailthru.date", 1),
    ("citation_publication_date", 1),
    ("dc.date.issued", 1),
    ("dcterms.issued", 1),
    ("date", 2),
    ("dc.date", 2),
    ("dcterms.date", 2),
    ("dcterms.created", 2),
    ("dc.date.created", 2),
    ("pubdate", 2),
    ("publishdate", 2),
    ("publish-date", 2),
    ("publish_date", 2),
    ("publication_date", 2),
    ("citation_date", 2),
    ("datecreated", 2),
    ("release_date", 2),
    ("article.published", 2),
    ("original-publish-date", 2),
    ("article_date_original", 2),
    ("displaydate", 2),
    ("pdate", 2),
    ("cxenseparse:recs:publishtime", 2),
    ("published", 2),
    ("published-date", 2),
    ("published_date", 2),
    ("article:published_date", 2),
    ("ms.date", 2),
    ("uploaddate", 12),
];

/// The rank of a date by the headline in an element marked as the page's
/// update (`itemprop="dateModified"`, a class with `modified`), and of
/// the text's first date there when it is that date: after JSON-LD's
/// publication date, which such a page gives as often as not.
const UPDATE_RANK: u8 = 9;

/// A meta name a site made its own from a common one (`w-published-date`,
/// `article-publish-date`): one that ends in a name of the publication
/// date, ranked with the looser names.
fn names_publication_date(key: &str) -> bool {
    [
        "published-date",
        "published_date",
        "publish-date",
        "publish_date",
        "publishdate",
    ]
    .iter()
    .any(|end| key.len() > end.len() && key.ends_with(end))
}

const MODIFIED_META: &[&str] = &[
    "article:modified_time",
    "og:updated_time",
    "datemodified",
    "dcterms.modified",
    "dc.date.modified",
    "last-modified",
    "lastmod",
    "article.updated",
    "modified-date",
    "modified_date",
];

/// Meta names of the author (rank) and whether the value is a list.
const AUTHOR_META: &[(&str, u8)] = &[
    ("author", 1),
    ("parsely-author", 1),
    ("sailthru.author", 1),
    ("dc.creator", 1),
    ("dcterms.creator", 1),
    ("byl", 1),
    ("citation_author", 1),
    ("article:author", 3),
    ("og:article:author", 3),
    ("book:author", 3),
];

/// Is a JSON-LD type one of an article, post or other creative work a
/// page is about (its dates and authors are the page's)?
fn is_article_type(kind: &str) -> bool {
    [
        "Article", "Posting", "Report", "Review", "Recipe", "HowTo", "Blog", "Question", "Podcast",
        "Video",
    ]
    .iter()
    .any(|t| kind.contains(t))
}

impl Collector {
    fn tag(&mut self, tag: StartTag) {
        if tag.is("link") {
            let canonical = tag.get("rel").is_some_and(|r| {
                r.split_ascii_whitespace()
                    .any(|w| w.eq_ignore_ascii_case("canonical"))
            });
            if canonical {
                let href = tag.get("href").map(|h| tag::decoded(h).into_owned());
                self.canonical.offer(1, href.filter(|h| is_url_like(h)));
            }
            return;
        }
        let Some(key) = tag
            .get("property")
            .or_else(|| tag.get("name"))
            .or_else(|| tag.get("itemprop"))
        else {
            return;
        };
        let Some(content) = tag.get("content").or_else(|| tag.get("datetime")) else {
            return;
        };
        let key = tag::decoded(key).to_ascii_lowercase();
        let content = tag::decoded(content);
        self.meta(&key, &content);
    }

    fn meta(&mut self, key: &str, content: &str) {
        let published = PUBLISHED_META
            .iter()
            .find(|(k, _)| *k == key)
            .map(|&(_, rank)| rank)
            .or_else(|| names_publication_date(key).then_some(2));
        if let Some(rank) = published {
            if self.published.wants(rank) {
                self.published
                    .offer(rank, date::parse_any(content).map(date::Date::to_iso));
            }
            return;
        }
        if MODIFIED_META.contains(&key) {
            if self.modified.wants(1) {
                self.modified
                    .offer(1, date::parse_any(content).map(date::Date::to_iso));
            }
            return;
        }
        // Twitter's card labels and values in pairs, which WordPress's SEO
        // plugins fill with the post's author: `twitter:label1` "Written
        // by", `twitter:data1` the name.
        if let Some(n) = key.strip_prefix("twitter:label") {
            if names_the_writer(content) {
                self.writer_label = Some(n.to_string());
            }
            return;
        }
        if let Some(n) = key.strip_prefix("twitter:data") {
            if self.writer_label.as_deref() == Some(n) && self.author.wants(3) {
                self.author.offer(3, author::clean(content));
            }
            return;
        }
        if let Some(&(_, rank)) = AUTHOR_META.iter().find(|(k, _)| *k == key) {
            if author::is_link(content) {
                return;
            }
            if let Some((k, names)) = &mut self.author_meta
                && k == key
                && self.author.rank == rank
            {
                if let Some(name) = author::clean(content)
                    && !names.contains(&name)
                {
                    names.push(name);
                    self.author.value = Some(author::join(names));
                }
            } else if self.author.wants(rank)
                && let Some(name) = author::clean(content)
            {
                self.author.offer(rank, Some(name.clone()));
                self.author_meta = Some((key.to_string(), vec![name]));
            }
            return;
        }
        match key {
            "og:site_name" => self.site_name.offer(1, Some(content.to_string())),
            "application-name" => self.site_name.offer(3, Some(content.to_string())),
            "description" => self.description.offer(1, Some(content.to_string())),
            "og:description" => self.description.offer(2, Some(content.to_string())),
            "twitter:description" => self.description.offer(3, Some(content.to_string())),
            "og:url" => self
                .canonical
                .offer(2, Some(content.to_string()).filter(|u| is_url_like(u))),
            "og:image" | "og:image:url" => self.image.offer(1, Some(content.to_string())),
            "og:image:secure_url" => self.image.offer(2, Some(content.to_string())),
            "twitter:image" | "twitter:image:src" => self.image.offer(3, Some(content.to_string())),
            "keywords" | "news_keywords" | "parsely-tags" => {
                add_words(&mut self.keywords, content.split([',', ';']));
            }
            "article:tag" => add_words(&mut self.keywords, [content]),
            "article:section" | "parsely-section" | "category" => {
                add_words(&mut self.categories, [content]);
            }
            _ => {}
        }
    }

    /// A `<time>` anywhere on the page: one marked as the publication
    /// date (`pubdate`, `itemprop="datePublished"`, a class naming it),
    /// else the page's first.
    fn time(&mut self, src: &str, start: usize, tag: StartTag) {
        let published = tag.attributes().any(|(n, v)| {
            n.eq_ignore_ascii_case("pubdate")
                || (n.eq_ignore_ascii_case("itemprop") && v.eq_ignore_ascii_case("datePublished"))
                || (n.eq_ignore_ascii_case("class") && v.to_ascii_lowercase().contains("publish"))
        });
        let rank = if published { 3 } else { 10 };
        if !self.published.wants(rank) {
            return;
        }
        let date = match tag.get("datetime") {
            Some(dt) => date::parse_any(dt),
            None => {
                let after = start + tag.src.len();
                let end = tag::element_end(src, "time", after).unwrap_or(after);
                let end = floor_boundary(src, end.min(after + 512));
                date::find_in_text(&super::text::render_fragment(&src[start..end]))
            }
        };
        self.published.offer(rank, date.map(date::Date::to_iso));
    }

    fn script(&mut self, text: &str) {
        let nodes = jsonld::parse(text);
        if nodes.is_empty() {
            if let Some(d) = jsonld::string_field(text, "datePublished") {
                self.published
                    .offer(9, date::parse_any(d).map(date::Date::to_iso));
            }
            return;
        }
        let ids = jsonld::Ids::of(&nodes);
        for node in &nodes {
            self.node(node, 0, &ids);
        }
    }

    /// One JSON-LD node and the nodes inside it; `ids` names the persons
    /// the script refers to by `@id`.
    fn node(&mut self, node: &jsonld::Node, depth: usize, ids: &jsonld::Ids) {
        if depth > jsonld::MAX_DEPTH {
            return;
        }
        let article = node.kind.0.iter().any(|k| is_article_type(k));
        let rank = if article { 8 } else { 9 };
        if let Some(d) = node.published.get() {
            self.published
                .offer(rank, date::parse_any(d).map(date::Date::to_iso));
        }
        if let Some(d) = node.created.get() {
            self.published
                .offer(rank + 3, date::parse_any(d).map(date::Date::to_iso));
        }
        if let Some(d) = node.modified.get() {
            self.modified
                .offer(rank - 6, date::parse_any(d).map(date::Date::to_iso));
        }
        let names: Vec<String> = node
            .author
            .0
            .iter()
            .filter_map(|n| ids.name(n))
            .map(tag::decoded)
            .filter(|n| !author::is_link(n))
            .filter_map(|n| author::clean(&n))
            .collect();
        if !names.is_empty() {
            self.author
                .offer(if article { 2 } else { 5 }, Some(author::join(&names)));
        }
        if article {
            if let Some(p) = node.publisher.0.iter().find_map(jsonld::Name::text) {
                self.site_name.offer(2, Some(tag::decoded(p).into_owned()));
            }
            add_words(
                &mut self.categories,
                node.section.0.iter().map(|s| s.as_ref()),
            );
            for k in &node.keywords.0 {
                add_words(&mut self.keywords, k.split(','));
            }
        }
        if node.kind.0.iter().any(|k| k == "WebSite")
            && let Some(name) = node.name.get()
        {
            self.site_name
                .offer(3, Some(tag::decoded(name).into_owned()));
        }
        for child in node.graph.0.iter().chain(&node.main_entity.0) {
            self.node(child, depth + 1, ids);
        }
    }

    /// Can the markup around the headline still give a better author or
    /// publication date? At best it gives an author of rank 4 and a date
    /// of rank 3: where the page's own metadata gave both as good or
    /// better, the markup is not read.
    fn wants_window(&self) -> bool {
        self.author.wants(4) || self.published.wants(3)
    }

    /// The markup around the headline: bylines, `<time>` elements,
    /// elements whose class names a date, and at last any date and any
    /// byline line ("By Ann Lee") in its text, rendered once for both.
    fn window(&mut self, w: &str) {
        self.window_tags(w);
        let byline = self.author.wants(6);
        if self.published.wants(7) {
            let text = super::text::render_fragment(w);
            let date = date::find_in_text(&text).map(date::Date::to_iso);
            // The text's first date may be the one an element marks as the
            // update: that ranks as the element did.
            let update = self.updated.is_some()
                && date.as_deref().and_then(|d| d.get(..10)) == self.updated.as_deref();
            self.published
                .offer(if update { UPDATE_RANK } else { 7 }, date);
            if byline {
                self.author.offer(6, author::from_text(&text));
            }
        } else if byline {
            // A byline line sits by the headline: where no date is wanted,
            // only the window's start is rendered.
            let head = &w[..floor_boundary(w, BYLINE_WINDOW)];
            let text = super::text::render_fragment(head);
            self.author.offer(6, author::from_text(&text));
        }
    }

    /// Bylines, `<time>` elements and elements whose class names a date,
    /// tag by tag.
    fn window_tags(&mut self, w: &str) {
        let b = w.as_bytes();
        let mut at = 0;
        while self.wants_window()
            && let Some(i) = memchr::memchr(b'<', &b[at..])
        {
            let lt = at + i;
            if b[lt..].starts_with(b"<!--") {
                at = memchr::memmem::find(&b[lt..], b"-->").map_or(b.len(), |j| lt + j + 3);
                continue;
            }
            let Some(tag) = StartTag::at(&w[lt..]) else {
                at = lt + 1;
                continue;
            };
            let after = lt + tag.src.len();
            at = after;
            if tag.is("script") || tag.is("style") {
                at = tag::element_end(w, tag.name, after).unwrap_or(b.len());
                continue;
            }
            self.window_tag(w, lt, tag, after);
        }
    }

    fn window_tag(&mut self, w: &str, lt: usize, tag: StartTag, after: usize) {
        let mut byline = false;
        let mut dated = false;
        let mut published = false;
        let mut update = false;
        let mut datetime = None;
        for (name, value) in tag.attributes() {
            if name.eq_ignore_ascii_case("class") || name.eq_ignore_ascii_case("id") {
                let mut v = std::mem::take(&mut self.lower);
                v.clear();
                v.push_str(value);
                v.make_ascii_lowercase();
                let words = ClassWords::of(v.as_bytes());
                byline |= words.byline && names_byline(&v);
                dated |= words.date;
                published |= words.publish;
                update |= words.update;
                self.lower = v;
            } else if name.eq_ignore_ascii_case("rel") {
                byline |= value.eq_ignore_ascii_case("author");
            } else if name.eq_ignore_ascii_case("itemprop") {
                byline |=
                    value.eq_ignore_ascii_case("author") || value.eq_ignore_ascii_case("creator");
                published |= value.eq_ignore_ascii_case("datePublished");
                update |= value.eq_ignore_ascii_case("dateModified");
                dated |= published || update;
            } else if name.eq_ignore_ascii_case("datetime") {
                datetime = Some(value);
            } else if name.eq_ignore_ascii_case("pubdate") {
                published = true;
            } else if name.eq_ignore_ascii_case("content") && tag.get("itemprop").is_some() {
                datetime = datetime.or(Some(value));
            }
        }
        // An element marked both (`entry-date published updated`) dates
        // the publication.
        let update = update && !published;
        if let Some(dt) = datetime
            && (tag.is("time") || published)
        {
            let rank = match (published, update) {
                (true, _) => 3,
                (false, true) => UPDATE_RANK,
                (false, false) => 5,
            };
            if self.published.wants(rank) || self.wants_update(update) {
                let date = date::parse_any(dt).map(date::Date::to_iso);
                self.note_update(update, date.as_deref());
                self.published.offer(rank, date);
            }
        }
        let rank = if update { UPDATE_RANK } else { 6 };
        let wants_date =
            (tag.is("time") || dated) && (self.published.wants(rank) || self.wants_update(update));
        let wants_author = byline && self.author.wants(4);
        if !wants_date && !wants_author {
            return;
        }
        let end = tag::element_end(w, tag.name, after).unwrap_or(w.len().min(after + 2048));
        let end = floor_boundary(w, end.min(after + 4096));
        let text = super::text::render_fragment(&w[lt..end]);
        if wants_author {
            let name = text.lines().find_map(author::clean);
            self.author.offer(4, name);
        }
        if wants_date {
            let date = date::find_in_text(&text).map(date::Date::to_iso);
            self.note_update(update, date.as_deref());
            self.published.offer(rank, date);
        }
    }

    /// Is an update's element to be read, its date not wanted itself but
    /// to tell the text's date by the headline (rank 7) as the update's?
    fn wants_update(&self, update: bool) -> bool {
        update && self.updated.is_none() && self.published.wants(7)
    }

    /// Keeps the day of the first date an update's element gives.
    fn note_update(&mut self, update: bool, date: Option<&str>) {
        if update && self.updated.is_none() {
            self.updated = date.and_then(|d| d.get(..10)).map(String::from);
        }
    }

    /// The fields as found, with the fallbacks for the publication date:
    /// the modification date, a date in the URL, and `tail` (a date
    /// below the article) when nothing else gave one.
    fn finish(
        mut self,
        url: Option<&str>,
        base: Option<&url::Url>,
        tail: impl FnOnce() -> Option<String>,
    ) -> Metadata {
        resolve(&mut self.canonical.value, base);
        // A fragment names a spot on the page, not the page: cut, as
        // links cut theirs.
        if let Some(c) = &mut self.canonical.value
            && let Some(hash) = c.find('#')
        {
            c.truncate(hash);
        }
        resolve(&mut self.image.value, base);
        if self.published.value.is_none() {
            // A page that dates only its last change: that is the date it
            // shows.
            self.published.value = self.modified.value.clone();
        }
        if self.published.wants(4) {
            let from = |u: Option<&str>| u.and_then(date::in_url).map(date::Date::to_iso);
            self.published.offer(
                4,
                from(self.canonical.value.as_deref()).or_else(|| from(url)),
            );
        }
        if self.published.value.is_none() {
            self.published.value = tail();
        }
        Metadata {
            author: self.author.value,
            published: self.published.value,
            modified: self.modified.value,
            site_name: self.site_name.value,
            description: self.description.value,
            canonical: self.canonical.value,
            image: self.image.value,
            keywords: self.keywords,
            categories: self.categories,
        }
    }
}

/// A URL resolved against the page's base (`//cdn…/a.jpg`, `img/a.jpg`);
/// kept as written where there is no base or it does not resolve.
fn resolve(value: &mut Option<String>, base: Option<&url::Url>) {
    if let Some(v) = value
        && let Some(base) = base
        && let Ok(resolved) = base.join(v)
    {
        *v = resolved.into();
    }
}

/// Could this be a URL? One with whitespace inside is a page's title or
/// a template's placeholder put where its address belongs.
pub(super) fn is_url_like(v: &str) -> bool {
    !v.trim().contains(char::is_whitespace)
}

/// Is a card's label the one of its author ("Written by", as WordPress's
/// SEO plugins write it in the site's language)?
fn names_the_writer(label: &str) -> bool {
    let label = label.trim().to_lowercase();
    [
        "written by",
        "author",
        "geschrieben von",
        "verfasst von",
        "escrito por",
        "écrit par",
        "scritto da",
        "geschreven door",
        "napisane przez",
        "autor",
    ]
    .contains(&label.as_str())
}

/// Does a class or id value that holds `author` or `byline` name a
/// byline, not a picture or a comment's author?
fn names_byline(v: &str) -> bool {
    ![
        "avatar", "img", "image", "photo", "pic", "thumb", "icon", "social", "comment", "bio",
        "desc",
    ]
    .iter()
    .any(|w| v.contains(w))
}

/// The words a lowercased class or id value holds that bylines and dates
/// are found by, in one pass over its bytes (values are read for every
/// tag near the headline).
#[derive(Debug, Default, PartialEq)]
struct ClassWords {
    /// `author` or `byline` (see [`names_byline`] for what cancels it).
    byline: bool,
    /// `date`, `time`, `publish` or `posted`.
    date: bool,
    /// `publish`.
    publish: bool,
    /// `modified`: the element dates the page's last change, not its
    /// publication. Not `updated`: hAtom asks for that class on the
    /// publication date, and themes put it there (`entry-date updated`).
    update: bool,
}

impl ClassWords {
    fn of(v: &[u8]) -> ClassWords {
        let mut w = ClassWords::default();
        for (i, &c) in v.iter().enumerate() {
            let rest = &v[i..];
            match c {
                b'a' => w.byline |= rest.starts_with(b"author"),
                b'b' => w.byline |= rest.starts_with(b"byline"),
                b'd' => w.date |= rest.starts_with(b"date"),
                b't' => w.date |= rest.starts_with(b"time"),
                b'p' if rest.starts_with(b"publish") => {
                    w.date = true;
                    w.publish = true;
                }
                b'p' => w.date |= rest.starts_with(b"posted"),
                b'm' => w.update |= rest.starts_with(b"modified"),
                _ => {}
            }
        }
        w
    }
}

/// Adds words, trimmed, once each whatever their case (the first
/// spelling kept: `bikes` then `Bikes` is `bikes`), to at most
/// `MAX_WORDS`.
fn add_words<'a>(list: &mut Vec<String>, words: impl IntoIterator<Item = &'a str>) {
    for w in words {
        let w = tag::decoded(w);
        let w = w.trim();
        if list.len() >= MAX_WORDS {
            return;
        }
        if !w.is_empty() && w.len() <= 100 && !list.iter().any(|k| same_lowercase(k, w)) {
            list.push(w.to_string());
        }
    }
}

/// Are two words the same once lowercased (Unicode's lowercase, char by
/// char, without allocating)?
fn same_lowercase(a: &str, b: &str) -> bool {
    a.chars()
        .flat_map(char::to_lowercase)
        .eq(b.chars().flat_map(char::to_lowercase))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_in_another_case_is_added_once_in_its_first_spelling() {
        let mut list = Vec::new();
        add_words(
            &mut list,
            [
                "bikes", "Über", "Bikes", "über", "ÜBER", "Straße", "STRASSE",
            ],
        );
        assert_eq!(list, ["bikes", "Über", "Straße", "STRASSE"]);
    }

    #[test]
    fn class_words_are_found_anywhere_in_the_value() {
        let w = ClassWords::of(b"entry-meta post-author published-date");
        assert_eq!(
            w,
            ClassWords {
                byline: true,
                date: true,
                publish: true,
                update: false,
            }
        );
        assert!(ClassWords::of(b"posted-on").date);
        assert!(ClassWords::of(b"dateline").date);
        assert_eq!(ClassWords::of(b"entry-content"), ClassWords::default());
        assert!(ClassWords::of(b"author-avatar").byline && !names_byline("author-avatar"));
        assert!(ClassWords::of(b"post-date-modified").update);
        assert!(!ClassWords::of(b"entry-date updated").update);
    }
}
