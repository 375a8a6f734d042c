//! Metadata on hand-written pages: author and dates from meta tags, from
//! JSON-LD, from a byline and `<time>` by the headline, and from the
//! text and the URL; site name, description, canonical URL, image,
//! keywords and categories; what is refused (profile URLs as authors, a
//! comment's author, broken JSON-LD).

use linesift::{Document, Extractor, Hints, Options};

/// Four paragraphs of invented prose, enough to be the page's content.
const BODY: &str = "<p>The harbour board of Lindmere voted on Tuesday to rebuild the old \
    stone pier, which storms damaged twice in the last three winters, and to open it to \
    fishing boats again by the spring.</p>\
    <p>Residents had asked for the work since the second storm, when the pier's northern \
    arm broke away and the ferry had to berth at the new quay on the far side of the bay.</p>\
    <p>The board said the rebuilt pier would keep its old line but stand a metre higher, so \
    that waves at high tide no longer break over its deck.</p>\
    <p>Work starts in March; the ferry keeps its present berth until the pier reopens.</p>";

/// A page: `head` inside `<head>`, `byline` between the headline and the
/// article's paragraphs, with a menu above and a footer below.
fn page(head: &str, byline: &str) -> String {
    format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Pier to be rebuilt | \
         Lindmere Gazette</title>{head}</head><body>\
         <nav><ul><li><a href=\"/\">Home</a></li><li><a href=\"/news\">News</a></li></ul></nav>\
         <main><article><h1>Harbour board votes to rebuild the old pier</h1>{byline}{BODY}\
         </article></main><footer><p>© Lindmere Gazette.</p></footer>\
         </body></html>"
    )
}

fn extract(html: &str, url: Option<&str>) -> Document {
    let hints = Hints {
        url: url.map(str::to_string),
        ..Hints::default()
    };
    Extractor::new(Options {
        metadata: true,
        simhash: true,
        ..Options::default()
    })
    .extract(html.as_bytes(), &hints)
    .expect("extracts")
}

#[test]
fn meta_tags_give_author_dates_and_the_page_s_description() {
    let head = r#"<meta name="author" content="Mara Quillon">
        <meta property="article:published_time" content="2024-05-17T09:30:00+02:00">
        <meta property="article:modified_time" content="2024-05-18T11:00:00+02:00">
        <meta property="og:site_name" content="Lindmere Gazette">
        <meta name="description" content="The stone pier is to be rebuilt &amp; reopened.">
        <meta property="og:image" content="https://gazette.example/pier.jpg">
        <link rel="canonical" href="/news/pier">
        <meta name="keywords" content="harbour, pier ,ferry">
        <meta property="article:section" content="Local">"#;
    let doc = extract(
        &page(head, ""),
        Some("https://gazette.example/news/pier?ref=x"),
    );
    let m = &doc.meta;
    assert_eq!(m.author.as_deref(), Some("Mara Quillon"));
    assert_eq!(m.published.as_deref(), Some("2024-05-17T09:30:00+02:00"));
    assert_eq!(m.modified.as_deref(), Some("2024-05-18T11:00:00+02:00"));
    assert_eq!(m.site_name.as_deref(), Some("Lindmere Gazette"));
    assert_eq!(
        m.description.as_deref(),
        Some("The stone pier is to be rebuilt & reopened.")
    );
    assert_eq!(m.image.as_deref(), Some("https://gazette.example/pier.jpg"));
    assert_eq!(
        m.canonical.as_deref(),
        Some("https://gazette.example/news/pier")
    );
    assert_eq!(m.keywords, ["harbour", "pier", "ferry"]);
    assert_eq!(m.categories, ["Local"]);
}

