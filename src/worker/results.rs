//! The worker's results read back as JSON lines: a message taken from a
//! results queue (a document, a failure event, a page's links) or from
//! the dead-letter queue (a task with its reason) becomes one JSON object,
//! told apart by its `type`. Decodes and writes only; taking messages from the broker
//! and settling them is the caller's.

use super::topology::{HEADER_KIND, HEADER_REASON, ROUTING_DOCUMENT, ROUTING_FAILURE};
use crate::proto::{self, DecodeError, DocumentMessage, Failure, PageLinks, Task};
use lapin::types::{AMQPValue, FieldTable};
use serde::Serialize;

/// One message from a queue the worker publishes to, decoded.
#[derive(Debug, Clone, PartialEq)]
pub enum ResultMessage {
    /// Routing key `document` (boxed: a document is much the largest).
    Document(Box<DocumentMessage>),
    /// Routing key `failure`.
    Failure(Failure),
    /// The routing key the worker's `--links-routing-key` names.
    Links(PageLinks),
    /// A task the worker dead-lettered (it carries `x-linesift-reason`).
    DeadLetter {
        task: Task,
        kind: String,
        reason: String,
    },
}

/// A message that is none of the worker's results.
#[derive(Debug, thiserror::Error)]
pub enum NotAResult {
    #[error(
        "routing key {0:?} is neither document, failure nor the links' (--links-routing-key), \
         and no dead letter's"
    )]
    RoutingKey(String),
    #[error("routing key {routing_key:?}: {source}")]
    Decode {
        routing_key: String,
        source: DecodeError,
    },
}

/// Decodes a message by what the worker publishes under its routing key
/// (`links_key`: the one its `--links-routing-key` names, if any); a
/// message with the worker's dead-letter headers is a dead task, whatever
/// its routing key (the task queue's name).
pub fn decode(
    routing_key: &str,
    links_key: Option<&str>,
    content_type: Option<&str>,
    headers: Option<&FieldTable>,
    body: &[u8],
) -> Result<ResultMessage, NotAResult> {
    let failed = |source| NotAResult::Decode {
        routing_key: routing_key.to_string(),
        source,
    };
    if let Some(reason) = string_header(headers, HEADER_REASON) {
        let task = proto::decode::<Task>(body, content_type).map_err(failed)?;
        let kind = string_header(headers, HEADER_KIND).unwrap_or_default();
        return Ok(ResultMessage::DeadLetter { task, kind, reason });
    }
    match routing_key {
        ROUTING_DOCUMENT => proto::decode(body, content_type)
            .map(|doc| ResultMessage::Document(Box::new(doc)))
            .map_err(failed),
        ROUTING_FAILURE => proto::decode(body, content_type)
            .map(ResultMessage::Failure)
            .map_err(failed),
        links if Some(links) == links_key => proto::decode(body, content_type)
            .map(ResultMessage::Links)
            .map_err(failed),
        other => Err(NotAResult::RoutingKey(other.to_string())),
    }
}

/// A header's value when it is a string (the worker writes its own as
/// long strings).
fn string_header(headers: Option<&FieldTable>, key: &str) -> Option<String> {
    match headers?.inner().get(key)? {
        AMQPValue::LongString(s) => Some(String::from_utf8_lossy(s.as_bytes()).into_owned()),
        AMQPValue::ShortString(s) => Some(s.to_string()),
        _ => None,
    }
}

/// A document or failure event line: the message's fields as the JSON
/// encoding writes them (proto/linesift.proto), after its `type`.
#[derive(Serialize)]
struct Line<'a, M: Serialize> {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(flatten)]
    message: &'a M,
}

/// A dead letter's line: the task as the JSON encoding writes it, and why
/// the worker gave up on it.
#[derive(Serialize)]
struct DeadLine<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    task: &'a Task,
    failure_kind: &'a str,
    reason: &'a str,
}

