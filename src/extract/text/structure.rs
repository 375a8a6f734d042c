//! The structure of the rendered text: which of its lines are headings,
//! list items, table cells, code, quotes or paragraphs, told from the
//! same tokenizer events the renderer hears, and only those it does not
//! leave out (the renderer calls this after its own skips).
//!
//! It keeps no tree: a few counters and stacks of what is open, and for
//! each line of the text where it starts and what was open when its first
//! word was written. [`Builder::blocks`] groups the lines into
//! [`Block`]s afterwards. Code keeps its whitespace, so the text inside
//! `<pre>` is copied here as it comes; every other block's text is its
//! lines of the rendered text, as they are. What the text drops as a
//! repeated paragraph the blocks drop too (by the lines' places).

use super::super::structure::Block;
use super::super::tags::Tag;
use super::events::Sink;
use std::collections::BTreeMap;
use std::ops::Range;

/// What the renderer tells a structure builder. The unit type hears
/// nothing (`ON` false), so the plain text path pays nothing for it.
pub(crate) trait Structure {
    const ON: bool;
    /// A run of selected lines starts: nothing is open.
    fn reset(&mut self);
    /// A block-level start tag (headings, lists, tables, `pre`, ...).
    fn open(&mut self, name: &[u8], tag: Tag);
    /// A block-level end tag.
    fn close(&mut self, name: &[u8], tag: Tag);
    /// A line of the text starts at byte `at` of the output.
    fn line(&mut self, at: usize);
    /// Text inside `<pre>`, whitespace as it is.
    fn code_text(&mut self, value: &str);
    /// A `<br>`.
    fn line_break(&mut self);
    /// Whether it reads the attributes of the start tag it was just
    /// told to `open` (an `<ol>`'s `start`, a first `<li>`'s `value`).
    fn wants_attributes(&self) -> bool;
    /// An attribute of that tag (see `events::Sink::attribute`).
    fn attribute(&mut self, name: &[u8], value: &[u8]);
}

impl Structure for () {
    const ON: bool = false;
    #[inline(always)]
    fn reset(&mut self) {}
    #[inline(always)]
    fn open(&mut self, _: &[u8], _: Tag) {}
    #[inline(always)]
    fn close(&mut self, _: &[u8], _: Tag) {}
    #[inline(always)]
    fn line(&mut self, _: usize) {}
    #[inline(always)]
    fn code_text(&mut self, _: &str) {}
    #[inline(always)]
    fn line_break(&mut self) {}
    #[inline(always)]
    fn wants_attributes(&self) -> bool {
        false
    }
    #[inline(always)]
    fn attribute(&mut self, _: &[u8], _: &[u8]) {}
}

/// Longest stretch of the page above a run that [`context_before`] gives.
const CONTEXT_MAX: usize = 2048;

/// The page right above byte `start` of `src` and after `floor` (where
/// the run before ended), at most [`CONTEXT_MAX`] bytes, from a tag's
/// start. A chosen run starts at its first line with text, often inside
/// a list, a table or a quote opened above it (a table's header row left
/// out, a list's first items): the tags there are the run's context.
pub(crate) fn context_before(src: &str, floor: usize, start: usize) -> &str {
    let start = start.min(src.len());
    let from = floor.max(start.saturating_sub(CONTEXT_MAX)).min(start);
    let window = src.as_bytes().get(from..start).unwrap_or_default();
    let tag = (0..window.len()).find(|&i| {
        window[i] == b'<'
            && window
                .get(i + 1)
                .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'/')
    });
    match tag {
        Some(i) => src.get(from + i..start).unwrap_or(""),
        None => "",
    }
}

/// Whether [`context_before`] holds all of the page between `floor` and
/// `start`: then the lists open where the run before ended are open at
/// the context's start (see [`Builder::resume`]).
pub(crate) fn context_is_whole(floor: usize, start: usize) -> bool {
    start.saturating_sub(floor) <= CONTEXT_MAX
}

/// Feeds a builder the block tags of the context of a run, and the
/// attributes it reads of them; its text is ignored, and so is `<pre>`:
/// the renderer does not keep the run's whitespace, so neither can the
/// code.
pub(crate) struct Tags<'b> {
    builder: &'b mut Builder,
    /// The start tag just heard went to the builder, which reads its
    /// attributes.
    attributes: bool,
}

impl<'b> Tags<'b> {
    pub(crate) fn new(builder: &'b mut Builder) -> Self {
        Tags {
            builder,
            attributes: false,
        }
    }
}

impl Sink for Tags<'_> {
    fn start_tag(&mut self, name: &[u8]) {
        self.start_tag_known(name, Tag::classify(name));
    }

    fn end_tag(&mut self, name: &[u8]) {
        self.end_tag_known(name, Tag::classify(name));
    }

    fn start_tag_known(&mut self, name: &[u8], tag: Tag) {
        self.attributes = false;
        if tag.is_block() && tag != Tag::Pre {
            let mut builder = &mut *self.builder;
            builder.open(name, tag);
            self.attributes = builder.wants_attributes();
        }
    }

    fn end_tag_known(&mut self, name: &[u8], tag: Tag) {
        if tag.is_block() && tag != Tag::Pre {
            (&mut *self.builder).close(name, tag);
        }
    }

    fn text(&mut self, _: &str) {}

    fn wants_attributes(&self) -> bool {
        self.attributes
    }

    fn attribute(&mut self, name: &[u8], value: &[u8]) {
        (&mut *self.builder).attribute(name, value);
    }
}

/// The most text a table cell holds (bytes) in a table of data.
const CELL_MAX: usize = 400;

/// What a line of flow text is part of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flow {
    Paragraph,
    Heading(u8),
    Item {
        depth: u8,
        ordered: bool,
        start: Option<u32>,
        quote: u8,
    },
    /// A quote in `quote` others.
    Quote {
        quote: u8,
    },
    /// `<pre>`, in the list item at `depth` (0: none).
    Code {
        depth: u8,
    },
}

/// A table cell a line is in.
#[derive(Debug, Clone, Copy)]
struct Cell {
    table: u32,
    row: u32,
    col: u32,
    header: bool,
}

/// A line of the text: where it starts, what it belongs to (`id` tells
/// two paragraphs, items, ... apart) and the table cell around it;
/// `broken` when a `<br>` started it (no block tag since), which in a
/// quote tells a broken line from the quote's next paragraph.
#[derive(Debug, Clone, Copy)]
struct Mark {
    at: usize,
    flow: Flow,
    id: u32,
    cell: Option<Cell>,
    broken: bool,
}

