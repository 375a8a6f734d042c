//! JSON-LD (`<script type="application/ld+json">`) read into typed,
//! borrowed structs: only the fields metadata needs (types, dates,
//! authors, publisher, section, keywords, image, url); every other field,
//! `articleBody` among them, is skipped by the parser without being
//! copied. Reads one script's text; knows nothing of HTML.

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

/// One JSON-LD node, or a list or `@graph` of them.
#[derive(Debug, Default, Deserialize)]
pub struct Node<'a> {
    #[serde(rename = "@type", borrow, default)]
    pub kind: Strings<'a>,
    #[serde(rename = "@graph", borrow, default)]
    pub graph: Nodes<'a>,
    #[serde(rename = "datePublished", borrow, default)]
    pub published: MaybeStr<'a>,
    #[serde(rename = "dateCreated", borrow, default)]
    pub created: MaybeStr<'a>,
    #[serde(rename = "dateModified", borrow, default)]
    pub modified: MaybeStr<'a>,
    #[serde(borrow, default)]
    pub author: Names<'a>,
    #[serde(borrow, default)]
    pub publisher: Names<'a>,
    #[serde(rename = "articleSection", borrow, default)]
    pub section: Strings<'a>,
    #[serde(borrow, default)]
    pub keywords: Strings<'a>,
    #[serde(borrow, default)]
    pub name: MaybeStr<'a>,
    #[serde(rename = "mainEntity", borrow, default)]
    pub main_entity: Nodes<'a>,
}

/// A string or a list of strings (other values skipped).
#[derive(Debug, Default)]
pub struct Strings<'a>(pub Vec<Cow<'a, str>>);

/// A node or a list of nodes (other values skipped).
#[derive(Debug, Default)]
pub struct Nodes<'a>(pub Vec<Node<'a>>);

/// Names of persons or organisations: a string, an object with `name`,
/// or a list of these.
#[derive(Debug, Default)]
pub struct Names<'a>(pub Vec<Cow<'a, str>>);

/// One script's nodes: an object or a list at the top.
pub fn parse(text: &str) -> Vec<Node<'_>> {
    let text = text.trim();
    let text = text
        .strip_prefix("<!--")
        .and_then(|t| t.strip_suffix("-->"))
        .unwrap_or(text)
        .trim();
    let text = text
        .strip_prefix("//<![CDATA[")
        .or_else(|| text.strip_prefix("<![CDATA["))
        .unwrap_or(text);
    match serde_json::from_str::<Nodes<'_>>(text) {
        Ok(nodes) => nodes.0,
        Err(_) => Vec::new(),
    }
}

/// The string value of the first `"key": "…"` in a script the parser
/// refused (a trailing comma, a key given twice): read by hand, escapes
/// left as they are.
pub fn string_field<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let quoted = format!("\"{key}\"");
    let at = memchr::memmem::find(text.as_bytes(), quoted.as_bytes())? + quoted.len();
    let rest = text[at..].trim_start().strip_prefix(':')?.trim_start();
    let rest = rest.strip_prefix('"')?;
    let end = memchr::memchr(b'"', rest.as_bytes())?;
    Some(&rest[..end])
}

/// A borrowed string, or `None` for any other JSON value (skipped).
#[derive(Debug, Default)]
pub struct MaybeStr<'a>(pub Option<Cow<'a, str>>);

impl MaybeStr<'_> {
    pub fn get(&self) -> Option<&str> {
        self.0.as_deref()
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for MaybeStr<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = MaybeStr<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any value")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(MaybeStr(Some(Cow::Borrowed(v))))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(MaybeStr(Some(Cow::Owned(v.to_string()))))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
                Ok(MaybeStr(None))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
                Ok(MaybeStr(None))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
                Ok(MaybeStr(None))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
                Ok(MaybeStr(None))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(MaybeStr(None))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(MaybeStr(None))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(MaybeStr(None))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Strings<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Strings<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string or a list of strings")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Strings(vec![Cow::Borrowed(v)]))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Strings(vec![Cow::Owned(v.to_string())]))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(MaybeStr(s)) = seq.next_element()? {
                    out.extend(s);
                }
                Ok(Strings(out))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Strings::default())
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
                Ok(Strings::default())
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
                Ok(Strings::default())
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
                Ok(Strings::default())
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
                Ok(Strings::default())
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(Strings::default())
            }
        }
        d.deserialize_any(V)
    }
}

