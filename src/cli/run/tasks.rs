//! The task lists of `linesift run`: each line told apart as a URL, a
//! WARC record (`path offset length`) or a WARC file path, and parsed by
//! the same code as `linesift enqueue`'s (so a line has the same task id
//! either way). Reads and parses; runs nothing.

use anyhow::Context;
use linesift::proto::Task;
use linesift::worker::enqueue::{LineKind, task_of_line};
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

/// Reads every list (`-`: stdin) and parses its lines; blank lines and
/// `#` comments are no tasks. A list that cannot be read is an error.
pub fn read(lists: &[PathBuf]) -> anyhow::Result<Plan> {
    let mut plan = Plan {
        tasks: Vec::new(),
        duplicates: 0,
    };
    let mut seen = HashSet::new();
    for list in lists {
        let name = list.to_string_lossy();
        let bytes = read_list(list).with_context(|| format!("reading the task list {name}"))?;
        for (index, line) in bytes.split(|&b| b == b'\n').enumerate() {
            let Some(planned) = plan_line(&name, index + 1, line) else {
                continue;
            };
            if seen.insert(planned.id.clone()) {
                plan.tasks.push(planned);
            } else {
                plan.duplicates += 1;
            }
        }
    }
    Ok(plan)
}

fn read_list(list: &Path) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    if list == Path::new("-") {
        std::io::stdin().lock().read_to_end(&mut bytes)?;
    } else {
        std::fs::File::open(list)?.read_to_end(&mut bytes)?;
    }
    Ok(bytes)
}

/// The task on line `number` of list `name`; `None` for a blank line or a
/// comment.
fn plan_line(name: &str, number: usize, line: &[u8]) -> Option<Planned> {
    let text = String::from_utf8_lossy(line);
    let kind = kind_of(text.trim());
    let place = format!("{name}:{number}");
    match task_of_line(line, kind, number) {
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