#[derive(Debug, Clone, Copy)]
struct List {
    ordered: bool,
    item: Option<u32>,
    /// Opened by an `<li>` outside any list.
    implied: bool,
    /// The number of its first item, when the page gives one.
    start: Option<u32>,
    /// Its items so far.
    items: u32,
    /// The quotes open around it.
    quote: u8,
}

/// The tag whose attributes the builder reads, just opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// An `<ol>`: its `start`.
    Start,
    /// The first `<li>` of an ordered list: its `value`, the list's start
    /// too. A `value` further down is not read: the blocks number an
    /// ordered list from its start on.
    Value,
    /// A table cell: its `colspan` and `rowspan`.
    Span,
}

#[derive(Debug, Clone, Default)]
struct OpenTable {
    id: u32,
    row: Option<u32>,
    /// The column the row's next cell takes, unless a cell above spans
    /// down into it.
    col: u32,
    cell: Option<(u32, bool)>,
    /// Inside its `<thead>`: a cell there is a header cell, `<td>` too.
    head: bool,
    /// The `colspan` and `rowspan` of the cell just opened, once read.
    span: (Option<u32>, Option<u32>),
    /// Cells spanning rows below their own: their first column, their
    /// columns and their last row.
    down: Vec<(u32, u32, u32)>,
}

impl OpenTable {
    /// The first column from `col` on that no cell from a row above
    /// spans down into.
    fn free_from(&self, mut col: u32, row: u32) -> u32 {
        while let Some(&(first, cols, _)) = self.down.iter().find(|&&(first, cols, last)| {
            last >= row && (first..first.saturating_add(cols)).contains(&col)
        }) {
            col = first.saturating_add(cols);
        }
        col
    }
}

/// What is known of a table once its lines are read.
#[derive(Debug, Clone, Copy, Default)]
struct TableInfo {
    /// A cell holds a list, heading, code, quote or another table: the
    /// table lays out a page rather than holding data, and its lines are
    /// read as flow text.
    layout: bool,
    cols: u32,
    /// The depth of the list item it is in (0: none).
    depth: u8,
}

/// Builds the blocks of one render (see the module doc).
#[derive(Debug, Default)]
pub(crate) struct Builder {
    marks: Vec<Mark>,
    codes: Vec<(u32, String)>,
    tables: Vec<TableInfo>,
    next: u32,
    paragraph: u32,
    heading: Option<(u8, u32)>,
    lists: Vec<List>,
    /// The lists open where the last run ended.
    carried: Vec<List>,
    /// The quotes open where the last run ended (their ids).
    carried_quotes: Vec<u32>,
    /// The lists were reopened by [`Builder::resume`] and are not yet
    /// known to go on (see [`Builder::confirm_lists`]).
    resumed: bool,
    /// The quotes open, innermost last: their ids.
    quotes: Vec<u32>,
    code: (u32, u32),
    open_tables: Vec<OpenTable>,
    /// A `<br>` came since the last line and block tag.
    broken: bool,
    reading: Option<Reading>,
}

impl Builder {
    /// Reopens the lists open where the run before ended, after a
    /// [`Structure::reset`] and before the context of a run that holds
    /// all of the page since (see [`context_is_whole`]): a run after a
    /// dropped stretch of a list is still in it, numbered or not; and
    /// the quotes, whose end tags the context holds if they end.
    pub(crate) fn resume(&mut self) {
        self.lists = std::mem::take(&mut self.carried);
        self.quotes = std::mem::take(&mut self.carried_quotes);
        self.resumed = !self.lists.is_empty();
    }

    /// Whether the reopened lists go on, told by the first block tag
    /// after them (`open` for a start tag): an item's tag or a list's end
    /// tag says they do; any other (a paragraph, a heading, a `div`
    /// closed, a list opened) says the run may be elsewhere (a list left
    /// unclosed further up, say), and they are closed. A line of text
    /// before any tag goes on the open item.
    fn confirm_lists(&mut self, name: &[u8], open: bool) {
        if !self.resumed {
            return;
        }
        match name {
            b"li" => self.resumed = false,
            b"ul" | b"ol" | b"menu" if !open => self.resumed = false,
            _ => {
                self.resumed = false;
                self.lists.clear();
            }
        }
    }

    fn bump(&mut self) -> u32 {
        self.next += 1;
        self.next
    }

    /// The depth of the list item open (0: none, or a list open with no
    /// item open in it).
    fn item_depth(&self) -> u8 {
        match self.lists.last() {
            Some(list) if list.item.is_some() => u8::try_from(self.lists.len()).unwrap_or(u8::MAX),
            _ => 0,
        }
    }

    /// The number of quotes open.
    fn quote_depth(&self) -> u8 {
        u8::try_from(self.quotes.len()).unwrap_or(u8::MAX)
    }

    /// A structure opened inside a table cell makes the table a layout.
    fn mark_layout(&mut self) {
        if let Some(t) = self.open_tables.last().filter(|t| t.cell.is_some())
            && let Some(info) = self.tables.get_mut(t.id as usize)
        {
            info.layout = true;
        }
    }

    fn code_break(&mut self) {
        if self.code.0 > 0
            && let Some((_, text)) = self.codes.last_mut()
            && !text.is_empty()
            && !text.ends_with('\n')
        {
            text.push('\n');
        }
    }