/// A node where one is expected, or nothing for any other value.
#[derive(Debug)]
struct MaybeNode<'a>(Option<Node<'a>>);

impl<'de: 'a, 'a> Deserialize<'de> for MaybeNode<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = MaybeNode<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a node")
            }
            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                Node::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(|n| MaybeNode(Some(n)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(MaybeNode(None))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
                Ok(MaybeNode(None))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
                Ok(MaybeNode(None))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
                Ok(MaybeNode(None))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
                Ok(MaybeNode(None))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
                Ok(MaybeNode(None))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(MaybeNode(None))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Nodes<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Nodes<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a node or a list of nodes")
            }
            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                Node::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(|n| Nodes(vec![n]))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(MaybeNode(n)) = seq.next_element()? {
                    out.extend(n);
                }
                Ok(Nodes(out))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
                Ok(Nodes::default())
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
                Ok(Nodes::default())
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
                Ok(Nodes::default())
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
                Ok(Nodes::default())
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
                Ok(Nodes::default())
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(Nodes::default())
            }
        }
        d.deserialize_any(V)
    }
}

/// A person's or organisation's name: `"Ann"`, `{"name": "Ann"}`.
#[derive(Debug, Default, Deserialize)]
struct Named<'a> {
    #[serde(borrow, default)]
    name: Option<MaybeStr<'a>>,
}

impl<'de: 'a, 'a> Deserialize<'de> for Names<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Names<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a name, a person or a list of them")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Names(vec![Cow::Borrowed(v)]))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Names(vec![Cow::Owned(v.to_string())]))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                let named = Named::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(Names(named.name.and_then(|n| n.0).into_iter().collect()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(Names(names)) = seq.next_element()? {
                    out.extend(names);
                }
                Ok(Names(out))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
                Ok(Names::default())
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
                Ok(Names::default())
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
                Ok(Names::default())
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
                Ok(Names::default())
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(Names::default())
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_article_node_gives_its_dates_and_authors_and_skips_its_body() {
        let nodes = parse(
            r#"{"@context":"https://schema.org","@type":"NewsArticle","headline":"H",
               "articleBody":"a very long body \" with {braces} [and] quotes",
               "datePublished":"2024-05-17T10:00:00Z","dateModified":"2024-05-18",
               "author":[{"@type":"Person","name":"Ann Lee","url":"x"},{"name":"Bo Chan"}],
               "publisher":{"@type":"Organization","name":"The Daily","logo":{"url":"l"}},
               "keywords":["a","b"],"articleSection":"World"}"#,
        );
        let n = &nodes[0];
        assert_eq!(n.kind.0, ["NewsArticle"]);
        assert_eq!(n.published.get(), Some("2024-05-17T10:00:00Z"));
        assert_eq!(n.modified.get(), Some("2024-05-18"));
        assert_eq!(n.author.0, ["Ann Lee", "Bo Chan"]);
        assert_eq!(n.publisher.0, ["The Daily"]);
        assert_eq!(n.keywords.0, ["a", "b"]);
        assert_eq!(n.section.0, ["World"]);
    }

    #[test]
    fn graphs_lists_and_odd_values_read() {
        let nodes = parse(
            r#"[{"@graph":[{"@type":["WebPage"],"datePublished":1},
               {"@type":"BlogPosting","author":"Kim","datePublished":"2023-01-02"}]}, 3, "x"]"#,
        );
        assert_eq!(nodes.len(), 1);
        let post = &nodes[0].graph.0[1];
        assert_eq!(post.author.0, ["Kim"]);
        assert_eq!(nodes[0].graph.0[0].published.get(), None);
    }

    #[test]
    fn broken_json_gives_no_nodes() {
        let broken = r#"{"@type": "Article", "datePublished" : "2024-01-01",}"#;
        assert!(parse(broken).is_empty());
        assert_eq!(string_field(broken, "datePublished"), Some("2024-01-01"));
        assert!(parse("").is_empty());
    }
}
