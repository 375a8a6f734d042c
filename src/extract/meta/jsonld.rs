//! JSON-LD (`<script type="application/ld+json">`) read into typed,
//! borrowed structs: only the fields metadata needs (types, dates,
//! authors, publisher, section, keywords, image, url); every other field,
//! `articleBody` among them, is skipped by the parser without being
//! copied. Reads one script's text; knows nothing of HTML. A person named
//! by reference (`"author": {"@id": "…"}`) is looked up among the nodes
//! of the same script ([`Ids`]).

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

/// One JSON-LD node, or a list or `@graph` of them.
#[derive(Debug, Default, Deserialize)]
pub struct Node<'a> {
    #[serde(rename = "@id", borrow, default)]
    pub id: MaybeStr<'a>,
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

/// Names of persons or organisations: a string, an object with `name`
/// or only an `@id`, or a list of these.
#[derive(Debug, Default)]
pub struct Names<'a>(pub Vec<Name<'a>>);

/// A person or organisation as a node names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Name<'a> {
    /// Its name, written in place.
    Text(Cow<'a, str>),
    /// The `@id` of the node that names it (a graph's Person).
    Ref(Cow<'a, str>),
}

impl Name<'_> {
    /// The name written in place, not one referred to.
    pub fn text(&self) -> Option<&str> {
        match self {
            Name::Text(t) => Some(t),
            Name::Ref(_) => None,
        }
    }
}

/// Nodes of one script that have an `@id` and a name, by id: what
/// references to them name.
#[derive(Debug, Default)]
pub struct Ids<'n>(Vec<(&'n str, &'n str)>);

/// How deep nodes are looked into (`@graph`, `mainEntity`) for names and
/// metadata alike.
pub const MAX_DEPTH: usize = 4;

impl<'n> Ids<'n> {
    /// The named nodes among `nodes` and the nodes inside them.
    pub fn of(nodes: &'n [Node<'_>]) -> Ids<'n> {
        let mut ids = Ids::default();
        ids.add(nodes, 0);
        ids
    }

    fn add(&mut self, nodes: &'n [Node<'_>], depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        for node in nodes {
            if let (Some(id), Some(name)) = (node.id.get(), node.name.get()) {
                self.0.push((id, name));
            }
            self.add(&node.graph.0, depth + 1);
            self.add(&node.main_entity.0, depth + 1);
        }
    }

    /// The name `name` gives: its own, or that of the node it refers to.
    pub fn name<'s>(&'s self, name: &'s Name<'_>) -> Option<&'s str> {
        match name {
            Name::Text(t) => Some(t),
            Name::Ref(id) => self.0.iter().find(|(i, _)| i == id).map(|&(_, n)| n),
        }
    }
}

/// One script's nodes: an object or a list at the top.
pub fn parse(text: &str) -> Vec<Node<'_>> {
    match serde_json::from_str::<Nodes<'_>>(unwrapped(text)) {
        Ok(nodes) => nodes.0,
        Err(_) => Vec::new(),
    }
}

/// A script's JSON without the markers older pages wrap it in, one in
/// another: `<!-- … -->`, `<![CDATA[ … ]]>` and the `//` that hides them
/// from a JavaScript parser (`//<![CDATA[ … //]]>`).
fn unwrapped(text: &str) -> &str {
    let mut text = text.trim();
    loop {
        let open = ["<!--", "<![CDATA[", "//"]
            .iter()
            .find_map(|m| text.strip_prefix(m));
        let close = ["-->", "]]>", "//"]
            .iter()
            .find_map(|m| text.strip_suffix(m));
        match (open, close) {
            (None, None) => return text,
            (Some(t), _) => text = t.trim(),
            (None, Some(t)) => text = t.trim(),
        }
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

/// A person's or organisation's name: `"Ann"`, `{"name": "Ann"}`, or a
/// reference to the node that names it, `{"@id": "#ann"}`.
#[derive(Debug, Default, Deserialize)]
struct Named<'a> {
    #[serde(borrow, default)]
    name: Option<MaybeStr<'a>>,
    #[serde(rename = "@id", borrow, default)]
    id: MaybeStr<'a>,
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
                Ok(Names(vec![Name::Text(Cow::Borrowed(v))]))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Names(vec![Name::Text(Cow::Owned(v.to_string()))]))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                let named = Named::deserialize(de::value::MapAccessDeserializer::new(map))?;
                let name = match (named.name.and_then(|n| n.0), named.id.0) {
                    (Some(name), _) => Some(Name::Text(name)),
                    (None, Some(id)) => Some(Name::Ref(id)),
                    (None, None) => None,
                };
                Ok(Names(name.into_iter().collect()))
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
        let text = |names: &Names| -> Vec<String> {
            names
                .0
                .iter()
                .filter_map(Name::text)
                .map(String::from)
                .collect()
        };
        assert_eq!(text(&n.author), ["Ann Lee", "Bo Chan"]);
        assert_eq!(text(&n.publisher), ["The Daily"]);
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
        assert_eq!(post.author.0, [Name::Text("Kim".into())]);
        assert_eq!(nodes[0].graph.0[0].published.get(), None);
    }

    /// Yoast SEO's layout: the article names its author by the `@id` of
    /// a Person elsewhere in the graph.
    #[test]
    fn an_author_named_by_reference_is_the_graph_s_person_of_that_id() {
        let nodes = parse(
            r##"{"@graph":[{"@type":"Person","@id":"https://x.example/#/schema/person/abc",
               "name":"Lois Lane"},{"@type":"Article","author":[
               {"@id":"https://x.example/#/schema/person/abc"},{"@id":"#nobody"}]}]}"##,
        );
        let ids = Ids::of(&nodes);
        let article = &nodes[0].graph.0[1];
        let names: Vec<_> = article.author.0.iter().map(|n| ids.name(n)).collect();
        assert_eq!(names, [Some("Lois Lane"), None]);
    }

    #[test]
    fn a_script_wrapped_in_cdata_or_a_comment_reads() {
        for text in [
            "\n//<![CDATA[\n{\"@type\":\"Article\",\"author\":\"Kim\"}\n//]]>\n",
            "<![CDATA[{\"@type\":\"Article\",\"author\":\"Kim\"}]]>",
            "<!--\n//<![CDATA[\n{\"@type\":\"Article\",\"author\":\"Kim\"}\n//]]>\n-->",
            "<!-- {\"@type\":\"Article\",\"author\":\"Kim\"} -->",
        ] {
            let nodes = parse(text);
            assert_eq!(nodes.len(), 1, "{text}");
            assert_eq!(nodes[0].author.0, [Name::Text("Kim".into())], "{text}");
        }
    }

    #[test]
    fn broken_json_gives_no_nodes() {
        let broken = r#"{"@type": "Article", "datePublished" : "2024-01-01",}"#;
        assert!(parse(broken).is_empty());
        assert_eq!(string_field(broken, "datePublished"), Some("2024-01-01"));
        assert!(parse("").is_empty());
    }
}