    /// The blocks of `out`, the text rendered with this builder, leaving
    /// out the lines that start inside `dropped` (byte ranges of `out`,
    /// in order).
    pub(crate) fn blocks(&self, out: &str, dropped: &[Range<usize>]) -> Vec<Block> {
        let mut blocks: Vec<Block> = Vec::new();
        let mut last_flow: Option<(Flow, u32)> = None;
        let mut tables: BTreeMap<u32, (usize, TableCells)> = BTreeMap::new();
        // Each list item's block, by the item's id.
        let mut items: BTreeMap<u32, usize> = BTreeMap::new();
        let mut dropped = dropped.iter().peekable();
        let flow = self.flow_tables(out);
        for (i, mark) in self.marks.iter().enumerate() {
            let end = self.marks.get(i + 1).map_or(out.len(), |m| m.at);
            while dropped.next_if(|r| r.end <= mark.at).is_some() {}
            if dropped.peek().is_some_and(|r| r.contains(&mark.at)) {
                continue;
            }
            let line = out.get(mark.at..end).unwrap_or("").trim_end_matches('\n');
            if let Some(cell) = mark.cell.filter(|c| self.is_table(c.table, &flow)) {
                let (_, cells) = tables.entry(cell.table).or_insert_with(|| {
                    blocks.push(Block::Table {
                        depth: 0,
                        header: false,
                        rows: Vec::new(),
                    });
                    (blocks.len() - 1, TableCells::default())
                });
                cells.add(cell, line);
                last_flow = None;
                continue;
            }
            let key = (mark.flow, mark.id);
            if last_flow == Some(key)
                && let Some(block) = blocks.last_mut()
            {
                // A quote's paragraphs are apart by an empty line, its
                // broken lines by a line end (see `Block::Quote`).
                if let Block::Quote { text, .. } = block
                    && !mark.broken
                {
                    text.push('\n');
                }
                block.push_line(line);
                continue;
            }
            // Text after a nested list, still inside the item that holds
            // it, goes on that item: a block of its own would read as the
            // list's next item.
            if let Flow::Item { .. } = mark.flow
                && let Some(&at) = items.get(&mark.id)
                && let Some(block) = blocks.get_mut(at)
            {
                block.push_line(line);
                last_flow = None;
                continue;
            }
            if let Flow::Item { .. } = mark.flow {
                items.insert(mark.id, blocks.len());
            }
            last_flow = Some(key);
            blocks.push(match mark.flow {
                Flow::Paragraph => Block::Paragraph { text: line.into() },
                Flow::Heading(level) => Block::Heading {
                    level,
                    text: line.into(),
                },
                Flow::Item {
                    depth,
                    ordered,
                    start,
                    quote,
                } => Block::ListItem {
                    depth,
                    ordered,
                    start,
                    quote,
                    text: line.into(),
                },
                Flow::Quote { quote } => Block::Quote {
                    quote,
                    text: line.into(),
                },
                Flow::Code { depth } => Block::Code {
                    depth,
                    text: self.code_of(mark.id),
                },
            });
        }
        for (table, (at, cells)) in tables {
            let depth = self.tables.get(table as usize).map_or(0, |t| t.depth);
            if let Some(block) = blocks.get_mut(at) {
                *block = cells.into_block(depth);
            }
        }
        blocks
    }

    fn is_table(&self, table: u32, flow: &[u32]) -> bool {
        self.tables
            .get(table as usize)
            .is_some_and(|t| !t.layout && t.cols >= 2)
            && !flow.contains(&table)
    }

    /// Tables whose text reads as flow text, by what their cells hold: a
    /// cell of more than [`CELL_MAX`] bytes of text (a column of a page's
    /// layout, not a value), or text in one row or one column only (a
    /// byline or a caption set beside spacer cells, a bar of two labels).
    fn flow_tables(&self, out: &str) -> Vec<u32> {
        let mut sizes: BTreeMap<(u32, u32, u32), usize> = BTreeMap::new();
        for (i, mark) in self.marks.iter().enumerate() {
            if let Some(c) = mark.cell {
                let end = self.marks.get(i + 1).map_or(out.len(), |m| m.at);
                let text = out.get(mark.at..end).unwrap_or("").trim();
                *sizes.entry((c.table, c.row, c.col)).or_default() += text.len();
            }
        }
        // Per table: its largest cell, and the rows and columns with text.
        let mut tables: BTreeMap<u32, (usize, Vec<u32>, Vec<u32>)> = BTreeMap::new();
        for ((table, row, col), size) in sizes.into_iter().filter(|(_, size)| *size > 0) {
            let (largest, rows, cols) = tables.entry(table).or_default();
            *largest = (*largest).max(size);
            rows.push(row);
            cols.push(col);
        }
        tables
            .into_iter()
            .filter_map(|(table, (largest, mut rows, mut cols))| {
                rows.dedup();
                cols.sort_unstable();
                cols.dedup();
                (largest > CELL_MAX || rows.len() < 2 || cols.len() < 2).then_some(table)
            })
            .collect()
    }

    /// The text of code block `id`: blank lines at its ends and trailing
    /// whitespace left out, indentation kept.
    fn code_of(&self, id: u32) -> String {
        let raw = self
            .codes
            .iter()
            .find(|(c, _)| *c == id)
            .map_or("", |(_, text)| text.as_str());
        let lines: Vec<&str> = raw.lines().map(str::trim_end).collect();
        let first = lines.iter().position(|l| !l.is_empty()).unwrap_or(0);
        let last = lines
            .iter()
            .rposition(|l| !l.is_empty())
            .map_or(0, |l| l + 1);
        lines.get(first..last).unwrap_or_default().join("\n")
    }
}

/// A table's cells as its lines fill them.
#[derive(Debug, Default)]
struct TableCells {
    rows: BTreeMap<u32, BTreeMap<u32, (String, bool)>>,
}

impl TableCells {
    fn add(&mut self, cell: Cell, line: &str) {
        let (text, header) = self
            .rows
            .entry(cell.row)
            .or_default()
            .entry(cell.col)
            .or_insert_with(|| (String::new(), cell.header));
        *header &= cell.header;
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(line);
    }

    /// Rows in order, each with a cell for every column that holds text
    /// in some row (missing cells empty; a spacer column goes); a header
    /// when every cell of the first row is a `<th>` or in the `<thead>`.
    fn into_block(self, depth: u8) -> Block {
        let mut cols: Vec<u32> = self
            .rows
            .values()
            .flat_map(|r| r.iter().filter(|(_, (t, _))| !t.trim().is_empty()))
            .map(|(&c, _)| c)
            .collect();
        cols.sort_unstable();
        cols.dedup();
        let header = self
            .rows
            .values()
            .next()
            .is_some_and(|r| r.values().all(|(_, h)| *h));
        let rows = self
            .rows
            .into_values()
            .map(|mut r| {
                cols.iter()
                    .map(|c| r.remove(c).map(|(t, _)| t).unwrap_or_default())
                    .collect()
            })
            .collect();
        Block::Table {
            depth,
            header,
            rows,
        }
    }
}

impl Structure for &mut Builder {
    const ON: bool = true;

