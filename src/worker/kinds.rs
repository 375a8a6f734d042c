//! The failure kinds the worker reports, by stage, and what each one is:
//! transient (the task is tried again), an outcome (the answer about the
//! page: recorded, the task acked) or a fault (dead-lettered). This table
//! is the one list: `TaskError::is_outcome` reads it, and the table in
//! docs/worker.md is generated from it ([`markdown`]; a test keeps the two
//! the same). It decides nothing about retries or publishing.

/// What a failure kind means for its task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// May work later: requeued after `--retry-delay`; at the delivery
    /// limit it becomes a fault.
    Transient,
    /// The answer about the page itself: a fatal `Failure` event, acked.
    Outcome,
    /// Someone must look at it: dead-lettered with its reason.
    Fault,
}

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::Transient => "transient",
            Class::Outcome => "outcome",
            Class::Fault => "fault",
        }
    }
}

/// One stage and kind, with its class and when it happens. A kind may be
/// listed twice, once per class (an HTTP status: 503 is transient, 404 an
/// outcome).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FailureKind {
    pub stage: &'static str,
    pub kind: &'static str,
    pub class: Class,
    pub when: &'static str,
}

const fn row(
    stage: &'static str,
    kind: &'static str,
    class: Class,
    when: &'static str,
) -> FailureKind {
    FailureKind {
        stage,
        kind,
        class,
        when,
    }
}

use Class::{Fault, Outcome, Transient};

/// Every failure kind a task can end in. A permanent failure of a stage
/// and kind not listed as an outcome is a fault.
pub const FAILURE_KINDS: &[FailureKind] = &[
    row(
        "fetch",
        "timeout",
        Transient,
        "connect, read or total timeout",
    ),
    row(
        "fetch",
        "connect",
        Transient,
        "the connection was refused, or cut off mid-response; also when that happens asking the page's host for its robots.txt",
    ),
    row(
        "fetch",
        "dns",
        Transient,
        "a DNS lookup that failed for now",
    ),
    row("fetch", "dns", Outcome, "the name does not exist"),
    row("fetch", "http_status", Transient, "HTTP 429, 502, 503, 504"),
    row(
        "fetch",
        "http_status",
        Outcome,
        "any other status that is not 2xx",
    ),
    row(
        "fetch",
        "robots",
        Transient,
        "robots.txt answered 429/5xx, timed out, could not be read, or a host it redirects to could not be reached",
    ),
    row("fetch", "robots", Outcome, "robots.txt disallows the URL"),
    row(
        "fetch",
        "local",
        Transient,
        "the worker's own failure: a body decoder could not be set up",
    ),
    row("fetch", "not_html", Outcome, "the Content-Type is not HTML"),
    row(
        "fetch",
        "refused_address",
        Outcome,
        "the SSRF guard refuses the address (private, metadata, ...)",
    ),
    row(
        "fetch",
        "tls",
        Outcome,
        "the certificate or the handshake is refused",
    ),
    row(
        "fetch",
        "too_large",
        Outcome,
        "the body is over `--max-body` with `--refuse-oversize`",
    ),
    row(
        "fetch",
        "too_many_redirects",
        Outcome,
        "more redirects than allowed",
    ),
    row(
        "fetch",
        "redirect_loop",
        Outcome,
        "a redirect back to a URL already visited",
    ),
    row(
        "fetch",
        "http",
        Outcome,
        "a malformed response, or a body that does not decode",
    ),
    row(
        "fetch",
        "extract",
        Outcome,
        "the core refused the page (binary, over `--max-bytes` or `--max-lines`)",
    ),
    row(
        "fetch",
        "invalid_url",
        Fault,
        "the task's URL does not parse (or a redirect leads to another scheme)",
    ),
    row(
        "fetch",
        "client",
        Fault,
        "the HTTP client could not be built",
    ),
    row(
        "warc",
        "io",
        Transient,
        "an I/O error reading a WARC file that opened, or opening one for a reason of the machine's (too many open files, a file system error); a remote WARC's 5xx, timeouts and cut connections once its retries are spent",
    ),
    row(
        "warc",
        "open",
        Fault,
        "the WARC file does not exist, may not be read, or is a directory (remote: 404, 401/403, a location that is no URL)",
    ),
    row(
        "warc",
        "format",
        Fault,
        "a WARC file task's file is no WARC file: it holds no record (an empty file), or not one of its records could be read (junk)",
    ),
    row(
        "warc",
        "read",
        Fault,
        "a record task's record cannot be read (truncated, corrupt; remote: missing, forbidden, changed while read)",
    ),
    row(
        "warc",
        "bad_record",
        Fault,
        "a record task's offset holds no readable record (a damaged archive, a stale index)",
    ),
    row(
        "warc",
        "too_large",
        Outcome,
        "a WARC record's payload is over `--max-payload`, or its gzip member, zstd frame or LZ4 frame over `--max-member` (an event of a file or batch task's record; the end of a record task)",
    ),
    row(
        "warc",
        "skipped",
        Outcome,
        "a record task's record is no HTML page (type, status, media type, a continuation)",
    ),
    row("warc", "panic", Fault, "the reader or the core panicked"),
    row(
        "extract",
        "skipped",
        Outcome,
        "a record task's payload is no HTML",
    ),
    row(
        "extract",
        "payload",
        Outcome,
        "a record task's payload does not decode",
    ),
    row(
        "extract",
        "extract",
        Outcome,
        "the core refused a record task's page",
    ),
    row(
        "task",
        "deadline",
        Transient,
        "the task ran past `--task-deadline`",
    ),
    row(
        "publish",
        "publish",
        Transient,
        "the broker did not confirm the task's results (or its outcome's event)",
    ),
    row("decode", "invalid_message", Fault, "the message is no task"),
    row(
        "decode",
        "no_source",
        Fault,
        "the task names no URL or WARC file",
    ),
    row("process", "panic", Fault, "processing the task panicked"),
    row(
        "worker",
        "delivery_limit",
        Fault,
        "the deliveries before a deferral used up the delivery limit",
    ),
];

