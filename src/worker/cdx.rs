//! Common Crawl's index as task lines: CDXJ or JSON lines (fields
//! `filename`, `offset`, `length`, and `status`, `mime` for filters) and
//! CSV/TSV exports of the columnar index (a header naming
//! `warc_filename`, `warc_record_offset`, `warc_record_length`, and
//! `fetch_status`, `content_mime_type` for filters). Each kept line is a
//! WARC record task, its file name resolved against a prefix. Parses
//! lines; opens and fetches nothing.

use super::enqueue::{LineError, LineKind, LineParser, task_of_line};
use crate::proto::Task;
use serde_json::Value;

/// What an index's lines become: where their files are, which are kept.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IndexOptions {
    /// What a relative file name is resolved against: a URL
    /// (`https://data.commoncrawl.org/`, `s3://commoncrawl/`) or a
    /// directory. None: file names are used as they are.
    pub prefix: Option<String>,
    /// HTTP statuses kept (none: all).
    pub status: Vec<u16>,
    /// MIME types kept, compared without parameters and case (none: all).
    pub mime: Vec<String>,
}

/// The lines of one index file, in order (a CSV/TSV export's header
/// first); counts the lines the filters pass over.
#[derive(Debug)]
pub struct IndexParser {
    options: IndexOptions,
    columns: Option<Columns>,
    /// Lines that were records, but not of a status or type kept.
    pub filtered: usize,
}

/// Where a CSV/TSV export's fields are.
#[derive(Debug, Clone, Copy)]
struct Columns {
    delimiter: u8,
    filename: usize,
    offset: usize,
    length: usize,
    status: Option<usize>,
    mime: Option<usize>,
}

/// One index entry's fields.
#[derive(Debug, Default)]
struct Entry {
    filename: String,
    offset: u64,
    length: u64,
    status: Option<String>,
    mime: Option<String>,
}

const REQUIRED: [&str; 3] = ["warc_filename", "warc_record_offset", "warc_record_length"];

/// Whether `line` opens an index rather than a plain task list: a JSON
/// object (alone or after CDXJ's key and timestamp) with a `filename`,
/// or a CSV/TSV header naming `warc_filename`.
pub fn looks_like_index(line: &str) -> bool {
    match json_part(line) {
        Some(json) => {
            serde_json::from_str::<Value>(json).is_ok_and(|v| v.get("filename").is_some())
        }
        None => header_columns(line).is_ok(),
    }
}

impl IndexParser {
    pub fn new(options: IndexOptions) -> Self {
        IndexParser {
            options,
            columns: None,
            filtered: 0,
        }
    }

    /// The record task of line `number`; `None` for a blank line, a `#`
    /// comment, the header, or an entry the filters pass over.
    pub fn parse(&mut self, line: &[u8], number: usize) -> Result<Option<Task>, LineError> {
        let error = |reason: String| LineError {
            line: number,
            reason,
        };
        let text = std::str::from_utf8(line).map_err(|e| error(format!("not UTF-8 ({e})")))?;
        let text = text.strip_prefix('\u{feff}').unwrap_or(text).trim();
        if text.is_empty() || text.starts_with('#') {
            return Ok(None);
        }
        let entry = match (json_part(text), self.columns) {
            (Some(json), _) => entry_of_json(json),
            (None, Some(columns)) => entry_of_row(text, columns),
            (None, None) => {
                self.columns = Some(self.header(text).map_err(error)?);
                return Ok(None);
            }
        }
        .map_err(error)?;
        if !self.keeps(&entry) {
            self.filtered += 1;
            return Ok(None);
        }
        let path = resolve(self.options.prefix.as_deref(), &entry.filename);
        // The task a `path offset length` line names: the same id, so the
        // same record listed either way is one task.
        let record = format!("{path} {} {}", entry.offset, entry.length);
        task_of_line(record.as_bytes(), LineKind::WarcRecords, number)
    }

    /// Takes a line passed over unread (`--skip`): a header still counts.
    pub fn skipped(&mut self, line: &[u8]) {
        if self.columns.is_some() {
            return;
        }
        let text = String::from_utf8_lossy(line);
        let text = text.trim_start_matches('\u{feff}').trim();
        if json_part(text).is_none() {
            self.columns = header_columns(text).ok();
        }
    }

