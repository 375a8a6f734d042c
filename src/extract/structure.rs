//! The main content's structure as blocks (headings, paragraphs, list
//! items, tables, code, quotes) and their Markdown. The blocks are told
//! from the selected lines by `text` (see `text::structure`); this module
//! only holds them and writes them out.
//!
//! Markdown is CommonMark with GitHub's pipe tables: `#` headings, `-` and
//! `1.` list items indented four spaces a level (an ordered list numbered
//! from its start), fenced code, `>` quotes, a backslash hard break
//! between the lines of a paragraph.
//! Text is escaped where Markdown would read it as markup, and nowhere
//! else; links are kept as their text.

use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// One block of the main content. The text of every block but code is
/// the text's own lines (`Document::text`), one per line; code keeps its
/// indentation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Block {
    /// `h1` … `h6`: `level` 1 to 6.
    Heading {
        level: u8,
        text: String,
    },
    Paragraph {
        text: String,
    },
    /// An `li`; `depth` 1 in a list at the top, 2 in a list inside it, ...
    /// `start`: the number of an ordered list's first item when the page
    /// gives one other than 1 (`<ol start>`, or `value` on its first
    /// `<li>`), on each item of the list; none otherwise.
    ListItem {
        depth: u8,
        ordered: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        start: Option<u32>,
        /// The quotes its list is in (`<blockquote>`), 0 (left out of
        /// JSON) for none.
        #[serde(default, skip_serializing_if = "is_zero")]
        quote: u8,
        text: String,
    },
    /// A table of data (one laid out for a page is read as flow text):
    /// rows of cells, as wide as the widest row; `header` when the first
    /// row is all `<th>`, or in the table's `<thead>`. `depth`: that of
    /// the list item it is in, 0 (left out of JSON) at the top level.
    Table {
        #[serde(default, skip_serializing_if = "is_zero")]
        depth: u8,
        header: bool,
        rows: Vec<Vec<String>>,
    },
    /// `<pre>`; `depth` as a table's.
    Code {
        #[serde(default, skip_serializing_if = "is_zero")]
        depth: u8,
        text: String,
    },
    /// `<blockquote>`: its paragraphs apart by an empty line (`\n\n`),
    /// the lines of one (a `<br>`) by a line end. `quote`: the quotes it
    /// is in, 0 (left out of JSON) for none; the text of a quote inside
    /// it is a block of its own, and so is its text after that.
    Quote {
        #[serde(default, skip_serializing_if = "is_zero")]
        quote: u8,
        text: String,
    },
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

impl Block {
    /// Adds a line to a block of lines (code and tables take none).
    pub(crate) fn push_line(&mut self, line: &str) {
        match self {
            Block::Heading { text, .. }
            | Block::Paragraph { text }
            | Block::ListItem { text, .. }
            | Block::Quote { text, .. } => {
                text.push('\n');
                text.push_str(line);
            }
            Block::Table { .. } | Block::Code { .. } => {}
        }
    }

    /// Every text the block holds, for changes applied to all of them.
    pub(crate) fn texts_mut(&mut self) -> Vec<&mut String> {
        match self {
            Block::Heading { text, .. }
            | Block::Paragraph { text }
            | Block::ListItem { text, .. }
            | Block::Quote { text, .. }
            | Block::Code { text, .. } => vec![text],
            Block::Table { rows, .. } => rows.iter_mut().flatten().collect(),
        }
    }
}

/// Indentation of one list level (spaces), at least.
const INDENT: usize = 4;

