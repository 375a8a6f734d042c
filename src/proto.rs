//! The queue messages, generated at build time from `proto/linesift.proto`
//! (see `build.rs`), and their two wire encodings: protobuf (the default)
//! and JSON (for debugging; serde derives on the generated types). The AMQP
//! `content-type` property names the encoding of each message.
//!
//! This module only converts; it does no I/O and knows nothing of AMQP
//! beyond the content-type strings.

#[allow(clippy::all, missing_docs)]
mod generated {
    include!(concat!(env!("OUT_DIR"), "/linesift.v1.rs"));
}

pub use generated::*;

/// `content-type` of protobuf-encoded messages.
pub const CONTENT_TYPE_PROTOBUF: &str = "application/x-protobuf";
/// `content-type` of JSON-encoded messages.
pub const CONTENT_TYPE_JSON: &str = "application/json";

/// How messages are written. Reading accepts both, told by content-type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Encoding {
    #[default]
    Protobuf,
    Json,
}

impl Encoding {
    pub fn content_type(self) -> &'static str {
        match self {
            Encoding::Protobuf => CONTENT_TYPE_PROTOBUF,
            Encoding::Json => CONTENT_TYPE_JSON,
        }
    }
}

/// A message body that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    #[error("invalid protobuf: {0}")]
    Protobuf(#[from] prost::DecodeError),
    #[error("invalid JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("unsupported content-type {0:?}")]
    ContentType(String),
    #[error("task has no source (url, warc_file, warc_record or warc_records)")]
    NoSource,
    #[error("task has an empty id")]
    NoId,
}