    /// The header's columns; the filters in use need theirs.
    fn header(&self, line: &str) -> Result<Columns, String> {
        let columns = header_columns(line)?;
        if !self.options.status.is_empty() && columns.status.is_none() {
            return Err("--status needs a fetch_status column, and the header has none".into());
        }
        if !self.options.mime.is_empty() && columns.mime.is_none() {
            return Err("--mime needs a content_mime_type column, and the header has none".into());
        }
        Ok(columns)
    }

    fn keeps(&self, entry: &Entry) -> bool {
        let o = &self.options;
        let status = || {
            let s = entry.status.as_deref()?.trim().parse::<u16>().ok()?;
            Some(o.status.contains(&s))
        };
        let mime = || {
            let m = entry.mime.as_deref()?;
            let m = m.split(';').next().unwrap_or(m).trim();
            Some(o.mime.iter().any(|want| want.eq_ignore_ascii_case(m)))
        };
        (o.status.is_empty() || status() == Some(true))
            && (o.mime.is_empty() || mime() == Some(true))
    }
}

impl LineParser for IndexParser {
    fn task(&mut self, line: &[u8], number: usize) -> Result<Option<Task>, LineError> {
        self.parse(line, number)
    }

    fn skipped(&mut self, line: &[u8]) {
        IndexParser::skipped(self, line);
    }
}

/// The JSON object of a line: all of it (JSON lines), or what follows
/// CDXJ's SURT key and timestamp.
fn json_part(line: &str) -> Option<&str> {
    let at = line.find('{')?;
    let before = &line[..at];
    // A CSV row may hold a `{` inside a URL: JSON begins the line or
    // follows two space-separated fields.
    (before.trim().is_empty() || before.split_whitespace().count() == 2).then(|| &line[at..])
}

fn entry_of_json(json: &str) -> Result<Entry, String> {
    let value: Value =
        serde_json::from_str(json).map_err(|e| format!("not a JSON index entry ({e})"))?;
    let text = |name: &str| match value.get(name) {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    let number = |name: &str| -> Result<u64, String> {
        let v = text(name).ok_or_else(|| format!("no \"{name}\" field"))?;
        v.trim()
            .parse()
            .map_err(|e| format!("\"{name}\" is not a byte count ({v:?}: {e})"))
    };
    Ok(Entry {
        filename: text("filename").ok_or("no \"filename\" field")?,
        offset: number("offset")?,
        length: number("length")?,
        status: text("status"),
        mime: text("mime"),
    })
}

/// The header of a CSV (`,`) or TSV (tab) export.
fn header_columns(line: &str) -> Result<Columns, String> {
    let delimiter = if line.contains('\t') { b'\t' } else { b',' };
    let names = fields(line, delimiter)?;
    let find = |name: &str| {
        names
            .iter()
            .position(|n| n.trim().eq_ignore_ascii_case(name))
    };
    let missing: Vec<&str> = REQUIRED.into_iter().filter(|n| find(n).is_none()).collect();
    match (find(REQUIRED[0]), find(REQUIRED[1]), find(REQUIRED[2])) {
        (Some(filename), Some(offset), Some(length)) => Ok(Columns {
            delimiter,
            filename,
            offset,
            length,
            status: find("fetch_status"),
            mime: find("content_mime_type"),
        }),
        _ => Err(format!(
            "neither a JSON index entry nor a CSV/TSV header of the columnar index (no {})",
            missing.join(", ")
        )),
    }
}

fn entry_of_row(line: &str, c: Columns) -> Result<Entry, String> {
    let row = fields(line, c.delimiter)?;
    let field = |i: usize, name: &str| {
        row.get(i)
            .map(|v| v.trim().to_string())
            .ok_or_else(|| format!("no {name} field ({} fields)", row.len()))
    };
    let number = |i: usize, name: &str| -> Result<u64, String> {
        let v = field(i, name)?;
        v.parse()
            .map_err(|e| format!("{name} is not a byte count ({v:?}: {e})"))
    };
    let filename = field(c.filename, REQUIRED[0])?;
    if filename.is_empty() {
        return Err("empty warc_filename".into());
    }
    Ok(Entry {
        filename,
        offset: number(c.offset, REQUIRED[1])?,
        length: number(c.length, REQUIRED[2])?,
        status: c.status.and_then(|i| row.get(i).cloned()),
        mime: c.mime.and_then(|i| row.get(i).cloned()),
    })
}

/// One CSV/TSV line's fields, quotes undone (the csv crate's reading).
fn fields(line: &str, delimiter: u8) -> Result<Vec<String>, String> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .delimiter(delimiter)
        .flexible(true)
        .from_reader(line.as_bytes());
    let mut record = csv::StringRecord::new();
    match reader.read_record(&mut record) {
        Ok(true) => Ok(record.iter().map(str::to_string).collect()),
        Ok(false) => Ok(Vec::new()),
        Err(e) => Err(format!("not a CSV/TSV row ({e})")),
    }
}

