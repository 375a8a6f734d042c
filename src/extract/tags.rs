//! Tag names the scanner cares about, and what each one means for line
//! breaking, counting and boilerplate.
//!
//! Names arrive as ASCII-lowercased byte slices (the scanner folds case while
//! it reads them into a fixed buffer), so classification is one `match` on a
//! short slice: no hashing, no allocation. Unknown names are `Tag::Other`,
//! which is inline and counts like any markup.

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
    /// `h1` … `h6`; the number is the level.
    Heading(u8),
    /// Block-level containers that also take part in region growth
    /// (div, section, article, main, td, li, ...).
    Container,
    /// Block-level tags that start a new line but are not worth tracking as
    /// containers (p, hr, dt, ...).
    Block,
    /// `nav`, `footer`, `aside`: boilerplate by element name.
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
    /// Classifies an ASCII-lowercased tag name.
    pub fn classify(name: &[u8]) -> Tag {
        match name {
            b"a" => Tag::A,
            b"br" | b"wbr" => Tag::Br,
            b"title" => Tag::Title,
            b"meta" => Tag::Meta,
            b"html" => Tag::Html,
            b"body" => Tag::Body,
            b"pre" | b"listing" => Tag::Pre,
            b"h1" => Tag::Heading(1),
            b"h2" => Tag::Heading(2),
            b"h3" => Tag::Heading(3),
            b"h4" => Tag::Heading(4),
            b"h5" => Tag::Heading(5),
            b"h6" => Tag::Heading(6),
            b"div" | b"section" | b"article" | b"main" | b"td" | b"th" | b"li" | b"ul" | b"ol"
            | b"dl" | b"table" | b"tbody" | b"thead" | b"tfoot" | b"tr" | b"blockquote"
            | b"form" | b"fieldset" | b"figure" | b"center" | b"dd" | b"details" | b"dialog"
            | b"menu" | b"frameset" | b"frame" | b"hgroup" | b"address" | b"caption" => {
                Tag::Container
            }
            b"p" | b"hr" | b"dt" | b"figcaption" | b"legend" | b"summary" | b"option" | b"head"
            | b"colgroup" => Tag::Block,
            b"nav" | b"footer" | b"aside" => Tag::Landmark,
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

    /// Does an opening tag of this kind start a new logical line?
    pub fn breaks_line(self) -> bool {
        matches!(
            self,
            Tag::Container
                | Tag::Block
                | Tag::Landmark
                | Tag::Header
                | Tag::Heading(_)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_common_tags() {
        assert_eq!(Tag::classify(b"p"), Tag::Block);
        assert_eq!(Tag::classify(b"div"), Tag::Container);
        assert_eq!(Tag::classify(b"h2"), Tag::Heading(2));
        assert_eq!(Tag::classify(b"script"), Tag::RawText);
        assert_eq!(Tag::classify(b"nav"), Tag::Landmark);
        assert_eq!(Tag::classify(b"span"), Tag::Other);
        assert!(Tag::classify(b"li").breaks_line());
        assert!(!Tag::classify(b"a").breaks_line());
        assert!(!Tag::classify(b"img").is_tracked());
    }
}
