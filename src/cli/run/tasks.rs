//! The task lists of `linesift run`: each line told apart as a URL, a
//! WARC record (`path offset length`) or a WARC file path, and parsed by
//! the same code as `linesift enqueue`'s (so a line has the same task id
//! either way). Reads and parses; runs nothing.

use crate::cli::printable_path;
use anyhow::Context;
use linesift::proto::Task;
use linesift::worker::cdx::{IndexOptions, IndexParser, looks_like_index};
use linesift::worker::enqueue::{LineError, LineKind, task_of_line};
use std::collections::HashSet;
use std::io::Read;
use std::path::{Path, PathBuf};

/// One line of a list that is a task, or meant to be one.
#[derive(Debug)]
pub struct Planned {
    /// The task's id (BLAKE3 of the line, as `enqueue` gives it), also
    /// the journal's key: the same line in any list, at any place, is the
    /// same task.
    pub id: String,
    /// `list:line`, for messages.
    pub place: String,
    /// The task, or why the line is none.
    pub task: Result<Task, String>,
}

/// The tasks of all lists, in order, and how many lines repeated a task
/// already listed (done once).
pub struct Plan {
    pub tasks: Vec<Planned>,
    pub duplicates: usize,
}

/// Reads every list (`-`: stdin; gzip told by its bytes and
/// decompressed) and parses its lines; blank lines and
/// `#` comments are no tasks. A list whose first line is an index entry
/// or header (see `cdx`) is read as Common Crawl's index, with `index`'s
/// prefix and filters. A list that cannot be read is an error.
pub fn read(lists: &[PathBuf], index: &IndexOptions) -> anyhow::Result<Plan> {
    let mut plan = Plan {
        tasks: Vec::new(),
        duplicates: 0,
    };
    let mut seen = HashSet::new();
    let mut indexes = 0;
    for list in lists {
        let name = list.to_string_lossy();
        let shown = printable_path(list);
        let bytes = read_list(list).with_context(|| format!("reading the task list {shown}"))?;
        let mut parser = is_index(&bytes).then(|| IndexParser::new(index.clone()));
        indexes += usize::from(parser.is_some());
        for (number, line) in bytes.split(|&b| b == b'\n').enumerate() {
            let planned = match &mut parser {
                Some(parser) => plan_index_line(parser, &name, number + 1, line),
                None => plan_line(&name, number + 1, line),
            };
            let Some(planned) = planned else {
                continue;
            };
            if seen.insert(planned.id.clone()) {
                plan.tasks.push(planned);
            } else {
                plan.duplicates += 1;
            }
        }
        if let Some(filtered) = parser.map(|p| p.filtered).filter(|n| *n > 0) {
            say!(
                "linesift run: {shown}: {filtered} index entries passed over (not of --status/--mime)"
            );
        }
    }
    if indexes == 0 && *index != IndexOptions::default() {
        say!(
            "linesift run: --warc-prefix, --status and --mime apply to index lists, and no list is one"
        );
    }
    Ok(plan)
}

/// Whether a list is an index: its first line that is not blank or a
/// comment is an index entry or header.
fn is_index(bytes: &[u8]) -> bool {
    let first = bytes
        .split(|&b| b == b'\n')
        .map(|l| {
            String::from_utf8_lossy(l)
                .trim()
                .trim_start_matches('\u{feff}')
                .to_string()
        })
        .find(|l| !l.is_empty() && !l.starts_with('#'));
    first.is_some_and(|l| looks_like_index(&l))
}

/// An index's line `number` as a planned task; `None` for a line that is
/// none (blank, a comment, the header, an entry filtered out).
fn plan_index_line(
    parser: &mut IndexParser,
    name: &str,
    number: usize,
    line: &[u8],
) -> Option<Planned> {
    planned(name, number, line, parser.parse(line, number))
}