/// The blocks as Markdown: blocks apart by a blank line, the items of a
/// list on consecutive lines. Code or a table in a list item is indented
/// to the item's text, and the list goes on after it. Each line of a
/// block in quotes starts with a `>` a quote.
pub fn markdown(blocks: &[Block]) -> String {
    let mut out = String::new();
    let mut list = ListState::default();
    // The lists set aside for a list in a quote inside one of their items.
    let mut outer: Vec<ListState> = Vec::new();
    // The last block: a list item or not, and a quote (by the quotes
    // around it) or not, and the quotes it is in.
    let mut after_item = false;
    let mut after_quote: Option<u8> = None;
    let mut quoted = 0u8;
    let mut body = String::new();
    for block in blocks {
        body.clear();
        let item = matches!(block, Block::ListItem { .. });
        let indent = match block {
            Block::Code { depth, .. } | Block::Table { depth, .. } => list.indent(*depth),
            _ => None,
        };
        let quotes = match block {
            Block::ListItem { quote, .. } => *quote,
            Block::Quote { quote, .. } => quote.saturating_add(1),
            Block::Code { .. } | Block::Table { .. } if indent.is_some() => list.quote,
            _ => 0,
        };
        if let Block::ListItem { depth, .. } = block
            && list.quote != quotes
        {
            // A list in a quote in an open item is set aside from it, and
            // the list it is in goes on (numbered on) after it.
            while outer.last().is_some_and(|l| l.quote > quotes) {
                outer.pop();
            }
            let back = outer.pop_if(|l| l.quote == quotes);
            let inner = ListState {
                quote: quotes,
                ..ListState::default()
            };
            let left = std::mem::replace(&mut list, back.unwrap_or(inner));
            if quotes > left.quote
                && usize::from(*depth) > usize::from(left.base) + left.levels.len()
            {
                outer.push(left);
            }
        }
        let this_quote = match block {
            Block::Quote { quote, .. } => Some(*quote),
            _ => None,
        };
        if !out.is_empty() {
            if item && after_item && list.open() && quoted == quotes {
                out.push('\n');
            } else {
                // A blank line in the quotes both are in; two quotes side
                // by side in the same ones are two quotes.
                let shared = match (after_quote, this_quote) {
                    (Some(a), Some(b)) if a == b => a,
                    _ => quoted.min(quotes),
                };
                out.push('\n');
                out.push_str(&prefix(shared, true));
                out.push('\n');
            }
        }
        after_item = item;
        after_quote = this_quote;
        quoted = quotes;
        if let Some(indent) = indent {
            let mut inner = String::new();
            match block {
                Block::Table { header, rows, .. } => table(&mut inner, *header, rows),
                Block::Code { text, .. } => code(&mut inner, text),
                _ => {}
            }
            indented(&mut body, &inner, &indent);
        } else {
            if !item {
                list = ListState::default();
                outer.clear();
            }
            match block {
                Block::Heading { level, text } => heading(&mut body, *level, text),
                Block::Paragraph { text } => lines(&mut body, text, ""),
                Block::ListItem {
                    depth,
                    ordered,
                    start,
                    text,
                    ..
                } => list.item(&mut body, *depth, *ordered, *start, text),
                Block::Table { header, rows, .. } => table(&mut body, *header, rows),
                Block::Code { text, .. } => code(&mut body, text),
                Block::Quote { text, .. } => quote(&mut body, text),
            }
        }
        quoted_lines(&mut out, &body, quotes);
    }
    out
}

/// The `>` of `quotes` quotes at a line's start; on a blank line
/// (`blank`) without the space after the last.
fn prefix(quotes: u8, blank: bool) -> String {
    let mut p = "> ".repeat(usize::from(quotes));
    if blank {
        p.pop();
    }
    p
}

/// `text`, each line after the `>` of `quotes` quotes.
fn quoted_lines(out: &mut String, text: &str, quotes: u8) {
    if quotes == 0 {
        out.push_str(text);
        return;
    }
    let (full, blank) = (prefix(quotes, false), prefix(quotes, true));
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(if line.is_empty() { &blank } else { &full });
        out.push_str(line);
    }
}

fn heading(out: &mut String, level: u8, text: &str) {
    let level = usize::from(level.clamp(1, 6));
    let one_line = text.replace('\n', " ");
    let mut escaped = escape(&one_line, false);
    // A closing sequence (` ##`) would be taken off.
    if escaped.ends_with('#') {
        let run = escaped.len() - escaped.trim_end_matches('#').len();
        let at = escaped.len() - run;
        if at == 0 || escaped[..at].ends_with(' ') {
            escaped.insert(at, '\\');
        }
    }
    let _ = write!(out, "{} {escaped}", "#".repeat(level));
}

/// Lines of one paragraph, joined by hard breaks (a backslash at the end
/// of a line); every line after the first starts with `indent`.
fn lines(out: &mut String, text: &str, indent: &str) {
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push_str("\\\n");
            out.push_str(indent);
        }
        out.push_str(&escape(line, false));
    }
}

/// Numbering and nesting of the list being written.
#[derive(Debug, Default)]
struct ListState {
    levels: Vec<Level>,
    /// The quotes the list is in.
    quote: u8,
    /// The depth above its first item's: a list whose first item is
    /// nested (a run starting inside a nested list, a list in a quote in
    /// an item) starts at the left.
    base: u8,
}

/// An open level of the list being written.
#[derive(Debug, Clone, Copy)]
struct Level {
    ordered: bool,
    /// The number of its last item (0 for a bullet).
    number: u32,
    /// Where its items' markers start, and their text.
    marker: usize,
    text: usize,
}

