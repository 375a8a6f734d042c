//! The hand-made pages in `tests/fixtures/markdown`, each beside the
//! Markdown expected of it (`NAME.md`): nested lists, tables with and
//! without a header row, code, headings of several levels, a quote with
//! inline links, a quote with broken lines, numbered lists that start
//! past 1, a caption left out, a table with cells spanning rows and
//! columns, a table whose header row is `<td>` cells in its `<thead>`,
//! a numbered list with an item of links left out, code and a table
//! inside numbered items, a list and a quote inside a quote. Checked
//! through the library, through
//! `linesift extract --format markdown`, and through `warc` and `run`,
//! which add a `markdown` field to their JSON lines.

use linesift::extract::Block;
use linesift::{Document, Extractor, Hints, Options};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn fixture(name: &str, ext: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/markdown")
        .join(format!("{name}.{ext}"))
}

fn read(name: &str, ext: &str) -> String {
    let path = fixture(name, ext);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The expected Markdown, without the line end the file ends with.
fn expected(name: &str) -> String {
    read(name, "md").trim_end_matches('\n').to_string()
}

fn extract(name: &str, options: Options) -> Document {
    Extractor::new(options)
        .extract(read(name, "html").as_bytes(), &Hints::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The page's document with its blocks.
fn with_blocks(name: &str) -> Document {
    extract(
        name,
        Options {
            blocks: true,
            ..Options::default()
        },
    )
}

/// The page's Markdown is the expected file's, and asking for structure
/// changes nothing of the text.
fn check(name: &str) {
    let plain = extract(name, Options::default());
    let structured = extract(
        name,
        Options {
            markdown: true,
            blocks: true,
            ..Options::default()
        },
    );
    assert_eq!(
        structured.markdown.as_deref(),
        Some(expected(name).as_str()),
        "{name}"
    );
    assert_eq!(structured.text, plain.text, "{name}: the text changed");
    assert_eq!(structured.digest, plain.digest, "{name}");
    assert!(
        plain.blocks.is_empty() && plain.markdown.is_none(),
        "{name}"
    );
    assert!(!structured.blocks.is_empty(), "{name}");
}

#[test]
fn nested_lists_indent_by_depth_and_number_ordered_items() {
    check("nested-lists");
    let doc = with_blocks("nested-lists");
    let depths: Vec<u8> = doc
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::ListItem { depth, .. } => Some(*depth),
            _ => None,
        })
        .collect();
    assert_eq!(depths, [1, 2, 2, 3, 3, 1, 1, 1, 1]);
}

/// Spacer columns are left out, and a table with text in one column
/// is flow text.
#[test]
fn tables_with_and_without_a_header_row_are_pipe_tables() {
    check("tables");
}

/// A cell spanning rows or columns (`rowspan`, `colspan`) leaves the
/// columns it spans empty, and the cells after it and below it stay
/// under their own headers.
#[test]
fn cells_spanning_rows_or_columns_keep_the_others_under_their_headers() {
    check("table-spans");
    let md = expected("table-spans");
    assert!(md.contains("\n|  | the gauge was broken for both of these months |  | forty-nine"));
    assert!(md.contains("stations |  |  | three hundred"));
}

/// A table whose first row is in its `<thead>` has that row as its
/// header, though its cells are `<td>`: no empty header row above it.
#[test]
fn a_row_of_td_in_the_thead_is_the_header_row() {
    check("table-head");
    assert!(expected("table-head").contains(
        "\n\n| The library and where it stands | Its hours on weekdays from June | Its hours on Saturdays from June |\n| --- | --- | --- |\n| Thornby"
    ));
}

#[test]
fn code_keeps_its_indentation_in_a_fence() {
    check("code");
}

#[test]
fn headings_of_four_levels_keep_their_levels() {
    check("headings");
}

#[test]
fn a_quote_is_quoted_and_links_keep_their_text() {
    check("quote");
}

/// `<ol start="5">` goes on numbering from 5 (a list nested in it from
/// its own start), and its items' blocks carry the start; a list from 1
/// carries none.
#[test]
fn an_ordered_list_with_a_start_keeps_its_numbers() {
    check("list-start");
    let doc = with_blocks("list-start");
    let starts: Vec<Option<u32>> = doc
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::ListItem { start, .. } => Some(*start),
            _ => None,
        })
        .collect();
    let (none, five, three) = (None, Some(5), Some(3));
    assert_eq!(
        starts,
        [none, none, none, none, five, five, three, three, five]
    );
    let json = serde_json::to_value(&doc).unwrap_or_default();
    let items: Vec<&Value> = json["blocks"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|b| b["kind"] == "list_item")
        .collect();
    assert!(items[0].get("start").is_none(), "{}", items[0]);
    assert_eq!(items[4]["start"], 5);
}

/// An item of links left out of a numbered list parts the list's lines
/// into two runs; the items after it are still numbered.
#[test]
fn a_numbered_list_stays_numbered_past_an_item_left_out() {
    check("list-gap");
    assert!(!expected("list-gap").contains("Shop"));
}

