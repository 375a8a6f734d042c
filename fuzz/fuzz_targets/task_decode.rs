//! Task decoding with both content types (protobuf, JSON) and some that
//! are refused. A decoded task must survive a round trip through both
//! encodings unchanged.
#![no_main]

use libfuzzer_sys::fuzz_target;
use linesift::proto::{self, Encoding, decode_task};

const CONTENT_TYPES: [Option<&str>; 6] = [
    None,
    Some("application/x-protobuf"),
    Some("application/protobuf"),
    Some("application/json"),
    Some("Application/JSON; charset=utf-8"),
    Some("text/plain"),
];

fuzz_target!(|data: &[u8]| {
    let Some((&control, body)) = data.split_first() else {
        return;
    };
    let content_type = CONTENT_TYPES[control as usize % CONTENT_TYPES.len()];
    let Ok(task) = decode_task(body, content_type) else {
        return;
    };
    let _ = task.describe();
    for encoding in [Encoding::Protobuf, Encoding::Json] {
        let (bytes, ct) = proto::encode(&task, encoding);
        let again = decode_task(&bytes, Some(ct)).map_err(|e| e.to_string());
        assert_eq!(again.as_ref(), Ok(&task), "{encoding:?} round trip");
    }
});