impl ResultMessage {
    /// What `type` says: `document`, `failure`, `links` or `dead_letter`.
    pub fn kind(&self) -> &'static str {
        match self {
            ResultMessage::Document(_) => "document",
            ResultMessage::Failure(_) => "failure",
            ResultMessage::Links(_) => "links",
            ResultMessage::DeadLetter { .. } => "dead_letter",
        }
    }

    /// The result as one JSON line, newline included.
    pub fn json_line(&self) -> serde_json::Result<Vec<u8>> {
        let kind = self.kind();
        let mut line = match self {
            ResultMessage::Document(message) => serde_json::to_vec(&Line {
                kind,
                message: message.as_ref(),
            }),
            ResultMessage::Failure(message) => serde_json::to_vec(&Line { kind, message }),
            ResultMessage::Links(message) => serde_json::to_vec(&Line { kind, message }),
            ResultMessage::DeadLetter {
                task,
                kind: k,
                reason,
            } => serde_json::to_vec(&DeadLine {
                kind,
                task,
                failure_kind: k,
                reason,
            }),
        }?;
        line.push(b'\n');
        Ok(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto::{Encoding, LineRange, task};
    use lapin::types::LongString;

    fn json(result: &ResultMessage) -> serde_json::Value {
        let line = result.json_line().expect("serializes");
        assert_eq!(line.last(), Some(&b'\n'));
        assert_eq!(line.iter().filter(|b| **b == b'\n').count(), 1);
        serde_json::from_slice(&line).expect("one JSON object")
    }

    /// Both encodings read back; the line has the message's fields after
    /// its type, as `--encoding json` writes them.
    #[test]
    fn a_document_and_a_failure_become_typed_json_lines() {
        let doc = DocumentMessage {
            document_id: "d1".into(),
            task_id: "t1".into(),
            url: "http://127.0.0.1/a".into(),
            text: "First paragraph.\nSecond.".into(),
            regions: vec![LineRange { start: 3, end: 9 }],
            status: 200,
            ..DocumentMessage::default()
        };
        for encoding in [Encoding::Protobuf, Encoding::Json] {
            let (body, content_type) = proto::encode(&doc, encoding);
            let read =
                decode("document", None, Some(content_type), None, &body).expect("a document");
            let line = json(&read);
            assert_eq!(line["type"], "document");
            assert_eq!(line["task_id"], "t1");
            assert_eq!(line["text"], "First paragraph.\nSecond.");
            assert_eq!(line["regions"][0]["end"], 9);
            assert_eq!(line["status"], 200);
        }
        let failure = Failure {
            task_id: "t2".into(),
            stage: "fetch".into(),
            kind: "http_status".into(),
            reason: "HTTP 404".into(),
            fatal: true,
            ..Failure::default()
        };
        let (body, content_type) = proto::encode(&failure, Encoding::Protobuf);
        let line =
            json(&decode("failure", None, Some(content_type), None, &body).expect("a failure"));
        assert_eq!(line["type"], "failure");
        assert_eq!(line["kind"], "http_status");
        assert_eq!(line["reason"], "HTTP 404");
        assert_eq!(line["task_id"], "t2");
        assert_eq!(line["fatal"], true);
    }

    /// A dead letter is told by the worker's headers, not by its routing
    /// key (the task queue's name).
    #[test]
    fn a_dead_letter_names_its_task_and_reason() {
        let task = Task {
            id: "t3".into(),
            source: Some(task::Source::Url("http://127.0.0.1/x".into())),
            ..Task::default()
        };
        let (body, content_type) = proto::encode(&task, Encoding::Protobuf);
        let mut headers = FieldTable::default();
        for (key, value) in [(HEADER_REASON, "gave up"), (HEADER_KIND, "timeout")] {
            headers.insert(key.into(), AMQPValue::LongString(LongString::from(value)));
        }
        let read =
            decode("lx.tasks", None, Some(content_type), Some(&headers), &body).expect("dead");
        let line = json(&read);
        assert_eq!(line["type"], "dead_letter");
        assert_eq!(line["task"]["id"], "t3");
        assert_eq!(line["task"]["source"]["url"], "http://127.0.0.1/x");
        assert_eq!(line["failure_kind"], "timeout");
        assert_eq!(line["reason"], "gave up");
    }

    /// A page's links are read under the routing key the worker was given
    /// for them, and only there.
    #[test]
    fn links_are_read_under_their_own_routing_key() {
        let links = PageLinks {
            document_id: "d4".into(),
            task_id: "t4".into(),
            url: "http://127.0.0.1/p".into(),
            canonical: Some("http://127.0.0.1/p".into()),
            links: vec![proto::Link {
                url: "http://127.0.0.1/q".into(),
                text: "next".into(),
                in_content: true,
                ..proto::Link::default()
            }],
        };
        for encoding in [Encoding::Protobuf, Encoding::Json] {
            let (body, content_type) = proto::encode(&links, encoding);
            let read = decode(
                "frontier",
                Some("frontier"),
                Some(content_type),
                None,
                &body,
            )
            .expect("links");
            assert_eq!(read, ResultMessage::Links(links.clone()));
            let line = json(&read);
            assert_eq!(line["type"], "links");
            assert_eq!(line["document_id"], "d4");
            assert_eq!(line["links"][0]["url"], "http://127.0.0.1/q");
            assert_eq!(line["links"][0]["in_content"], true);
            let e = decode("frontier", None, Some(content_type), None, &body).expect_err("no key");
            assert!(e.to_string().contains("--links-routing-key"), "{e}");
        }
    }

    #[test]
    fn a_message_that_is_no_result_is_refused_by_routing_key_or_content() {
        let e = decode("other", None, None, None, b"").expect_err("unknown key");
        assert!(e.to_string().contains("\"other\""), "{e}");
        let e =
            decode("document", None, Some("application/json"), None, b"{").expect_err("bad JSON");
        assert!(e.to_string().contains("invalid JSON"), "{e}");
        let e = decode("failure", None, Some("text/plain"), None, b"x").expect_err("content type");
        assert!(e.to_string().contains("text/plain"), "{e}");
    }
}