/// Encodes any generated message. JSON encoding of these plain structs
/// cannot fail in practice; should it, the protobuf bytes are returned
/// with their own content-type rather than losing the message.
pub fn encode<M>(message: &M, encoding: Encoding) -> (Vec<u8>, &'static str)
where
    M: prost::Message + serde::Serialize,
{
    if encoding == Encoding::Json
        && let Ok(bytes) = serde_json::to_vec(message)
    {
        return (bytes, CONTENT_TYPE_JSON);
    }
    (message.encode_to_vec(), CONTENT_TYPE_PROTOBUF)
}

/// Decodes a message by its content-type. A missing content-type means
/// protobuf (the default encoding).
pub fn decode<M>(body: &[u8], content_type: Option<&str>) -> Result<M, DecodeError>
where
    M: prost::Message + Default + serde::de::DeserializeOwned,
{
    let media = content_type
        .map(|c| c.split(';').next().unwrap_or(c).trim().to_ascii_lowercase())
        .unwrap_or_default();
    match media.as_str() {
        "" | CONTENT_TYPE_PROTOBUF | "application/protobuf" => Ok(M::decode(body)?),
        CONTENT_TYPE_JSON => Ok(serde_json::from_slice(body)?),
        _ => Err(DecodeError::ContentType(media)),
    }
}

/// Decodes a task and checks that it can be worked on.
pub fn decode_task(body: &[u8], content_type: Option<&str>) -> Result<Task, DecodeError> {
    let task: Task = decode(body, content_type)?;
    if task.id.is_empty() {
        return Err(DecodeError::NoId);
    }
    if task.source.is_none() {
        return Err(DecodeError::NoSource);
    }
    Ok(task)
}

impl Task {
    /// A short description of the task's source, for logs and failures.
    pub fn describe(&self) -> String {
        match &self.source {
            Some(task::Source::Url(url)) => url.clone(),
            Some(task::Source::WarcFile(f)) => f.path.clone(),
            Some(task::Source::WarcRecord(r)) => format!("{}@{}", r.path, r.offset),
            Some(task::Source::WarcRecords(b)) => {
                format!("{} ({} records)", b.path, b.records.len())
            }
            None => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url_task() -> Task {
        Task {
            id: "t1".into(),
            source: Some(task::Source::Url("http://example.com/".into())),
            ..Task::default()
        }
    }

    #[test]
    fn both_encodings_round_trip() {
        for encoding in [Encoding::Protobuf, Encoding::Json] {
            let (bytes, ct) = encode(&url_task(), encoding);
            assert_eq!(ct, encoding.content_type());
            assert_eq!(decode_task(&bytes, Some(ct)).ok(), Some(url_task()));
        }
    }

    #[test]
    fn json_is_readable() {
        let (bytes, _) = encode(&url_task(), Encoding::Json);
        let text = String::from_utf8(bytes).unwrap_or_default();
        assert!(text.contains("\"url\":\"http://example.com/\""), "{text}");
        let task = decode_task(
            br#"{"id":"x","source":{"warc_record":{"path":"a.warc","offset":5}}}"#,
            Some("application/json; charset=utf-8"),
        );
        assert!(matches!(
            task.map(|t| t.source),
            Ok(Some(task::Source::WarcRecord(WarcRecord { offset: 5, .. })))
        ));
    }

    /// The JSON encoding's shape, as proto/linesift.proto and the README
    /// document it: serde's, not proto3's canonical JSON. Field names as in
    /// the proto (snake_case), the oneof an object under "source" keyed by
    /// the field set, 64-bit integers as numbers, every field written
    /// (defaults too, unset optionals as null); a canonical-JSON task, its
    /// oneof field at the top level, reads as one with no source.
    #[test]
    fn json_shape_is_as_documented() {
        let json = |bytes: Vec<u8>| -> serde_json::Value {
            serde_json::from_slice(&bytes).unwrap_or_default()
        };
        let task = |source| Task {
            id: "t1".into(),
            source: Some(source),
            attempt: 0,
            created_unix: 1714564800,
        };
        let cases = [
            (
                task::Source::Url("https://example.com/".into()),
                serde_json::json!({"url": "https://example.com/"}),
            ),
            (
                task::Source::WarcFile(WarcFile {
                    path: "/data/a.warc.gz".into(),
                }),
                serde_json::json!({"warc_file": {"path": "/data/a.warc.gz"}}),
            ),
            (
                task::Source::WarcRecord(WarcRecord {
                    path: "/data/a.warc.gz".into(),
                    offset: 3116,
                    length: 1547,
                }),
                serde_json::json!({"warc_record": {"path": "/data/a.warc.gz", "offset": 3116, "length": 1547}}),
            ),
        ];
        for (source, expected) in cases {
            let (bytes, _) = encode(&task(source), Encoding::Json);
            assert_eq!(
                json(bytes),
                serde_json::json!({"id": "t1", "source": expected, "attempt": 0, "created_unix": 1714564800})
            );
        }
        let failure = Failure {
            task_id: "t1".into(),
            stage: "task".into(),
            kind: "deadline".into(),
            reason: "task exceeded the deadline of 600s (task_deadline)".into(),
            fatal: true,
            dead_lettered: true,
            ..Failure::default()
        };
        assert_eq!(
            json(encode(&failure, Encoding::Json).0),
            serde_json::json!({
                "task_id": "t1", "stage": "task", "kind": "deadline",
                "reason": "task exceeded the deadline of 600s (task_deadline)",
                "warc_record_id": "", "url": "", "fatal": true, "dead_lettered": true
            })
        );
        let doc = DocumentMessage {
            document_id: "d".into(),
            title: Some("T".into()),
            bytes: 5_000_000_000,
            regions: vec![LineRange { start: 3, end: 9 }],
            ..DocumentMessage::default()
        };
        let value = json(encode(&doc, Encoding::Json).0);
        assert_eq!(value["headline"], serde_json::Value::Null);
        assert_eq!(value["title"], "T");
        assert_eq!(value["bytes"], 5_000_000_000u64);
        assert_eq!(
            value["regions"],
            serde_json::json!([{"start": 3, "end": 9}])
        );
        assert_eq!(value["headline_line"], serde_json::Value::Null);
        assert_eq!(value["author"], serde_json::Value::Null);
        assert_eq!(value["keywords"], serde_json::json!([]));
        assert_eq!(value.as_object().map(|o| o.len()), Some(33));
        // Missing fields take their defaults; the canonical flattened oneof
        // is not read.
        assert!(matches!(
            decode_task(
                br#"{"id":"x","source":{"url":"https://e/"}}"#,
                Some("application/json")
            ),
            Ok(Task { attempt: 0, .. })
        ));
        assert!(matches!(
            decode_task(
                br#"{"id":"x","url":"https://e/"}"#,
                Some("application/json")
            ),
            Err(DecodeError::NoSource)
        ));
    }

    #[test]
    fn garbage_and_empty_tasks_are_refused() {
        assert!(decode_task(b"\xff\xff\xff", None).is_err());
        assert!(matches!(decode_task(b"", None), Err(DecodeError::NoId)));
        assert!(decode_task(b"{}", Some("text/plain")).is_err());
    }
}