/// Code and a table inside an ordered item are indented under it, and
/// the list goes on numbering after them; their blocks carry the depth
/// of the item they are in (none at the top level).
#[test]
fn code_and_a_table_inside_a_numbered_item_stay_in_its_list() {
    check("list-code");
    let doc = with_blocks("list-code");
    let depths: Vec<(&str, u8)> = doc
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::ListItem { depth, .. } => Some(("item", *depth)),
            Block::Code { depth, .. } => Some(("code", *depth)),
            Block::Table { depth, .. } => Some(("table", *depth)),
            _ => None,
        })
        .collect();
    assert_eq!(
        depths,
        [
            ("item", 1),
            ("code", 1),
            ("item", 1),
            ("table", 1),
            ("item", 1)
        ]
    );
    let json = serde_json::to_value(&doc).unwrap_or_default();
    let code = json["blocks"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|b| b["kind"] == "code");
    assert_eq!(code.map(|c| c["depth"].clone()), Some(1.into()));
    let top = serde_json::to_value(with_blocks("code")).unwrap_or_default();
    let code = top["blocks"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|b| b["kind"] == "code");
    assert!(code.is_some_and(|c| c.get("depth").is_none()), "{top}");
}

/// A list inside a quote is quoted, and a quote inside a quote is
/// quoted twice; their blocks carry the quotes they are in.
#[test]
fn a_list_and_a_quote_inside_a_quote_stay_quoted() {
    check("quote-list");
    let doc = with_blocks("quote-list");
    let quotes: Vec<(&str, u8)> = doc
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::ListItem { quote, .. } => Some(("item", *quote)),
            Block::Quote { quote, .. } => Some(("quote", *quote)),
            _ => None,
        })
        .collect();
    assert_eq!(
        quotes,
        [
            ("quote", 0),
            ("item", 1),
            ("item", 1),
            ("quote", 1),
            ("quote", 0)
        ]
    );
}

/// A `<br>` in a quote is a hard break in the quote's paragraph; its
/// `<p>`s stay paragraphs of the quote.
#[test]
fn a_line_break_in_a_quote_is_a_hard_break_in_it() {
    check("quote-breaks");
    assert!(expected("quote-breaks").contains("falls,\\\n> the miller"));
}

#[test]
fn a_caption_in_the_chosen_content_is_left_out() {
    check("figcaption");
    assert!(!expected("figcaption").contains("Photo"));
}

/// Blocks are JSON objects tagged by `kind`, with only the fields their
/// kind uses.
#[test]
fn blocks_serialize_with_their_kind() {
    let doc = with_blocks("headings");
    let json = serde_json::to_value(&doc).unwrap_or_default();
    assert_eq!(
        json["blocks"][2],
        serde_json::json!({"kind": "heading", "level": 2, "text": "The upper valley"})
    );
    let plain = serde_json::to_value(extract("headings", Options::default())).unwrap_or_default();
    assert!(plain.get("blocks").is_none() && plain.get("markdown").is_none());
}

fn linesift(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_linesift"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run linesift")
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("markdown-fixtures")
        .join(format!("{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[test]
fn extract_with_format_markdown_prints_the_pages_markdown() {
    for name in [
        "nested-lists",
        "tables",
        "code",
        "list-start",
        "quote-breaks",
        "table-spans",
        "table-head",
        "list-gap",
        "list-code",
        "quote-list",
    ] {
        let page = fixture(name, "html");
        let out = linesift(&["extract", "--format", "markdown", page.to_str().unwrap()]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            read(name, "md"),
            "{name}"
        );
    }
}

#[test]
fn extract_with_format_markdown_refuses_many_inputs() {
    let a = fixture("code", "html");
    let b = fixture("tables", "html");
    let out = linesift(&[
        "extract",
        "--format",
        "markdown",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--format markdown is for one input"));
}

/// A WARC file holding the nested-lists page as its one response.
fn warc_of_nested_lists(dir: &Path) -> PathBuf {
    let page = read("nested-lists", "html");
    let http = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n{page}");
    let record = format!(
        "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:md-1>\r\n\
         WARC-Target-URI: http://valley.example/ridge\r\nWARC-Date: 2024-05-01T00:00:00Z\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n\
         {http}\r\n\r\n",
        http.len()
    );
    let path = dir.join("ridge.warc");
    std::fs::write(&path, record).expect("write warc");
    path
}

fn json_lines(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l:?}: {e}")))
        .collect()
}

/// `warc` and `run` write JSON lines either way: `--format markdown` adds
/// each document's `markdown`, and their default lines hold neither it
/// nor `blocks`.
#[test]
fn warc_and_run_with_format_markdown_add_a_markdown_field() {
    let dir = scratch("warc-run");
    let warc = warc_of_nested_lists(&dir);
    let warc = warc.to_str().unwrap();
    let list = dir.join("tasks.txt");
    std::fs::write(&list, format!("{warc}\n")).expect("write list");
    let list = list.to_str().unwrap();
    let runs: [&[&str]; 2] = [
        &["warc", warc, "-o", "-", "--format"],
        &["run", list, "--format"],
    ];
    for args in runs {
        let with = |format: &str| {
            let mut all = args.to_vec();
            all.push(format);
            let out = linesift(&all);
            assert!(
                out.status.success(),
                "{args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            json_lines(&out)
        };
        let markdown = with("markdown");
        assert_eq!(markdown.len(), 1, "{args:?}");
        assert_eq!(
            markdown[0]["markdown"],
            expected("nested-lists"),
            "{args:?}"
        );
        let plain = with("jsonl");
        assert!(plain[0].get("markdown").is_none(), "{args:?}");
        assert!(plain[0].get("blocks").is_none(), "{args:?}");
        assert_eq!(plain[0]["text"], markdown[0]["text"], "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