/// `filename` resolved against `prefix`: kept as it is when it is a URL
/// or an absolute path, or when there is no prefix.
pub fn resolve(prefix: Option<&str>, filename: &str) -> String {
    match prefix {
        Some(p) if !crate::remote::is_remote(filename) && !filename.starts_with('/') => {
            match p.ends_with('/') {
                true => format!("{p}{filename}"),
                false => format!("{p}/{filename}"),
            }
        }
        _ => filename.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto::task::Source;

    fn record(task: &Task) -> (String, u64, u64) {
        match &task.source {
            Some(Source::WarcRecord(r)) => (r.path.clone(), r.offset, r.length),
            other => panic!("not a record task: {other:?}"),
        }
    }

    fn options(prefix: &str, status: &[u16], mime: &[&str]) -> IndexOptions {
        IndexOptions {
            prefix: Some(prefix.to_string()),
            status: status.to_vec(),
            mime: mime.iter().map(|m| m.to_string()).collect(),
        }
    }

    const CDXJ: &str = r#"org,example)/a 20240101000000 {"url": "https://example.org/a", "mime": "text/html", "status": "200", "length": "1234", "offset": "5678", "filename": "crawl-data/CC-MAIN-2024-10/segments/1/warc/a.warc.gz"}"#;

    #[test]
    fn a_cdxj_line_is_a_record_task_resolved_against_the_prefix() {
        let mut p = IndexParser::new(options(
            "https://data.commoncrawl.org",
            &[200],
            &["text/html"],
        ));
        let task = p.parse(CDXJ.as_bytes(), 1).unwrap().expect("a task");
        assert_eq!(
            record(&task),
            (
                "https://data.commoncrawl.org/crawl-data/CC-MAIN-2024-10/segments/1/warc/a.warc.gz"
                    .into(),
                5678,
                1234
            )
        );
        // The id a `path offset length` line of the same record has.
        let line = "https://data.commoncrawl.org/crawl-data/CC-MAIN-2024-10/segments/1/warc/a.warc.gz 5678 1234";
        let same = task_of_line(line.as_bytes(), LineKind::WarcRecords, 1)
            .unwrap()
            .unwrap();
        assert_eq!(task.id, same.id);
    }

    #[test]
    fn json_lines_take_numbers_or_strings() {
        let mut p = IndexParser::new(IndexOptions::default());
        let line =
            br#"{"url": "u", "filename": "a.warc.gz", "offset": 10, "length": 20, "status": 200}"#;
        let task = p.parse(line, 3).unwrap().unwrap();
        assert_eq!(record(&task), ("a.warc.gz".into(), 10, 20));
    }

    #[test]
    fn status_and_mime_filters_pass_over_other_entries_and_count_them() {
        let mut p = IndexParser::new(options("s3://commoncrawl/", &[200], &["text/html"]));
        let redirect = CDXJ.replace(r#""status": "200""#, r#""status": "301""#);
        let pdf = CDXJ.replace("text/html", "application/pdf");
        let charset = CDXJ.replace("text/html", "Text/HTML; charset=utf-8");
        assert!(p.parse(redirect.as_bytes(), 1).unwrap().is_none());
        assert!(p.parse(pdf.as_bytes(), 2).unwrap().is_none());
        assert!(p.parse(charset.as_bytes(), 3).unwrap().is_some());
        assert_eq!(p.filtered, 2);
    }

    #[test]
    fn a_csv_export_is_read_by_its_header() {
        let mut p = IndexParser::new(options("https://data.commoncrawl.org/", &[200], &[]));
        let header = b"url,fetch_status,warc_filename,warc_record_offset,warc_record_length";
        assert!(p.parse(header, 1).unwrap().is_none());
        let row = br#""https://example.org/a,b",200,crawl/a.warc.gz,100,50"#;
        let task = p.parse(row, 2).unwrap().unwrap();
        assert_eq!(
            record(&task),
            (
                "https://data.commoncrawl.org/crawl/a.warc.gz".into(),
                100,
                50
            )
        );
        assert!(
            p.parse(b"https://example.org/b,404,crawl/a.warc.gz,150,50", 3)
                .unwrap()
                .is_none()
        );
        assert_eq!(p.filtered, 1);
    }

    #[test]
    fn a_tsv_export_is_read_by_its_header() {
        let mut p = IndexParser::new(IndexOptions::default());
        let header = "warc_record_length\twarc_record_offset\twarc_filename\tcontent_mime_type";
        assert!(p.parse(header.as_bytes(), 1).unwrap().is_none());
        let task = p
            .parse(b"7\t3\t/data/b.warc.gz\ttext/html", 2)
            .unwrap()
            .unwrap();
        assert_eq!(record(&task), ("/data/b.warc.gz".into(), 3, 7));
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        let mut p = IndexParser::new(IndexOptions::default());
        let e = p.parse(b"url,warc_filename", 1).unwrap_err();
        assert!(
            e.reason
                .contains("no warc_record_offset, warc_record_length"),
            "{e}"
        );
        let e = p
            .parse(br#"{"filename": "a", "offset": "x", "length": 1}"#, 2)
            .unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.reason.contains("\"offset\" is not a byte count"), "{e}");
        let e = p
            .parse(br#"k 1 {"filename": "a", "offset": 1}"#, 3)
            .unwrap_err();
        assert!(e.reason.contains("no \"length\" field"), "{e}");
        let mut csv = IndexParser::new(options("p", &[200], &[]));
        let e = csv
            .parse(b"warc_filename,warc_record_offset,warc_record_length", 1)
            .unwrap_err();
        assert!(
            e.reason.contains("--status needs a fetch_status column"),
            "{e}"
        );
    }

    #[test]
    fn a_skipped_header_still_names_the_columns() {
        let mut p = IndexParser::new(IndexOptions::default());
        p.skipped(b"warc_filename,warc_record_offset,warc_record_length");
        let task = p.parse(b"a.warc.gz,1,2", 2).unwrap().unwrap();
        assert_eq!(record(&task), ("a.warc.gz".into(), 1, 2));
    }

    #[test]
    fn indexes_are_told_from_task_lists() {
        assert!(looks_like_index(CDXJ));
        assert!(looks_like_index(
            "url,warc_filename,warc_record_offset,warc_record_length"
        ));
        assert!(!looks_like_index("https://example.org/"));
        assert!(!looks_like_index("a.warc.gz 10 20"));
        assert!(!looks_like_index(r#"{"url": "https://example.org/"}"#));
    }

    #[test]
    fn names_are_resolved_only_when_relative() {
        assert_eq!(
            resolve(Some("https://h/"), "a/b.warc.gz"),
            "https://h/a/b.warc.gz"
        );
        assert_eq!(
            resolve(Some("s3://cc"), "a/b.warc.gz"),
            "s3://cc/a/b.warc.gz"
        );
        assert_eq!(resolve(Some("https://h/"), "s3://x/y"), "s3://x/y");
        assert_eq!(resolve(Some("/data"), "/abs/b.warc.gz"), "/abs/b.warc.gz");
        assert_eq!(resolve(None, "a.warc.gz"), "a.warc.gz");
    }
}
