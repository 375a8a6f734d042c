//! One start tag's source read into its name and attributes, and the end
//! of a tag or an element found from its start. Works on the few tags
//! metadata looks at; the scanner does the page's own tokenizing.

use std::borrow::Cow;

/// A start tag: its lowercase name and its source (`<` to `>`).
#[derive(Debug, Clone, Copy)]
pub struct StartTag<'a> {
    pub name: &'a str,
    pub src: &'a str,
}

impl<'a> StartTag<'a> {
    /// The start tag at the beginning of `src` (which starts with `<` and
    /// a letter), if it closes within `src`.
    pub fn at(src: &'a str) -> Option<StartTag<'a>> {
        let b = src.as_bytes();
        (b.first() == Some(&b'<') && b.get(1).is_some_and(u8::is_ascii_alphabetic)).then_some(())?;
        let name_end = b[1..]
            .iter()
            .position(|c| c.is_ascii_whitespace() || matches!(c, b'/' | b'>'))
            .map_or(b.len(), |i| i + 1);
        let end = tag_end(b, name_end)?;
        Some(StartTag {
            name: &src[1..name_end],
            src: &src[..end],
        })
    }

    /// Is the tag named `name` (ASCII case ignored)?
    pub fn is(&self, name: &str) -> bool {
        self.name.eq_ignore_ascii_case(name)
    }

    /// The attributes, names as written, values as written (entities
    /// undecoded; see [`decoded`]).
    pub fn attributes(&self) -> Attributes<'a> {
        Attributes {
            src: self.src,
            at: 1 + self.name.len(),
        }
    }

    /// The value of the first attribute named `name` (ASCII case ignored).
    pub fn get(&self, name: &str) -> Option<&'a str> {
        self.attributes()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v)
    }
}

/// Where the tag whose attributes start at `from` ends (one past `>`),
/// quoted values skipped: a jump from quote to quote to `>`, not a byte
/// at a time.
pub fn tag_end(b: &[u8], mut from: usize) -> Option<usize> {
    loop {
        let i = from + memchr::memchr3(b'>', b'"', b'\'', b.get(from..)?)?;
        match b[i] {
            b'>' => return Some(i + 1),
            q => from = i + 2 + memchr::memchr(q, &b[i + 1..])?,
        }
    }
}

/// An attribute iterator over a tag's source.
#[derive(Debug, Clone)]
pub struct Attributes<'a> {
    src: &'a str,
    at: usize,
}

impl<'a> Iterator for Attributes<'a> {
    type Item = (&'a str, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        let b = self.src.as_bytes();
        let skip = |at: &mut usize| {
            while b
                .get(*at)
                .is_some_and(|c| c.is_ascii_whitespace() || *c == b'/')
            {
                *at += 1;
            }
        };
        skip(&mut self.at);
        let start = self.at;
        while b
            .get(self.at)
            .is_some_and(|c| !c.is_ascii_whitespace() && !matches!(c, b'=' | b'>' | b'/'))
        {
            self.at += 1;
        }
        if self.at == start {
            return None;
        }
        let name = &self.src[start..self.at];
        let mut at = self.at;
        while b.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        if b.get(at) != Some(&b'=') {
            return Some((name, ""));
        }
        at += 1;
        while b.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        let value = match b.get(at) {
            Some(&q @ (b'"' | b'\'')) => {
                let end = memchr::memchr(q, &b[at + 1..]).map_or(b.len(), |i| at + 1 + i);
                self.at = (end + 1).min(b.len());
                &self.src[at + 1..end]
            }
            _ => {
                let end = b[at..]
                    .iter()
                    .position(|c| c.is_ascii_whitespace() || *c == b'>')
                    .map_or(b.len(), |i| at + i);
                self.at = end;
                &self.src[at..end]
            }
        };
        Some((name, value))
    }
}

/// An attribute value with its character references decoded and its
/// whitespace collapsed.
pub fn decoded(value: &str) -> Cow<'_, str> {
    let value = value.trim();
    let decoded = match value.contains('&') {
        true => html_escape::decode_html_entities(value),
        false => Cow::Borrowed(value),
    };
    if decoded.contains(|c: char| c.is_whitespace() && c != ' ') || decoded.contains("  ") {
        return Cow::Owned(decoded.split_whitespace().collect::<Vec<_>>().join(" "));
    }
    decoded
}

/// Where the element whose start tag ends at `from` ends: one past the
/// `>` of its matching end tag (same-named elements inside counted), or
/// `None` when it does not end within `src`.
pub fn element_end(src: &str, name: &str, from: usize) -> Option<usize> {
    let b = src.as_bytes();
    let mut depth = 1usize;
    let mut at = from;
    while let Some(i) = memchr::memchr(b'<', &b[at..]) {
        let lt = at + i;
        let rest = &b[lt + 1..];
        let (closing, name_at) = match rest.first() {
            Some(b'/') => (true, lt + 2),
            _ => (false, lt + 1),
        };
        let named = b
            .get(name_at..name_at + name.len())
            .is_some_and(|n| n.eq_ignore_ascii_case(name.as_bytes()))
            && b.get(name_at + name.len())
                .is_none_or(|c| c.is_ascii_whitespace() || matches!(c, b'>' | b'/'));
        at = lt + 1;
        if !named {
            continue;
        }
        if closing {
            depth -= 1;
            if depth == 0 {
                return Some(tag_end(b, name_at).unwrap_or(b.len()));
            }
        } else {
            depth += 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_read_in_every_quoting() {
        let tag =
            StartTag::at(r#"<META Name="author" content='Ann &amp; Bo' data-x=1 hidden>rest"#)
                .unwrap();
        assert!(tag.is("meta"));
        assert_eq!(tag.get("name"), Some("author"));
        assert_eq!(decoded(tag.get("content").unwrap()), "Ann & Bo");
        assert_eq!(tag.get("data-x"), Some("1"));
        assert_eq!(tag.get("hidden"), Some(""));
        assert!(tag.src.ends_with("hidden>"));
    }

    #[test]
    fn a_quoted_bracket_does_not_end_the_tag() {
        let tag = StartTag::at(r#"<a title="a > b" rel=author>x</a>"#).unwrap();
        assert_eq!(tag.get("rel"), Some("author"));
    }

    #[test]
    fn a_tag_ends_at_its_first_unquoted_bracket() {
        assert_eq!(tag_end(b"<a b='>' c=\">\">x", 2), Some(15));
        assert_eq!(tag_end(b"<a b=x>", 2), Some(7));
        assert_eq!(tag_end(b"<a b='>", 2), None);
        assert_eq!(tag_end(b"<a b", 2), None);
        assert_eq!(tag_end(b"<a>", 5), None);
    }

    #[test]
    fn elements_end_at_their_own_end_tag() {
        let src = "<span class=a><span>x</span>y</span>z";
        let end = element_end(src, "span", 14).unwrap();
        assert_eq!(&src[..end], "<span class=a><span>x</span>y</span>");
        assert_eq!(element_end("<p>open", "p", 3), None);
    }
}
