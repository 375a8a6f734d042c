//! The main content's structure as blocks (headings, paragraphs, list
//! items, tables, code, quotes) and their Markdown. The blocks are told
//! from the selected lines by `text` (see `text::structure`); this module
//! only holds them and writes them out.
//!
//! Markdown is CommonMark with GitHub's pipe tables: `#` headings, `-` and
//! `1.` list items indented four spaces a level, fenced code, `>` quotes.
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
    ListItem {
        depth: u8,
        ordered: bool,
        text: String,
    },
    /// A table of data (one laid out for a page is read as flow text):
    /// rows of cells, as wide as the widest row; `header` when the first
    /// row is all `<th>`.
    Table {
        header: bool,
        rows: Vec<Vec<String>>,
    },
    /// `<pre>`.
    Code {
        text: String,
    },
    /// `<blockquote>`.
    Quote {
        text: String,
    },
}

impl Block {
    /// Adds a line to a block of lines (code and tables take none).
    pub(crate) fn push_line(&mut self, line: &str) {
        match self {
            Block::Heading { text, .. }
            | Block::Paragraph { text }
            | Block::ListItem { text, .. }
            | Block::Quote { text } => {
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
            | Block::Quote { text }
            | Block::Code { text } => vec![text],
            Block::Table { rows, .. } => rows.iter_mut().flatten().collect(),
        }
    }
}

/// Indentation of one list level.
const INDENT: &str = "    ";

/// The blocks as Markdown: blocks apart by a blank line, the items of a
/// list on consecutive lines.
pub fn markdown(blocks: &[Block]) -> String {
    let mut out = String::new();
    let mut list = ListState::default();
    for block in blocks {
        let item = matches!(block, Block::ListItem { .. });
        if !out.is_empty() {
            out.push_str(if item && list.open() { "\n" } else { "\n\n" });
        }
        if !item {
            list = ListState::default();
        }
        match block {
            Block::Heading { level, text } => heading(&mut out, *level, text),
            Block::Paragraph { text } => lines(&mut out, text, ""),
            Block::ListItem {
                depth,
                ordered,
                text,
            } => list.item(&mut out, *depth, *ordered, text),
            Block::Table { header, rows } => table(&mut out, *header, rows),
            Block::Code { text } => code(&mut out, text),
            Block::Quote { text } => quote(&mut out, text),
        }
    }
    out
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
    /// The number of each open level's last item (0 for a bullet).
    levels: Vec<(bool, u32)>,
}

impl ListState {
    fn open(&self) -> bool {
        !self.levels.is_empty()
    }

    /// An item at `depth`, nested at most one level below the item before
    /// it (a deeper one would read as code).
    fn item(&mut self, out: &mut String, depth: u8, ordered: bool, text: &str) {
        let depth = usize::from(depth.max(1)).min(self.levels.len() + 1);
        self.levels.truncate(depth);
        let number = match self.levels.get_mut(depth - 1) {
            Some(level) if level.0 == ordered => {
                level.1 += 1;
                level.1
            }
            Some(level) => {
                *level = (ordered, 1);
                1
            }
            None => {
                self.levels.push((ordered, 1));
                1
            }
        };
        let indent = INDENT.repeat(depth - 1);
        let marker = match ordered {
            true => format!("{number}. "),
            false => "- ".to_string(),
        };
        let inner = format!("{indent}{}", " ".repeat(marker.len()));
        let _ = write!(out, "{indent}{marker}");
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

/// Each line of the quote a paragraph of it.
fn quote(out: &mut String, text: &str) {
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push_str("\n>\n");
        }
        let _ = write!(out, "> {}", escape(line, false));
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

    #[test]
    fn tables_have_a_header_row_and_separator_and_escape_pipes() {
        let rows = vec![
            vec!["Name".to_string(), "Value".to_string()],
            vec!["a|b".to_string(), String::new()],
        ];
        let with = Block::Table {
            header: true,
            rows: rows.clone(),
        };
        assert_eq!(
            markdown(&[with]),
            "| Name | Value |\n| --- | --- |\n| a\\|b |  |"
        );
        let without = Block::Table {
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
            text: "let s = \"```\";\n    *x = 1;".into(),
        };
        assert_eq!(
            markdown(&[block]),
            "````\nlet s = \"```\";\n    *x = 1;\n````"
        );
    }

    #[test]
    fn quote_lines_are_paragraphs_of_the_quote() {
        let block = Block::Quote {
            text: "One.\nTwo.".into(),
        };
        assert_eq!(markdown(&[block]), "> One.\n>\n> Two.");
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