/// Whether a permanent failure of `stage` and `kind` is an outcome (the
/// table says so); anything else permanent is a fault.
pub fn is_outcome(stage: &str, kind: &str) -> bool {
    FAILURE_KINDS
        .iter()
        .any(|k| k.stage == stage && k.kind == kind && k.class == Class::Outcome)
}

/// The table as docs/worker.md carries it (Markdown).
pub fn markdown() -> String {
    let mut out = String::from("| stage | kind | class | when |\n|---|---|---|---|\n");
    for k in FAILURE_KINDS {
        out.push_str(&format!(
            "| {} | `{}` | {} | {} |\n",
            k.stage,
            k.kind,
            k.class.name(),
            k.when
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const BEGIN: &str = "<!-- failure-kinds: generated from src/worker/kinds.rs -->\n";
    const END: &str = "<!-- failure-kinds: end -->";

    /// docs/worker.md carries the table the code uses, between its
    /// markers; `LINESIFT_BLESS=1` writes it there.
    #[test]
    fn the_failure_kinds_table_in_the_docs_is_the_codes() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/worker.md");
        let doc = std::fs::read_to_string(&path).expect("docs/worker.md");
        let start = doc.find(BEGIN).expect("the begin marker in docs/worker.md") + BEGIN.len();
        let end = start + doc[start..].find(END).expect("the end marker");
        let table = markdown();
        if std::env::var_os("LINESIFT_BLESS").is_some() {
            let blessed = format!("{}{table}{}", &doc[..start], &doc[end..]);
            std::fs::write(&path, blessed).expect("write docs/worker.md");
            return;
        }
        assert_eq!(
            doc[start..end],
            table,
            "docs/worker.md's failure kinds differ from the code; LINESIFT_BLESS=1 rewrites them"
        );
    }

    /// No stage and kind is listed twice with the same class, and none is
    /// both an outcome and a fault (a permanent failure must be one).
    #[test]
    fn each_kind_has_one_meaning_per_class() {
        for (i, a) in FAILURE_KINDS.iter().enumerate() {
            for b in &FAILURE_KINDS[i + 1..] {
                if (a.stage, a.kind) != (b.stage, b.kind) {
                    continue;
                }
                assert_ne!(a.class, b.class, "{}/{} twice", a.stage, a.kind);
                let permanent = [a.class, b.class].iter().all(|c| *c != Class::Transient);
                assert!(
                    !permanent,
                    "{}/{} is an outcome and a fault",
                    a.stage, a.kind
                );
            }
        }
    }
}