    fn reset(&mut self) {
        self.heading = None;
        self.carried = std::mem::take(&mut self.lists);
        self.resumed = false;
        self.carried_quotes = std::mem::take(&mut self.quotes);
        self.code = (0, 0);
        self.open_tables.clear();
        self.paragraph = self.bump();
        self.broken = false;
        self.reading = None;
    }

    fn open(&mut self, name: &[u8], tag: Tag) {
        self.confirm_lists(name, true);
        self.paragraph = self.bump();
        self.code_break();
        self.broken = false;
        self.reading = None;
        if let Some(level) = tag.heading_level() {
            self.mark_layout();
            let id = self.bump();
            self.heading = Some((level, id));
            return;
        }
        match name {
            b"ul" | b"ol" | b"menu" => {
                self.mark_layout();
                let ordered = name == b"ol";
                let quote = self.quote_depth();
                self.lists.push(List {
                    ordered,
                    item: None,
                    implied: false,
                    start: None,
                    items: 0,
                    quote,
                });
                self.reading = ordered.then_some(Reading::Start);
            }
            b"li" => {
                self.mark_layout();
                let id = self.bump();
                if self.lists.is_empty() {
                    let quote = self.quote_depth();
                    self.lists.push(List {
                        ordered: false,
                        item: None,
                        implied: true,
                        start: None,
                        items: 0,
                        quote,
                    });
                }
                if let Some(list) = self.lists.last_mut() {
                    list.item = Some(id);
                    list.items += 1;
                    if list.ordered && list.items == 1 {
                        self.reading = Some(Reading::Value);
                    }
                }
            }
            b"blockquote" => {
                self.mark_layout();
                let id = self.bump();
                self.quotes.push(id);
            }
            _ if tag == Tag::Pre => {
                self.mark_layout();
                if self.code.0 == 0 {
                    let id = self.bump();
                    self.code.1 = id;
                    self.codes.push((id, String::new()));
                }
                self.code.0 += 1;
            }
            b"table" => {
                self.mark_layout();
                let id = self.tables.len() as u32;
                self.tables.push(TableInfo {
                    depth: self.item_depth(),
                    ..TableInfo::default()
                });
                self.open_tables.push(OpenTable {
                    id,
                    ..OpenTable::default()
                });
            }
            b"thead" | b"tbody" | b"tfoot" => {
                if let Some(t) = self.open_tables.last_mut() {
                    t.head = name == b"thead";
                }
            }
            b"tr" => {
                if let Some(t) = self.open_tables.last_mut() {
                    let row = t.row.map_or(0, |r| r + 1);
                    t.row = Some(row);
                    t.col = 0;
                    t.cell = None;
                    t.down.retain(|&(_, _, last)| last >= row);
                }
            }
            b"td" | b"th" => {
                if let Some(t) = self.open_tables.last_mut() {
                    if t.row.is_none() {
                        t.row = Some(0);
                        t.col = 0;
                    }
                    let col = t.free_from(t.col, t.row.unwrap_or(0));
                    t.cell = Some((col, t.head || name == b"th"));
                    t.col = col + 1;
                    t.span = (None, None);
                    if let Some(info) = self.tables.get_mut(t.id as usize) {
                        info.cols = info.cols.max(t.col);
                    }
                    self.reading = Some(Reading::Span);
                }
            }
            _ => {}
        }
    }

    fn close(&mut self, name: &[u8], tag: Tag) {
        self.confirm_lists(name, false);
        self.paragraph = self.bump();
        self.code_break();
        self.broken = false;
        if tag.is_heading() {
            self.heading = None;
            return;
        }
        match name {
            b"ul" | b"ol" | b"menu" => {
                self.lists.pop();
            }
            b"li" => {
                if self.lists.last().is_some_and(|l| l.implied) {
                    self.lists.pop();
                } else if let Some(list) = self.lists.last_mut() {
                    list.item = None;
                }
            }
            b"blockquote" => {
                self.quotes.pop();
            }
            _ if tag == Tag::Pre => self.code.0 = self.code.0.saturating_sub(1),
            b"table" => {
                self.open_tables.pop();
            }
            b"tr" | b"td" | b"th" => {
                if let Some(t) = self.open_tables.last_mut() {
                    t.cell = None;
                }
            }
            b"thead" => {
                if let Some(t) = self.open_tables.last_mut() {
                    t.head = false;
                }
            }
            _ => {}
        }
    }

    fn line(&mut self, at: usize) {
        self.resumed = false;
        let (flow, id) = if self.code.0 > 0 {
            let depth = self.item_depth();
            (Flow::Code { depth }, self.code.1)
        } else if let Some((level, id)) = self.heading {
            (Flow::Heading(level), id)
        } else if let Some((list, id)) = self.lists.last().and_then(|l| l.item.map(|id| (*l, id))) {
            let depth = u8::try_from(self.lists.len()).unwrap_or(u8::MAX);
            let ordered = list.ordered;
            let start = list.start.filter(|&n| ordered && n != 1);
            (
                Flow::Item {
                    depth,
                    ordered,
                    start,
                    quote: list.quote,
                },
                id,
            )
        } else if let Some(&id) = self.quotes.last() {
            let quote = self.quote_depth().saturating_sub(1);
            (Flow::Quote { quote }, id)
        } else {
            (Flow::Paragraph, self.paragraph)
        };
        let cell = self.open_tables.last().and_then(|t| {
            let (col, header) = t.cell?;
            Some(Cell {
                table: t.id,
                row: t.row.unwrap_or(0),
                col,
                header,
            })
        });
        let broken = std::mem::take(&mut self.broken);
        self.marks.push(Mark {
            at,
            flow,
            id,
            cell,
            broken,
        });
    }

    fn code_text(&mut self, value: &str) {
        if self.code.0 == 0 {
            return;
        }
        if let Some((_, text)) = self.codes.last_mut() {
            text.push_str(value);
        }
    }

    fn line_break(&mut self) {
        self.broken = true;
        if self.code.0 > 0
            && let Some((_, text)) = self.codes.last_mut()
        {
            text.push('\n');
        }
    }

    fn wants_attributes(&self) -> bool {
        self.reading.is_some()
    }