fn read_list(list: &Path) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    if list == Path::new("-") {
        std::io::stdin().lock().read_to_end(&mut bytes)?;
    } else {
        std::fs::File::open(list)?.read_to_end(&mut bytes)?;
    }
    crate::cli::list::decoded(bytes)
}

/// The task on line `number` of list `name`; `None` for a blank line or a
/// comment.
fn plan_line(name: &str, number: usize, line: &[u8]) -> Option<Planned> {
    let text = String::from_utf8_lossy(line);
    let kind = kind_of(text.trim());
    planned(name, number, line, task_of_line(line, kind, number))
}

/// A parsed line of list `name` as a planned task (or a bad line, done
/// once as its failure record).
fn planned(
    name: &str,
    number: usize,
    line: &[u8],
    parsed: Result<Option<Task>, LineError>,
) -> Option<Planned> {
    let place = format!("{name}:{number}");
    match parsed {
        Ok(None) => None,
        Ok(Some(task)) => Some(Planned {
            id: task.id.clone(),
            place,
            task: Ok(task),
        }),
        Err(e) => Some(Planned {
            // Not a task, but done once all the same: its failure record
            // is written once, however often the run is resumed.
            id: format!("line-{}", &blake3::hash(line.trim_ascii()).to_hex()[..24]),
            place,
            task: Err(e.reason),
        }),
    }
}

/// What a line is: a record when it is three fields whose last two are
/// numbers (`path offset length`, the path local or remote), a remote
/// WARC file when it is an `s3://` location or a URL whose path ends in
/// `.warc`, `.warc.gz` or `.warc.zst`, a URL to fetch when it starts with
/// another scheme (`http://`; any other scheme is a bad line), a file
/// path otherwise.
pub fn kind_of(line: &str) -> LineKind {
    let scheme = line.split_once("://").map(|(scheme, _)| scheme);
    let is_scheme = |s: &str| {
        s.starts_with(|c: char| c.is_ascii_alphabetic())
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    };
    let fields: Vec<&str> = line.split_whitespace().collect();
    let number = |s: &str| s.parse::<u64>().is_ok();
    match fields.as_slice() {
        [_, offset, length] if number(offset) && number(length) => LineKind::WarcRecords,
        [one] if linesift::remote::names_warc(one) => LineKind::WarcFiles,
        _ if scheme.is_some_and(is_scheme) => LineKind::Urls,
        _ => LineKind::WarcFiles,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_told_apart_by_scheme_and_fields() {
        assert_eq!(kind_of("https://example.org/a b"), LineKind::Urls);
        assert_eq!(kind_of("ftp://example.org/"), LineKind::Urls);
        assert_eq!(kind_of("data/a.warc.gz 3116 1547"), LineKind::WarcRecords);
        assert_eq!(kind_of("data/a.warc.gz"), LineKind::WarcFiles);
        assert_eq!(kind_of("my crawl.warc.gz"), LineKind::WarcFiles);
        assert_eq!(kind_of("a.warc.gz 12 x"), LineKind::WarcFiles);
        assert_eq!(kind_of("C:/a://b"), LineKind::WarcFiles);
        assert_eq!(
            kind_of("https://h/a.warc.gz 3116 1547"),
            LineKind::WarcRecords
        );
        assert_eq!(kind_of("https://h/a.warc.gz"), LineKind::WarcFiles);
        assert_eq!(kind_of("s3://bucket/a"), LineKind::WarcFiles);
        assert_eq!(kind_of("https://h/a.warc.gz?page=2"), LineKind::Urls);
    }

    #[test]
    fn a_bad_line_is_planned_with_its_place_and_reason() {
        let planned = plan_line("list.txt", 3, b"ftp://example.org/").expect("a line");
        assert_eq!(planned.place, "list.txt:3");
        let reason = planned.task.expect_err("a bad line");
        assert!(reason.contains("scheme ftp"), "{reason}");
        assert!(plan_line("list.txt", 4, b"  # a comment").is_none());
        assert!(plan_line("list.txt", 5, b"\r").is_none());
    }
}
