//! Where a document leaves the process: JSONL and WET files ([`writer`]),
//! the queue's document message ([`message`]) and `linesift extract`'s
//! text and JSON ([`extract`]). It formats and writes
//! what it is given; it decides nothing about which documents to write,
//! and the AMQP publishing stays with the worker.

pub mod extract;
pub mod message;
pub mod writer;

pub use writer::{JsonlWriter, Source, WetInfo, WetWriter};