    /// The first `start` of an `<ol>` or `value` of its first `<li>`
    /// (a browser keeps the first of two alike): the list's start when it
    /// is a number Markdown can write.
    fn attribute(&mut self, name: &[u8], value: &[u8]) {
        let wanted = match self.reading {
            Some(Reading::Start) => b"start".as_slice(),
            Some(Reading::Value) => b"value".as_slice(),
            Some(Reading::Span) => return self.span(name, value),
            None => return,
        };
        if name != wanted {
            return;
        }
        self.reading = None;
        if let Some(n) = list_number(value)
            && let Some(list) = self.lists.last_mut()
        {
            list.start = Some(n);
        }
    }
}

impl Builder {
    /// A cell's `colspan` or `rowspan` (the first of two alike, as a
    /// browser reads them; a value it would not take counts as 1): the
    /// cell takes its columns, and the rows below it, so that the cells
    /// after it are in their own columns. A spanned column is left empty.
    fn span(&mut self, name: &[u8], value: &[u8]) {
        let Some(t) = self.open_tables.last_mut() else {
            return;
        };
        let Some((col, _)) = t.cell else {
            return;
        };
        let row = t.row.unwrap_or(0);
        let n = |max: u32| {
            list_number(value)
                .filter(|&n| n >= 1)
                .map_or(1, |n| n.min(max))
        };
        match name {
            b"colspan" if t.span.0.is_none() => {
                let cols = n(COLSPAN_MAX);
                t.span.0 = Some(cols);
                t.col = col.saturating_add(cols);
                if let Some(rows) = t.span.1.filter(|&r| r > 1)
                    && let Some(down) = t.down.last_mut()
                {
                    *down = (col, cols, row + rows - 1);
                }
                if let Some(info) = self.tables.get_mut(t.id as usize) {
                    info.cols = info.cols.max(t.col);
                }
            }
            b"rowspan" if t.span.1.is_none() => {
                let rows = n(ROWSPAN_MAX);
                t.span.1 = Some(rows);
                if rows > 1 {
                    let cols = t.span.0.unwrap_or(1);
                    t.down.push((col, cols, row + rows - 1));
                }
            }
            _ => {}
        }
    }
}

/// The most columns a cell spans, and rows (as a browser takes them).
const COLSPAN_MAX: u32 = 1000;
const ROWSPAN_MAX: u32 = 65534;