/// `text`, its lines but the empty ones after `indent`.
fn indented(out: &mut String, text: &str, indent: &str) {
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if !line.is_empty() {
            out.push_str(indent);
        }
        out.push_str(line);
    }
}

impl ListState {
    fn open(&self) -> bool {
        !self.levels.is_empty()
    }

    /// The indentation of a block inside the open item at `depth` (from
    /// 1): that of the item's text. None at the top level, or when no
    /// item at that depth is open (the block is then at the top level).
    fn indent(&self, depth: u8) -> Option<String> {
        let depth = depth.checked_sub(self.base)?;
        let level = self.levels.get(usize::from(depth).checked_sub(1)?)?;
        Some(" ".repeat(level.text))
    }

    /// An item at `depth`, nested at most one level below the item before
    /// it (a deeper one would read as code). An ordered level is numbered
    /// from its first item's `start`.
    fn item(&mut self, out: &mut String, depth: u8, ordered: bool, start: Option<u32>, text: &str) {
        if self.levels.is_empty() {
            self.base = depth.saturating_sub(1);
        }
        let depth = depth.saturating_sub(self.base);
        let depth = usize::from(depth.max(1)).min(self.levels.len() + 1);
        self.levels.truncate(depth);
        // Four spaces a level, or more under a marker wider than three
        // (`100. `): a list indented less than its item's text is not in
        // that item.
        let marker = match depth.checked_sub(2).and_then(|p| self.levels.get(p)) {
            Some(parent) => (parent.marker + INDENT).max(parent.text),
            None => 0,
        };
        let number = match self.levels.get(depth - 1) {
            Some(level) if level.ordered == ordered => level.number + u32::from(ordered),
            _ if ordered => start.unwrap_or(1),
            _ => 0,
        };
        let mark = match ordered {
            true => format!("{number}. "),
            false => "- ".to_string(),
        };
        let level = Level {
            ordered,
            number,
            marker,
            text: marker + mark.len(),
        };
        match self.levels.get_mut(depth - 1) {
            Some(l) => *l = level,
            None => self.levels.push(level),
        }
        let indent = " ".repeat(marker);
        let inner = " ".repeat(level.text);
        let _ = write!(out, "{indent}{mark}");
        lines(out, text, &inner);
    }
}

/// A GitHub pipe table. A table without a header row gets an empty one:
/// the format has no table without it.
fn table(out: &mut String, header: bool, rows: &[Vec<String>]) {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0).max(1);
    let (head, body) = match (header, rows.split_first()) {
        (true, Some((first, rest))) => (first.clone(), rest),
        _ => (Vec::new(), rows),
    };
    row(out, &head, cols);
    out.push('\n');
    out.push('|');
    out.push_str(&" --- |".repeat(cols));
    for r in body {
        out.push('\n');
        row(out, r, cols);
    }
}

fn row(out: &mut String, cells: &[String], cols: usize) {
    out.push('|');
    for c in 0..cols {
        let cell = cells.get(c).map_or("", String::as_str);
        let text = cell
            .split('\n')
            .map(|l| escape(l, true))
            .collect::<Vec<_>>()
            .join("<br>");
        match text.is_empty() {
            true => out.push_str("  |"),
            false => {
                let _ = write!(out, " {text} |");
            }
        }
    }
}

/// A fence longer than any run of backticks in the code.
fn code(out: &mut String, text: &str) {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat((longest + 1).max(3));
    let _ = write!(out, "{fence}\n{text}\n{fence}");
}

/// The quote's paragraphs apart by a blank line (a `>` line once
/// quoted), the lines of each joined by hard breaks as a paragraph's are.
fn quote(out: &mut String, text: &str) {
    for (i, paragraph) in text.split("\n\n").enumerate() {
        if i > 0 {
            out.push_str("\n\n");
        }
        lines(out, paragraph, "");
    }
}

