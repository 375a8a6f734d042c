//! What the `Content-Type` header says: whether the body is HTML worth
//! extracting, and the declared charset handed to the core as a hint.

/// Media types the fetcher extracts. A missing header is let through: the
/// core's own sniffing refuses binary bodies.
const HTML_TYPES: &[&str] = &["text/html", "application/xhtml+xml"];

/// The media type, lower-cased, without parameters.
pub fn media_type(content_type: &str) -> String {
    content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// Whether a `Content-Type` value names HTML.
pub fn is_html(content_type: &str) -> bool {
    HTML_TYPES.contains(&media_type(content_type).as_str())
}

/// The `charset` parameter, unquoted, if any.
pub fn charset(content_type: &str) -> Option<String> {
    content_type.split(';').skip(1).find_map(|param| {
        let (name, value) = param.split_once('=')?;
        if !name.trim().eq_ignore_ascii_case("charset") {
            return None;
        }
        let value = value.trim().trim_matches('"').trim_matches('\'').trim();
        (!value.is_empty()).then(|| value.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_types() {
        assert!(is_html("text/html"));
        assert!(is_html("Text/HTML; charset=UTF-8"));
        assert!(is_html("application/xhtml+xml"));
        assert!(!is_html("application/pdf"));
        assert!(!is_html("image/png"));
        assert!(!is_html("text/plain"));
    }

    #[test]
    fn charset_parameter() {
        assert_eq!(
            charset("text/html; charset=ISO-8859-1").as_deref(),
            Some("ISO-8859-1")
        );
        assert_eq!(
            charset("text/html;CHARSET=\"utf-8\"").as_deref(),
            Some("utf-8")
        );
        assert_eq!(
            charset("text/html; foo=bar; charset=koi8-r").as_deref(),
            Some("koi8-r")
        );
        assert_eq!(charset("text/html"), None);
        assert_eq!(charset("text/html; charset="), None);
    }
}