/// An `<ol start>` or `<li value>` as a browser reads it (whitespace,
/// digits, whatever follows them ignored), when it is a number a Markdown
/// list can start at: 0 to 999999999 (a browser counts from a negative one
/// too).
fn list_number(value: &[u8]) -> Option<u32> {
    let value = value.trim_ascii_start();
    let value = value.strip_prefix(b"+").unwrap_or(value);
    let digits = value.iter().take_while(|b| b.is_ascii_digit());
    let mut n: u64 = 0;
    for &d in digits {
        n = n * 10 + u64::from(d - b'0');
        if n > 999_999_999 {
            return None;
        }
    }
    match value.first() {
        Some(d) if d.is_ascii_digit() => u32::try_from(n).ok(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Anchors, render_structured};
    use super::*;

    /// A table with a header row, of these rows.
    fn headed_table<const N: usize>(rows: &[[&str; N]]) -> Block {
        Block::Table {
            depth: 0,
            header: true,
            rows: rows
                .iter()
                .map(|r| r.iter().map(|c| c.to_string()).collect())
                .collect(),
        }
    }

    fn blocks_in(html: &str, ranges: &[(usize, usize)]) -> (String, Vec<Block>) {
        let mut out = String::new();
        let mut builder = Builder::default();
        render_structured(html, ranges, Anchors::Keep, &mut out, &mut builder);
        let blocks = builder.blocks(&out, &[]);
        (out, blocks)
    }

    fn blocks_of(html: &str) -> Vec<Block> {
        blocks_in(html, &[(0, html.len())]).1
    }

    fn para(text: &str) -> Block {
        Block::Paragraph { text: text.into() }
    }

    #[test]
    fn headings_carry_their_level() {
        let blocks = blocks_of("<h1>Top</h1><p>a</p><h3>Deep <b>one</b></h3>");
        assert_eq!(
            blocks,
            [
                Block::Heading {
                    level: 1,
                    text: "Top".into()
                },
                para("a"),
                Block::Heading {
                    level: 3,
                    text: "Deep one".into()
                },
            ]
        );
    }

    #[test]
    fn paragraphs_part_at_block_tags_and_keep_their_broken_lines() {
        let blocks = blocks_of("<p>one<br>two</p><div>three <i>four</i></div>five");
        assert_eq!(blocks, [para("one\ntwo"), para("three four"), para("five")]);
    }

    #[test]
    fn list_items_carry_their_depth_and_whether_they_are_numbered() {
        let item = |depth, ordered, text: &str| Block::ListItem {
            depth,
            ordered,
            start: None,
            quote: 0,
            text: text.into(),
        };
        let blocks = blocks_of(
            "<ul><li>a<ol><li>b</li><li>c<p>more</p></li></ol></li><li>d</li></ul><p>after</p>",
        );
        assert_eq!(
            blocks,
            [
                item(1, false, "a"),
                item(2, true, "b"),
                item(2, true, "c\nmore"),
                item(1, false, "d"),
                para("after"),
            ]
        );
    }

    /// Text after a nested list, in the item that holds the list, is that
    /// item's: a block of its own would be numbered as the next item.
    #[test]
    fn text_after_a_nested_list_goes_on_with_its_item() {
        let item = |depth, ordered, text: &str| Block::ListItem {
            depth,
            ordered,
            start: None,
            quote: 0,
            text: text.into(),
        };
        let blocks = blocks_of(
            "<ol><li>a<ul><li>b</li></ul>then a, still<p>and more</p></li><li>c</li></ol>",
        );
        assert_eq!(
            blocks,
            [
                item(1, true, "a\nthen a, still\nand more"),
                item(2, false, "b"),
                item(1, true, "c"),
            ]
        );
    }

    /// `<ol start>` (or `value` on a list's first `<li>`) goes on each
    /// item of that list, and not on those of a list inside it; a start of
    /// 1, a bullet list's or one that is no number Markdown can write
    /// goes nowhere.
    #[test]
    fn an_ordered_lists_start_goes_on_each_of_its_items() {
        let item = |depth, ordered, start, text: &str| Block::ListItem {
            depth,
            ordered,
            start,
            quote: 0,
            text: text.into(),
        };
        let blocks = blocks_of(
            "<ol start=\"5\"><li>a</li><li>b<ol><li>c</li></ol></li></ol>\
             <p>-</p><ol start=1><li>d</li></ol><ol><li value=' 0'>e</li><li value=9>f</li></ol>\
             <p>-</p><ul start=4><li>g</li></ul><ol start=-2><li>h</li></ol>\
             <ol start=1234567890><li>i</li></ol><ol start=7 start=8><li value=2>j</li></ol>",
        );
        assert_eq!(
            blocks,
            [
                item(1, true, Some(5), "a"),
                item(1, true, Some(5), "b"),
                item(2, true, None, "c"),
                para("-"),
                item(1, true, None, "d"),
                item(1, true, Some(0), "e"),
                item(1, true, Some(0), "f"),
                para("-"),
                item(1, false, None, "g"),
                item(1, true, None, "h"),
                item(1, true, None, "i"),
                item(1, true, Some(2), "j"),
            ]
        );
    }

    /// A run that starts at a list's second item still knows the list's
    /// start from the tags above it.
    #[test]
    fn a_run_starting_inside_a_numbered_list_knows_its_start() {
        let html = "<p>menu</p><ol start=\"3\"><li>first</li>\n<li>second</li></ol>";
        let second = html.rfind("<li>").unwrap_or(0);
        let (text, blocks) = blocks_in(html, &[(second, html.len())]);
        assert_eq!(text, "second");
        assert_eq!(
            blocks,
            [Block::ListItem {
                depth: 1,
                ordered: true,
                start: Some(3),
                quote: 0,
                text: "second".into()
            }]
        );
    }

    /// A run after a dropped stretch inside an ordered list (a line the
    /// selection left out) is still in that list, and numbered.
    #[test]
    fn a_run_after_a_gap_in_an_ordered_list_is_still_ordered() {
        let html = "<ol start=\"4\"><li>first</li>\n<li>menu</li>\n<li>third</li></ol><p>after</p>";
        let menu = html.find("<li>menu").unwrap_or(0);
        let third = html.find("<li>third").unwrap_or(0);
        let (text, blocks) = blocks_in(html, &[(0, menu), (third, html.len())]);
        assert_eq!(text, "first\nthird\nafter");
        let item = |text: &str| Block::ListItem {
            depth: 1,
            ordered: true,
            start: Some(4),
            quote: 0,
            text: text.into(),
        };
        assert_eq!(blocks, [item("first"), item("third"), para("after")]);
        // A list left unclosed is not the next run's when that starts
        // elsewhere.
        let html = "<ol><li>first\n<div>menu</div>\n<h2>Next</h2><p>text</p>";
        let menu = html.find("<div>").unwrap_or(0);
        let next = html.find("<h2>").unwrap_or(0);
        let (_, blocks) = blocks_in(html, &[(0, menu), (next, html.len())]);
        assert_eq!(
            blocks[1..],
            [
                Block::Heading {
                    level: 2,
                    text: "Next".into()
                },
                para("text")
            ]
        );
    }

    /// Code and a table in a list item carry the item's depth, and the
    /// item goes on after them; outside an item they carry none.
    #[test]
    fn code_and_tables_in_an_item_carry_its_depth() {
        let item = |depth, text: &str| Block::ListItem {
            depth,
            ordered: true,
            start: None,
            quote: 0,
            text: text.into(),
        };
        let blocks = blocks_of(
            "<ol><li>one<pre>x</pre></li><li>two<ol><li>three\
             <table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>\
             </li></ol></li></ol><pre>y</pre>",
        );
        let code = |depth, text: &str| Block::Code {
            depth,
            text: text.into(),
        };
        let table = Block::Table {
            depth: 2,
            header: false,
            rows: vec![vec!["a".into(), "b".into()], vec!["c".into(), "d".into()]],
        };
        assert_eq!(
            blocks,
            [
                item(1, "one"),
                code(1, "x"),
                item(1, "two"),
                item(2, "three"),
                table,
                code(0, "y"),
            ]
        );
    }

    /// A list nested in a quoted list that a run reopened after a gap is
    /// in that quote too, though the quote's tag is above the context.
    #[test]
    fn a_list_nested_in_a_quoted_list_after_a_gap_is_quoted() {
        let html = "<blockquote><ol><li>one</li>\n<li>menu</li>\n\
                    <li>two<ul><li>inner</li></ul></li></ol></blockquote>";
        let menu = html.find("<li>menu").unwrap_or(0);
        let two = html.find("<li>two").unwrap_or(0);
        let (_, blocks) = blocks_in(html, &[(0, menu), (two, html.len())]);
        let item = |depth, ordered, text: &str| Block::ListItem {
            depth,
            ordered,
            start: None,
            quote: 1,
            text: text.into(),
        };
        assert_eq!(
            blocks,
            [
                item(1, true, "one"),
                item(1, true, "two"),
                item(2, false, "inner")
            ]
        );
    }

    /// A run after lines left out of a quote is still in that quote,
    /// as one after lines left out of a list is in the list.
    #[test]
    fn a_run_after_a_gap_in_a_quote_is_still_quoted() {
        let html = "<blockquote><p>a</p><blockquote><p>b</p>\n<p>menu</p>\n\
                    <ul><li>c</li></ul><p>d</p></blockquote><p>e</p></blockquote><p>f</p>";
        let menu = html.find("<p>menu").unwrap_or(0);
        let list = html.find("<ul>").unwrap_or(0);
        let (text, blocks) = blocks_in(html, &[(0, menu), (list, html.len())]);
        assert_eq!(text, "a\nb\nc\nd\ne\nf");
        let quote = |quote, text: &str| Block::Quote {
            quote,
            text: text.into(),
        };
        let item = Block::ListItem {
            depth: 1,
            ordered: false,
            start: None,
            quote: 2,
            text: "c".into(),
        };
        assert_eq!(
            blocks,
            [
                quote(0, "a"),
                quote(1, "b"),
                item,
                quote(1, "d"),
                quote(0, "e"),
                para("f")
            ]
        );
    }

    #[test]
    fn a_data_table_keeps_its_rows_and_cells_and_its_header() {
        let blocks = blocks_of(
            "<table><thead><tr><th>Name</th><th>Size</th></tr></thead>\
             <tr><td>a<br>b</td><td>1</td></tr><tr><td>c</td></tr></table>",
        );
        let rows = [["Name", "Size"], ["a\nb", "1"], ["c", ""]];
        assert_eq!(blocks, [headed_table(&rows)]);
        let Block::Table { header, .. } =
            &blocks_of("<table><tr><td>x</td><td>y</td><tr><td>z</td><td>w</td></table>")[0]
        else {
            panic!("no table");
        };
        assert!(!header);
    }

    /// The row in a table's `<thead>` is its header, `<td>` cells too;
    /// a row of `<td>` after it, in a `<tbody>` or none, is not.
    #[test]
    fn a_row_in_the_tables_thead_is_its_header() {
        let header = |html: &str| match &blocks_of(html)[..] {
            [Block::Table { header, .. }] => *header,
            other => panic!("{other:?}"),
        };
        let body = "<tr><td>a</td><td>1</td></tr><tr><td>b</td><td>2</td></tr>";
        assert!(header(&format!(
            "<table><thead><tr><td>Name</td><td>Size</td></tr></thead><tbody>{body}</tbody></table>"
        )));
        assert!(header(&format!(
            "<table><thead><tr><td>Name</td><td>Size</td></tr></thead>{body}</table>"
        )));
        assert!(!header(&format!(
            "<table><thead></thead><tr><td>Name</td><td>Size</td></tr>{body}</table>"
        )));
        assert!(!header(&format!(
            "<table><tbody><tr><td>Name</td><td>Size</td></tr>{body}</tbody></table>"
        )));
    }

    /// A cell spanning columns or rows takes them: the cells after it
    /// and below it stay in their own columns, and the columns it spans
    /// are empty. A `colspan` or `rowspan` a browser would not take counts
    /// as 1, and of two alike the first counts.
    #[test]
    fn a_cell_spanning_columns_or_rows_keeps_the_others_in_their_columns() {
        let blocks = blocks_of(
            "<table><tr><th>k</th><th>a</th><th>b</th><th>c</th></tr>\
             <tr><td rowspan=\"2\">x</td><td>1</td><td>2</td><td>3</td></tr>\
             <tr><td colspan=2 rowspan=2>4</td><td>5</td></tr>\
             <tr><td>y</td><td>6</td></tr>\
             <tr><td rowspan=3 colspan=2>z</td><td colspan=0 colspan=2>7</td></tr>\
             <tr><td colspan=x>8</td><td>9</td></tr></table>",
        );
        let rows = [
            ["k", "a", "b", "c"],
            ["x", "1", "2", "3"],
            ["", "4", "", "5"],
            ["y", "", "", "6"],
            ["z", "", "7", ""],
            ["", "", "8", "9"],
        ];
        assert_eq!(blocks, [headed_table(&rows)]);
    }

    /// A column no row has text in (a spacer cell) is no column of the
    /// table's.
    #[test]
    fn a_data_table_leaves_out_its_empty_columns() {
        let blocks = blocks_of(
            "<table><tr><td>a</td><td>&nbsp;</td><td>1</td></tr>\
             <tr><td>b</td><td></td><td>2</td></tr></table>",
        );
        let rows = vec![
            vec!["a".to_string(), "1".into()],
            vec!["b".into(), "2".into()],
        ];
        assert_eq!(
            blocks,
            [Block::Table {
                depth: 0,
                header: false,
                rows
            }]
        );
    }

    /// Text in one row or one column of a table is no data: a byline set
    /// beside spacer cells, a row of two captions, a bar of labels.
    #[test]
    fn a_table_with_text_in_one_row_or_one_column_is_read_as_flow_text() {
        assert_eq!(
            blocks_of(
                "<table><tr><td>&nbsp;</td><td></td><td>By Ann Lee<br>Science writer</td></tr></table>"
            ),
            [para("By Ann Lee\nScience writer")]
        );
        assert_eq!(
            blocks_of(
                "<table><tr><td>Courtesy: the club</td><td>Release: 01/10/2008</td></tr></table>"
            ),
            [para("Courtesy: the club"), para("Release: 01/10/2008")]
        );
        assert_eq!(
            blocks_of(
                "<table><tr><td></td><td>first</td></tr><tr><td></td><td>second</td></tr></table>"
            ),
            [para("first"), para("second")]
        );
    }

    /// A table that lays out a page (a cell holding a list, a heading or
    /// another table), or has one column, is read as flow text.
    #[test]
    fn a_layout_table_is_read_as_flow_text() {
        let blocks = blocks_of(
            "<table><tr><td><h2>Story</h2><p>Text</p></td><td><ul><li>menu</li></ul></td></tr></table>",
        );
        assert_eq!(
            blocks,
            [
                Block::Heading {
                    level: 2,
                    text: "Story".into()
                },
                para("Text"),
                Block::ListItem {
                    depth: 1,
                    ordered: false,
                    start: None,
                    quote: 0,
                    text: "menu".into()
                },
            ]
        );
        assert_eq!(
            blocks_of("<table><tr><td>one</td></tr><tr><td>two</td></tr></table>"),
            [para("one"), para("two")]
        );
    }

    #[test]
    fn code_keeps_its_indentation_where_the_text_does_not() {
        let html =
            "<p>Run:</p><pre><code>\nfn main() {\n    let x = 1;<br>\tx &lt; 2\n}\n</code></pre>";
        let (text, blocks) = blocks_in(html, &[(0, html.len())]);
        assert_eq!(text, "Run:\nfn main() {\nlet x = 1;\nx < 2\n}");
        assert_eq!(
            blocks,
            [
                para("Run:"),
                Block::Code {
                    depth: 0,
                    text: "fn main() {\n    let x = 1;\n\tx < 2\n}".into()
                }
            ]
        );
    }

    #[test]
    fn a_quote_gathers_its_paragraphs() {
        let blocks = blocks_of("<blockquote><p>One.</p><p>Two.</p></blockquote><p>Three.</p>");
        assert_eq!(
            blocks,
            [
                Block::Quote {
                    quote: 0,
                    text: "One.\n\nTwo.".into()
                },
                para("Three.")
            ]
        );
    }

    /// A list in a quote carries the quote, and a quote in a quote is a
    /// block of its own, as is the outer quote's text after it.
    #[test]
    fn a_list_or_quote_inside_a_quote_carries_the_quotes_around_it() {
        let blocks = blocks_of(
            "<blockquote><p>a</p><ul><li>b</li></ul><blockquote>c</blockquote>d</blockquote>\
             <ul><li><blockquote>e</blockquote></li></ul>",
        );
        let quote = |quote, text: &str| Block::Quote {
            quote,
            text: text.into(),
        };
        let item = |quote, text: &str| Block::ListItem {
            depth: 1,
            ordered: false,
            start: None,
            quote,
            text: text.into(),
        };
        assert_eq!(
            blocks,
            [
                quote(0, "a"),
                item(1, "b"),
                quote(1, "c"),
                quote(0, "d"),
                item(0, "e"),
            ]
        );
    }

    /// A `<br>` in a quote breaks a line of its paragraph: a line end in
    /// the quote's text, where its paragraphs are apart by an empty line.
    #[test]
    fn a_line_break_in_a_quote_is_no_new_paragraph_of_it() {
        let blocks = blocks_of(
            "<blockquote><p>Roses are red,<br>violets blue.</p>\
             <p>So it goes</p>and so<br/>on.</blockquote>",
        );
        assert_eq!(
            blocks,
            [Block::Quote {
                quote: 0,
                text: "Roses are red,\nviolets blue.\n\nSo it goes\n\nand so\non.".into()
            }]
        );
    }

    #[test]
    fn what_the_text_leaves_out_the_blocks_leave_out() {
        let blocks = blocks_of(
            "<p>Before.</p><figure><img src=a.jpg><figcaption><p>A caption</p></figcaption></figure>\
             <ul><li>kept<script>no()</script></li><aside><li>box</li></aside></ul><p>After.</p>",
        );
        assert_eq!(
            blocks,
            [
                para("Before."),
                Block::ListItem {
                    depth: 1,
                    ordered: false,
                    start: None,
                    quote: 0,
                    text: "kept".into()
                },
                para("After.")
            ]
        );
    }

    #[test]
    fn lines_dropped_from_the_text_are_dropped_from_the_blocks() {
        let html = "<p>one</p><p>two</p><p>three</p>";
        let mut out = String::new();
        let mut builder = Builder::default();
        render_structured(
            html,
            &[(0, html.len())],
            Anchors::Keep,
            &mut out,
            &mut builder,
        );
        // "two\n", the second line of "one\ntwo\nthree".
        let dropped = [std::ops::Range { start: 4, end: 8 }];
        assert_eq!(builder.blocks(&out, &dropped), [para("one"), para("three")]);
    }

    /// A chosen run starts at its first line with text; the list and the
    /// table opened above it (the table's header row left out) are still
    /// its context.
    #[test]
    fn a_run_starting_inside_a_list_or_table_is_still_in_it() {
        let html = "<p>menu</p>\n<ul>\n  <li>first</li><li>second</li></ul><p>gap</p>\
                    <table><thead><tr><th>x</th><th>y</th></tr></thead><tbody>\n\
                    <tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>";
        let li = html.find("<li>").unwrap_or(0);
        let gap = html.find("<p>gap").unwrap_or(0);
        let tr = html.find("<tr><td>").unwrap_or(0);
        let (text, blocks) = blocks_in(html, &[(li, gap), (tr, html.len())]);
        assert_eq!(text, "first\nsecond\na\nb\nc\nd");
        let item = |text: &str| Block::ListItem {
            depth: 1,
            ordered: false,
            start: None,
            quote: 0,
            text: text.into(),
        };
        let table = Block::Table {
            depth: 0,
            header: false,
            rows: vec![vec!["a".into(), "b".into()], vec!["c".into(), "d".into()]],
        };
        assert_eq!(blocks, [item("first"), item("second"), table]);
        assert_eq!(context_before(html, 0, li), "<p>menu</p>\n<ul>\n  ");
        assert_eq!(context_before(html, 5, li), "</p>\n<ul>\n  ");
    }

    /// Pieces of structured markup for the proptest below.
    const PIECES: &[&str] = &[
        "<ul>",
        "</ul>",
        "<ol>",
        "</ol>",
        "<li>",
        "</li>",
        "<table>",
        "</table>",
        "<tr>",
        "</tr>",
        "<td>",
        "</td>",
        "<th>",
        "</th>",
        "<pre>",
        "</pre>",
        "<blockquote>",
        "</blockquote>",
        "<h2>",
        "</h2>",
        "<p>",
        "</p>",
        "<br>",
        "<figcaption>",
        "</figcaption>",
        "<script>",
        "</script>",
        "<div>",
        "</div>",
        "word",
        "two words",
        "  \n  ",
        "\n    indented",
        "&amp;",
        "<b>",
        "</b>",
    ];

    fn structured_soup() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::strategy::Strategy;
        proptest::collection::vec(proptest::sample::select(PIECES), 0..60)
            .prop_map(|parts| parts.concat())
    }

    proptest::proptest! {
        /// Every line of a block (but code, which keeps its whitespace)
        /// is a line of the text, and every line of the text is in a
        /// block: the blocks are the text, structured.
        #[test]
        fn blocks_hold_the_lines_of_the_text_and_nothing_else(html in structured_soup()) {
            let (text, blocks) = blocks_in(&html, &[(0, html.len())]);
            let text_lines: Vec<&str> = text.split('\n').filter(|l| !l.is_empty()).collect();
            // Each block line, and whether it is code's.
            let mut block_lines: Vec<(bool, String)> = Vec::new();
            for block in &blocks {
                let code = matches!(block, Block::Code { .. });
                let lines: Vec<String> = match block {
                    Block::Code { text, .. } => text
                        .split('\n')
                        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
                        .collect(),
                    Block::Table { rows, .. } => rows
                        .iter()
                        .flatten()
                        .flat_map(|c| c.split('\n'))
                        .map(str::to_string)
                        .collect(),
                    Block::Heading { text, .. }
                    | Block::Paragraph { text }
                    | Block::ListItem { text, .. }
                    | Block::Quote { text, .. } => text.split('\n').map(str::to_string).collect(),
                };
                block_lines.extend(lines.into_iter().map(|l| (code, l)));
            }
            for line in &text_lines {
                proptest::prop_assert!(
                    block_lines.iter().any(|(_, b)| b == line),
                    "{:?}: text line {:?} in no block of {:?}", html, line, blocks
                );
            }
            for (code, line) in &block_lines {
                if !code && !line.is_empty() {
                    proptest::prop_assert!(
                        text_lines.contains(&line.as_str()),
                        "{:?}: block line {:?} not in the text {:?}", html, line, text
                    );
                }
            }
        }
    }
}