/// `line` with the characters Markdown would take as markup escaped:
/// inline ones anywhere (`\`, `` ` ``, `*`, `_` not inside a word, `[`,
/// `~`, `<` and `&` where they would start a tag or an entity, `|` in
/// table cells) and those that start a block at the line's start
/// (`#`, `>`, `-`, `+`, `=`, `1.`).
pub fn escape(line: &str, cell: bool) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    let chars: Vec<char> = line.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let before = i.checked_sub(1).and_then(|j| chars.get(j)).copied();
        let after = chars.get(i + 1).copied();
        let special = match c {
            '`' | '*' | '[' | '~' => true,
            '\\' => after.is_none_or(|a| a.is_ascii_punctuation()),
            '_' => {
                !(before.is_some_and(char::is_alphanumeric)
                    && after.is_some_and(char::is_alphanumeric))
            }
            '<' => after.is_some_and(|a| a.is_ascii_alphabetic() || "/!?".contains(a)),
            '&' => after.is_some_and(|a| a.is_ascii_alphanumeric() || a == '#'),
            '|' => cell,
            '#' | '>' | '-' | '+' | '=' => i == 0,
            _ => false,
        };
        if special {
            out.push('\\');
        }
        out.push(c);
    }
    // `1.` or `1)` and a space (or nothing) at the start: an ordered item.
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    if (1..10).contains(&digits)
        && matches!(line.as_bytes().get(digits), Some(b'.' | b')'))
        && matches!(line.as_bytes().get(digits + 1), None | Some(b' '))
    {
        out.insert(digits, '\\');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn para(text: &str) -> Block {
        Block::Paragraph { text: text.into() }
    }

    #[test]
    fn headings_take_one_hash_a_level() {
        let blocks = [
            Block::Heading {
                level: 1,
                text: "Top".into(),
            },
            Block::Heading {
                level: 3,
                text: "Issue #".into(),
            },
        ];
        assert_eq!(markdown(&blocks), "# Top\n\n### Issue \\#");
    }

    #[test]
    fn nested_items_indent_four_spaces_a_level_and_ordered_ones_count() {
        let item = |depth, ordered, text: &str| Block::ListItem {
            depth,
            ordered,
            start: None,
            quote: 0,
            text: text.into(),
        };
        let blocks = [
            item(1, false, "a"),
            item(2, true, "b"),
            item(2, true, "c"),
            item(1, false, "d"),
            item(3, false, "too deep"),
            para("after"),
        ];
        assert_eq!(
            markdown(&blocks),
            "- a\n    1. b\n    2. c\n- d\n    - too deep\n\nafter"
        );
    }

    /// An ordered list is numbered from its start; a list nested in an
    /// item whose marker is wider than four spaces is indented to that
    /// item's text, or it would not be inside the item.
    #[test]
    fn an_ordered_list_is_numbered_from_its_start() {
        let item = |depth, ordered, start, text: &str| Block::ListItem {
            depth,
            ordered,
            start,
            quote: 0,
            text: text.into(),
        };
        let blocks = [
            item(1, true, Some(5), "five"),
            item(1, true, Some(5), "six\nmore"),
            item(2, true, Some(0), "zero"),
            item(1, false, None, "bullet"),
            para("-"),
            item(1, true, Some(999), "a"),
            item(1, true, Some(999), "b"),
            item(2, false, None, "under b"),
            item(3, true, None, "deeper"),
        ];
        assert_eq!(
            markdown(&blocks),
            "5. five\n6. six\\\n   more\n    0. zero\n- bullet\n\n\\-\n\n\
             999. a\n1000. b\n      - under b\n          1. deeper"
        );
    }

    #[test]
    fn tables_have_a_header_row_and_separator_and_escape_pipes() {
        let rows = vec![
            vec!["Name".to_string(), "Value".to_string()],
            vec!["a|b".to_string(), String::new()],
        ];
        let with = Block::Table {
            depth: 0,
            header: true,
            rows: rows.clone(),
        };
        assert_eq!(
            markdown(&[with]),
            "| Name | Value |\n| --- | --- |\n| a\\|b |  |"
        );
        let without = Block::Table {
            depth: 0,
            header: false,
            rows,
        };
        assert_eq!(
            markdown(&[without]),
            "|  |  |\n| --- | --- |\n| Name | Value |\n| a\\|b |  |"
        );
    }

    #[test]
    fn code_is_fenced_longer_than_its_backticks_and_unescaped() {
        let block = Block::Code {
            depth: 0,
            text: "let s = \"```\";\n    *x = 1;".into(),
        };
        assert_eq!(
            markdown(&[block]),
            "````\nlet s = \"```\";\n    *x = 1;\n````"
        );
    }

    /// Code and a table in an item are indented to its text, apart from
    /// it by a blank line, and the list goes on numbering after them; at
    /// a depth with no item open they are at the top level.
    #[test]
    fn code_and_tables_in_an_item_are_indented_under_it() {
        let item = |depth, text: &str| Block::ListItem {
            depth,
            ordered: true,
            start: None,
            quote: 0,
            text: text.into(),
        };
        let blocks = [
            item(1, "one"),
            Block::Code {
                depth: 1,
                text: "a\n\n  b".into(),
            },
            item(1, "two"),
            item(2, "inner"),
            Block::Table {
                depth: 2,
                header: false,
                rows: vec![vec!["x".into()]],
            },
            item(1, "three"),
            para("-"),
            Block::Code {
                depth: 1,
                text: "top".into(),
            },
        ];
        assert_eq!(
            markdown(&blocks),
            "1. one\n\n   ```\n   a\n\n     b\n   ```\n\n2. two\n    1. inner\n\n       \
             |  |\n       | --- |\n       | x |\n\n3. three\n\n\\-\n\n```\ntop\n```"
        );
    }

    /// A quote's paragraphs are apart by a `>` line; the lines of one are
    /// joined by hard breaks, as a paragraph's are, inside the quote.
    #[test]
    fn a_quotes_paragraphs_are_apart_and_its_broken_lines_hard_broken() {
        let block = Block::Quote {
            quote: 0,
            text: "One.\n\nTwo,\nthree.".into(),
        };
        assert_eq!(markdown(&[block]), "> One.\n>\n> Two,\\\n> three.");
    }

    /// A list and a quote in a quote are quoted, the nested quote twice,
    /// and so is code in an item of that list; two quotes side by side
    /// stay two; a list whose first item is nested starts at the left.
    #[test]
    fn lists_and_quotes_in_a_quote_are_quoted() {
        let quote = |quote, text: &str| Block::Quote {
            quote,
            text: text.into(),
        };
        let item = |depth, quote, text: &str| Block::ListItem {
            depth,
            ordered: false,
            start: None,
            quote,
            text: text.into(),
        };
        let blocks = [
            quote(0, "a"),
            item(1, 1, "b\nc"),
            Block::Code {
                depth: 1,
                text: "x\n\ny".into(),
            },
            item(1, 1, "d"),
            item(2, 1, "e"),
            quote(1, "f\n\ng"),
            quote(1, "h"),
            quote(0, "i"),
            item(2, 0, "j"),
            item(2, 0, "j2"),
            quote(0, "k"),
            quote(0, "l"),
        ];
        assert_eq!(
            markdown(&blocks),
            "> a\n>\n> - b\\\n>   c\n>\n>   ```\n>   x\n>\n>   y\n>   ```\n>\n> - d\n>     - e\n\
             >\n> > f\n> >\n> > g\n>\n> > h\n>\n> i\n\n- j\n- j2\n\n> k\n\n> l"
        );
    }

    /// A list in a quote inside an ordered item leaves that list open:
    /// the items after it are numbered on, apart from the quote by a
    /// blank line (a `2.` right after a quoted line would be that line's
    /// text); a quoted list beside a list, not in its item, does not.
    #[test]
    fn a_list_in_a_quote_in_an_item_leaves_its_list_numbered_on() {
        let item = |depth, ordered, quote, text: &str| Block::ListItem {
            depth,
            ordered,
            start: None,
            quote,
            text: text.into(),
        };
        let blocks = [
            item(1, true, 0, "a"),
            item(2, false, 1, "b"),
            item(3, true, 2, "c"),
            item(2, false, 1, "d"),
            item(1, true, 0, "e"),
        ];
        assert_eq!(
            markdown(&blocks),
            "1. a\n\n> - b\n>\n> > 1. c\n>\n> - d\n\n2. e"
        );
        let beside = [
            item(1, true, 0, "a"),
            item(1, false, 1, "x"),
            item(1, true, 0, "new"),
        ];
        assert_eq!(markdown(&beside), "1. a\n\n> - x\n\n1. new");
    }

    #[test]
    fn paragraph_lines_end_with_hard_breaks() {
        assert_eq!(markdown(&[para("a\nb"), para("c")]), "a\\\nb\n\nc");
    }

    #[test]
    fn markup_characters_are_escaped_and_plain_ones_are_not() {
        let cases = [
            ("snake_case and *stars*", "snake_case and \\*stars\\*"),
            ("_under_", "\\_under\\_"),
            ("# not a heading", "\\# not a heading"),
            ("- not an item", "\\- not an item"),
            ("1. not an item", "1\\. not an item"),
            ("2024. A year", "2024\\. A year"),
            ("1.5 litres", "1.5 litres"),
            ("a <b> &amp; [x] `c`", "a \\<b> \\&amp; \\[x] \\`c\\`"),
            ("a < b & c > d - e # f", "a < b & c > d - e # f"),
            ("C:\\dir \\*", "C:\\dir \\\\\\*"),
            ("~~gone~~", "\\~\\~gone\\~\\~"),
        ];
        for (text, expected) in cases {
            assert_eq!(escape(text, false), expected, "{text:?}");
        }
    }
}