/// The image is an address like the canonical URL: one relative to the
/// page (`//cdn…`, `img/…`) resolves against its `<base>`, else its URL.
#[test]
fn an_image_resolves_against_the_page_s_base_as_the_canonical_url_does() {
    let url = Some("https://gazette.example/news/pier.html");
    let head = r#"<meta property="og:image" content="img/pier.jpg">"#;
    let m = extract(&page(head, ""), url).meta;
    assert_eq!(
        m.image.as_deref(),
        Some("https://gazette.example/news/img/pier.jpg")
    );
    let head = r#"<base href="https://www.gazette.example/news/local/">
        <meta property="og:image" content="//cdn.gazette.example/pier.jpg">
        <link rel="canonical" href="../pier">"#;
    let m = extract(&page(head, ""), url).meta;
    assert_eq!(
        m.image.as_deref(),
        Some("https://cdn.gazette.example/pier.jpg")
    );
    assert_eq!(
        m.canonical.as_deref(),
        Some("https://www.gazette.example/news/pier")
    );
    let m = extract(
        &page(r#"<meta property="og:image" content="img/pier.jpg">"#, ""),
        None,
    )
    .meta;
    assert_eq!(m.image.as_deref(), Some("img/pier.jpg"));
}

/// Keywords are listed once each: a tag repeated in another case, in the
/// same list or in another source, is the first one's.
#[test]
fn keywords_differing_only_in_case_are_listed_once() {
    let head = r#"<meta name="keywords" content="harbour, Pier, HARBOUR, Über">
        <meta property="article:tag" content="pier">
        <meta property="article:tag" content="über">"#;
    let m = extract(&page(head, ""), None).meta;
    assert_eq!(m.keywords, ["harbour", "Pier", "Über"]);
}

/// A canonical URL names the page: its fragment, a spot on it, is cut,
/// with or without a base to resolve against.
#[test]
fn a_canonical_url_loses_its_fragment() {
    let head = r#"<link rel="canonical" href="https://gazette.example/news/pier#comments">"#;
    for url in [None, Some("https://gazette.example/news/pier?ref=x")] {
        let m = extract(&page(head, ""), url).meta;
        assert_eq!(
            m.canonical.as_deref(),
            Some("https://gazette.example/news/pier"),
            "{url:?}"
        );
    }
}

#[test]
fn json_ld_gives_authors_and_the_date_and_its_body_is_not_needed() {
    let head = r#"<script type="application/ld+json">
        {"@context":"https://schema.org","@graph":[
          {"@type":"WebSite","name":"Lindmere Gazette"},
          {"@type":"NewsArticle","headline":"Harbour board votes",
           "articleBody":"The harbour board of Lindmere voted \"on Tuesday\" {to rebuild} [the pier].",
           "datePublished":"2024-05-17","dateModified":"2024-05-20T08:00:00Z",
           "author":[{"@type":"Person","name":"Mara Quillon"},{"@type":"Person","name":"Ted Aske"}],
           "publisher":{"@type":"Organization","name":"Gazette Media"},
           "keywords":"harbour,pier","articleSection":["Local","Coast"]}]}
        </script>"#;
    let m = extract(&page(head, ""), None).meta;
    assert_eq!(m.author.as_deref(), Some("Mara Quillon and Ted Aske"));
    assert_eq!(m.published.as_deref(), Some("2024-05-17"));
    assert_eq!(m.modified.as_deref(), Some("2024-05-20T08:00:00Z"));
    assert_eq!(m.site_name.as_deref(), Some("Gazette Media"));
    assert_eq!(m.keywords, ["harbour", "pier"]);
    assert_eq!(m.categories, ["Local", "Coast"]);
}

/// Yoast SEO's graph: the article names its author by the `@id` of a
/// Person node elsewhere in the graph.
#[test]
fn json_ld_names_an_author_given_by_reference_to_a_person_in_its_graph() {
    let head = r##"<script type="application/ld+json">
        {"@context":"https://schema.org","@graph":[
          {"@type":"NewsArticle","datePublished":"2024-05-17",
           "author":{"@id":"https://gazette.example/#/schema/person/7f3a"}},
          {"@type":"Person","@id":"https://gazette.example/#/schema/person/7f3a",
           "name":"Mara Quillon"}]}
        </script>"##;
    let m = extract(&page(head, ""), None).meta;
    assert_eq!(m.author.as_deref(), Some("Mara Quillon"));
}

/// Older WordPress pages hide the JSON from old parsers with
/// `//<![CDATA[` and `//]]>`.
#[test]
fn json_ld_wrapped_in_cdata_markers_is_read() {
    let head = "<script type=\"application/ld+json\">\n//<![CDATA[\n\
        {\"@type\":\"NewsArticle\",\"author\":{\"@type\":\"Person\",\"name\":\"Mara Quillon\"},\
        \"datePublished\":\"2024-05-17\"}\n//]]>\n</script>";
    let m = extract(&page(head, ""), None).meta;
    assert_eq!(m.author.as_deref(), Some("Mara Quillon"));
    assert_eq!(m.published.as_deref(), Some("2024-05-17"));
}

#[test]
fn a_byline_and_a_time_element_by_the_headline_give_author_and_date() {
    let byline = r#"<div class="post-meta"><span class="byline">By <a rel="author"
        href="/staff/mara">Mara Quillon</a></span> <time datetime="2023-11-02T07:15:00Z">2
        November 2023</time></div>"#;
    let m = extract(&page("", byline), None).meta;
    assert_eq!(m.author.as_deref(), Some("Mara Quillon"));
    assert_eq!(m.published.as_deref(), Some("2023-11-02T07:15:00Z"));
}

#[test]
fn a_date_written_in_the_byline_is_read() {
    let byline = r#"<p class="entry-date">Posted on 5 March 2022 by Ted Aske</p>"#;
    let m = extract(&page("", byline), None).meta;
    assert_eq!(m.published.as_deref(), Some("2022-03-05"));
}

#[test]
fn a_site_s_own_date_name_and_a_citation_date_are_read() {
    let own = r#"<meta name="w-published-date" content="2025-05-27T06:03:43Z">"#;
    let m = extract(&page(own, ""), None).meta;
    assert_eq!(m.published.as_deref(), Some("2025-05-27T06:03:43Z"));
    let citation = r#"<meta name="citation_publication_date" content="2023 Jan 7">"#;
    let m = extract(&page(citation, ""), None).meta;
    assert_eq!(m.published.as_deref(), Some("2023-01-07"));
}

/// Some CMSs write the publication date as RFC 2822 does: its time and
/// zone are kept as for an ISO date.
#[test]
fn an_rfc_2822_date_keeps_its_time_and_offset() {
    for (value, want) in [
        ("Tue, 05 Mar 2024 18:30:00 GMT", "2024-03-05T18:30:00Z"),
        (
            "Tue, 05 Mar 2024 18:30:00 +0100",
            "2024-03-05T18:30:00+01:00",
        ),
    ] {
        let head = format!(r#"<meta property="article:published_time" content="{value}">"#);
        let m = extract(&page(&head, ""), None).meta;
        assert_eq!(m.published.as_deref(), Some(want), "{value}");
    }
}

/// A date by the headline that the markup marks as the page's update
/// (`itemprop="dateModified"`, a class with `modified`) is no publication
/// date before JSON-LD's; alone, it still dates the page. The hAtom class
/// `updated`, which themes put on the publication date, marks no update.
#[test]
fn a_date_marked_as_the_update_gives_way_to_json_ld_s_publication_date() {
    let head = r#"<script type="application/ld+json">{"@type":"NewsArticle",
        "datePublished":"2024-03-05T09:00:00+01:00"}</script>"#;
    for byline in [
        r#"<p itemprop="dateModified">Updated March 7, 2024</p>"#,
        r#"<p class="date-modified">Updated March 7, 2024 at 12:00</p>"#,
        r#"<time itemprop="dateModified" datetime="2024-03-07">March 7</time>"#,
    ] {
        let m = extract(&page(head, byline), None).meta;
        assert_eq!(
            m.published.as_deref(),
            Some("2024-03-05T09:00:00+01:00"),
            "{byline}"
        );
        let m = extract(&page("", byline), None).meta;
        assert_eq!(m.published.as_deref(), Some("2024-03-07"), "{byline}");
    }
    let hatom = r#"<time class="entry-date updated" datetime="2024-03-04">March 4</time>"#;
    let m = extract(&page(head, hatom), None).meta;
    assert_eq!(m.published.as_deref(), Some("2024-03-04"));
}

/// A long article (more lines than the byline is looked for in below the
/// headline) dated only under its last paragraph.
fn dated_below(below: &str) -> String {
    let body: String = (1..=80)
        .map(|i| format!("<p>Paragraph {i} of the harbour board's long report on the pier.</p>\n"))
        .collect();
    format!(
        "<html><head><title>Pier</title></head><body><article><h1>The pier</h1>\n{body}         </article>\n{below}\n<footer><p>Lindmere Gazette</p></footer></body></html>"
    )
}

#[test]
fn a_page_dated_only_below_its_article_takes_that_date() {
    let html = dated_below(r#"<div class="post-date">Posted on April 13, 2023</div>"#);
    assert_eq!(
        extract(&html, None).meta.published.as_deref(),
        Some("2023-04-13")
    );
}

#[test]
fn a_date_in_plain_text_below_the_article_is_not_taken() {
    let html = dated_below(r#"<div class="reply"><p>I walked the pier on May 2, 2023.</p></div>"#);
    assert_eq!(extract(&html, None).meta.published, None);
}

#[test]
fn the_url_dates_a_page_that_says_nothing_else() {
    let html = format!(
        "<html><head><title>Pier</title></head><body><article><h1>The pier</h1>{BODY}\
         </article></body></html>"
    );
    let m = extract(&html, Some("https://gazette.example/2021/07/09/the-pier/")).meta;
    assert_eq!(m.published.as_deref(), Some("2021-07-09"));
    assert_eq!(extract(&html, None).meta.published, None);
}

#[test]
fn a_title_put_where_the_canonical_url_belongs_gives_way_to_og_url_and_its_date() {
    let head = r#"<link rel="canonical" href="Why the pier is rebuilt">
        <meta property="og:url" content="https://gazette.example/news/2023/october/03/pier">"#;
    let html = page(head, "<p class=\"date\">03/10/2023</p>");
    let m = extract(&html, None).meta;
    assert_eq!(
        m.canonical.as_deref(),
        Some("https://gazette.example/news/2023/october/03/pier")
    );
    assert_eq!(m.published.as_deref(), Some("2023-10-03"));
}

#[test]
fn a_profile_url_is_no_author_and_a_comment_s_author_is_not_the_page_s() {
    let head = r#"<meta property="article:author" content="https://social.example/mara">"#;
    let html = page(head, "").replace(
        "</article>",
        r#"</article><section class="comments"><div class="comment-author">Rolf Berne</div>
           <p>Good news at last for the boats.</p></section>"#,
    );
    let m = extract(&html, None).meta;
    assert_eq!(m.author, None);
}

/// A byline written as a plain line of text, with no class or `rel`
/// naming it, still names the author; a line that only opens with "By"
/// does not.
#[test]
fn a_plain_by_line_under_the_headline_names_the_author() {
    let m = extract(&page("", "<p>By Mara Quillon</p>"), None).meta;
    assert_eq!(m.author.as_deref(), Some("Mara Quillon"));
    let m = extract(&page("", "<p>Written by</p><p>Mara Quillon</p>"), None).meta;
    assert_eq!(m.author.as_deref(), Some("Mara Quillon"));
    let m = extract(
        &page("", "<p>By clicking on a photo you open the gallery.</p>"),
        None,
    )
    .meta;
    assert_eq!(m.author, None);
}

/// A French byline puts "le" between the name and the date; the date is
/// cut from the name and so is its preposition.
#[test]
fn a_byline_s_preposition_before_its_date_is_no_part_of_the_name() {
    let m = extract(
        &page("", "<p>Par Jean-Pierre Dupont, le 3 avril 2024</p>"),
        None,
    )
    .meta;
    assert_eq!(m.author.as_deref(), Some("Jean-Pierre Dupont"));
    assert_eq!(m.published.as_deref(), Some("2024-04-03"));
}

/// SEO plugins write the author as a Twitter card's label and value
/// ("Written by" in the site's language); other pairs (reading time) name
/// no one.
#[test]
fn a_twitter_card_labelled_written_by_gives_the_author() {
    let card = |label: &str| {
        format!(
            r#"<meta name="twitter:label1" content="{label}">
            <meta name="twitter:data1" content="Mara Quillon">
            <meta name="twitter:label2" content="Est. reading time">
            <meta name="twitter:data2" content="3 minutes">"#
        )
    };
    let m = extract(&page(&card("Written by"), ""), None).meta;
    assert_eq!(m.author.as_deref(), Some("Mara Quillon"));
    let m = extract(&page(&card("Geschrieben von"), ""), None).meta;
    assert_eq!(m.author.as_deref(), Some("Mara Quillon"));
    let m = extract(&page(&card("Est. reading time"), ""), None).meta;
    assert_eq!(m.author, None);
}

/// Scholarly pages write one `citation_author` tag an author; a later
/// tag of another name of the same rank adds no one.
#[test]
fn repeated_author_tags_list_every_author() {
    let head = r#"<meta name="citation_author" content="Mara Quillon">
        <meta name="citation_author" content="Tomas Ferreira">
        <meta name="citation_author" content="Mara Quillon">
        <meta name="citation_author" content="Ines Vallgren">
        <meta name="author" content="Lindmere Gazette">"#;
    let m = extract(&page(head, ""), None).meta;
    assert_eq!(
        m.author.as_deref(),
        Some("Mara Quillon, Tomas Ferreira and Ines Vallgren")
    );
    let head = r#"<meta name="dc.creator" content="Quillon, Mara">
        <meta name="dc.creator" content="Ferreira, Tomas">"#;
    let m = extract(&page(head, ""), None).meta;
    assert_eq!(m.author.as_deref(), Some("Quillon, Mara; Ferreira, Tomas"));
}

#[test]
fn broken_json_ld_still_dates_the_page_and_gives_no_author() {
    let head = r#"<script type="application/ld+json">{"@type":"Article",
        "datePublished": "2020-02-29T10:00:00", "author": "Mara Quillon",}</script>"#;
    let m = extract(&page(head, ""), None).meta;
    assert_eq!(m.published.as_deref(), Some("2020-02-29T10:00:00"));
    assert_eq!(m.author, None);
}

#[test]
fn a_page_without_metadata_has_none() {
    let html = format!("<html><body><h1>The pier</h1>{BODY}</body></html>");
    let m = extract(&html, None).meta;
    assert_eq!(m, Default::default());
}

#[test]
fn metadata_and_the_simhash_are_left_out_unless_asked_for() {
    let head = r#"<meta name="author" content="Mara Quillon">
        <meta property="article:published_time" content="2024-05-17T09:30:00+02:00">"#;
    let doc = Extractor::new(Options::default())
        .extract(page(head, "").as_bytes(), &Hints::default())
        .expect("extracts");
    assert!(doc.text.contains("Harbour board votes"));
    assert_eq!(doc.meta.author, None);
    assert_eq!(doc.meta.published, None);
    assert_eq!(doc.simhash, "");
    let asked = extract(&page(head, ""), None);
    assert_eq!(asked.meta.author.as_deref(), Some("Mara Quillon"));
    assert_eq!(asked.simhash.len(), 16);
}
