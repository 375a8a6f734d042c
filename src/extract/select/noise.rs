//! Noise headings and promotion labels: the short texts ("Related",
//! "Read more:", "Comments") that open or label furniture, in the
//! languages of the corpus. Reads a line's text; decides nothing itself.

use super::*;

/// A section after a noise heading with at least 1/4 of its text in
/// links is a list of links, dropped whatever its length (an article's
/// text has a few links; a long section under "Related" that is content
/// had, on the corpus, under a fifth).
pub(super) const LINKED_SECTION: u64 = 4;

/// What a noise heading opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Noise {
    /// Sharing buttons and the like: nothing of the article follows.
    Share,
    /// Links to other pages (related, popular, recommended ...).
    Links,
    /// Reader comments, which some collections keep as the page's text
    /// (CleanEval's blogs), others not.
    Comments,
}

impl Noise {
    /// The section is dropped while the text before the heading is at
    /// least this many times the text from it on: a long "Related"
    /// section is often content, and a comment thread is no part of the
    /// article only when it is short beside it.
    pub(super) fn share(self) -> u64 {
        match self {
            Noise::Share => 1,
            Noise::Links => 2,
            Noise::Comments => 4,
        }
    }
}

/// Longest heading text (characters, whitespace collapsed) weighed as a
/// noise heading: a long heading is a title, not a section label.
pub(super) const NOISE_HEADING_MAX: usize = 80;

/// Whether a line is a promotion of another article set in the text: a
/// label that opens a section of links ("Read more:", "Lea también:",
/// "Lesen Sie auch:"; see [`noise_phrase`] and [`PROMOTION_LABELS`]), a
/// colon, then one link that holds half the line's text or more. A label
/// over a list of links is left to the rules for trailing links.
pub(super) fn promotion(src: &str, l: &Line) -> bool {
    if l.anchors != 1 || l.anchor_text * 2 < l.text {
        return false;
    }
    let Some((text, len)) = text_prefix(l.source(src), false) else {
        return false;
    };
    let text = &text[..len];
    let Some(colon) = text
        .iter()
        .take(PROMOTION_LABEL_MAX)
        .position(|&b| b == b':')
    else {
        return false;
    };
    let label = text[..colon].trim_ascii();
    noise_phrase(label) == Some(Noise::Links)
        || PROMOTION_LABELS.iter().any(|w| label == w.as_bytes())
}

/// Longest label (bytes) before a promotion's colon.
pub(super) const PROMOTION_LABEL_MAX: usize = 40;

/// Labels of a promotion besides the section labels of [`NOISE_STARTS`]:
/// read more, see also, watch, in the languages the corpora hold.
pub(super) const PROMOTION_LABELS: &[&str] = &[
    "read more",
    "read also",
    "also read",
    "see also",
    "siehe auch",
    "mehr dazu",
    "lesen sie mehr",
    "voir aussi",
    "lire la suite",
    "mira",
    "ver también",
    "puedes ver",
    "lea más",
    "lee más",
    "vedi anche",
    "veja também",
    "leia mais",
    "lees meer",
    "zobacz",
];

/// What a heading line's text (its markup skipped as the renderer skips
/// it, whitespace collapsed, ASCII case ignored) opens, if it is a noise
/// heading. Markup the renderer's rules cannot follow makes it none.
pub(super) fn noise_heading(source: &str) -> Option<Noise> {
    let (text, len) = text_prefix(source, true)?;
    noise_phrase(&text[..len])
}

/// A line's text as [`noise_heading`] reads it, at most
/// [`NOISE_HEADING_MAX`] bytes: `None` when its markup cannot be followed,
/// or when it is longer and `whole` text is wanted, else its start.
pub(super) fn text_prefix(source: &str, whole: bool) -> Option<([u8; NOISE_HEADING_MAX], usize)> {
    let bytes = source.as_bytes();
    let mut text = [0u8; NOISE_HEADING_MAX];
    let (mut len, mut space, mut at) = (0, false, 0);
    while let Some(&b) = bytes.get(at) {
        if b == b'<' {
            // A tag, comment or raw text left out, as the renderer leaves
            // it out (a `>` inside a quoted attribute does not end a tag);
            // `at` itself when the `<` is text.
            let next = text::text_after_markup(bytes, at)?;
            if next > at {
                at = next;
                continue;
            }
        }
        // A character reference as the renderer decodes it (`Lea
        // m&aacute;s:`, `Read&nbsp;more`), else the byte itself.
        let mut utf8 = [0u8; 4];
        let reference = (b == b'&').then(|| entity_at(source, at)).flatten();
        let c: &[u8] = match reference {
            Some((c, next)) => {
                at = next;
                if c.is_whitespace() {
                    space = len > 0;
                    continue;
                }
                c.encode_utf8(&mut utf8).as_bytes()
            }
            None => {
                at += 1;
                if b.is_ascii_whitespace() {
                    space = len > 0;
                    continue;
                }
                std::slice::from_ref(&b)
            }
        };
        if len + c.len() + usize::from(space) > NOISE_HEADING_MAX {
            if whole {
                return None;
            }
            break;
        }
        if space {
            text[len] = b' ';
            len += 1;
            space = false;
        }
        for &b in c {
            text[len] = b.to_ascii_lowercase();
            len += 1;
        }
    }
    Some((text, len))
}

/// The character a one-character reference at `at` stands for (`&amp;`,
/// `&aacute;`, `&#233;`), and where the text goes on after it.
fn entity_at(source: &str, at: usize) -> Option<(char, usize)> {
    let rest = source.as_bytes().get(at..)?;
    if rest.first() != Some(&b'&') {
        return None;
    }
    // The longest names used in text are short (`&thinsp;`, `&#x2014;`).
    let end = rest.iter().take(10).position(|&b| b == b';')?;
    let reference = source.get(at..at + end + 1)?;
    let decoded = html_escape::decode_html_entities(reference);
    let mut chars = decoded.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if decoded != reference => Some((c, at + end + 1)),
        _ => None,
    }
}

/// A heading's lowercase text as a noise heading: it starts with one of
/// [`NOISE_STARTS`] (a whole word or words), is one of [`NOISE_WHOLE`], or
/// is a count of comments ("12 comments", "3 responses to ...").
pub(super) fn noise_phrase(text: &[u8]) -> Option<Noise> {
    // The first bytes compared inline before the rest: most headings
    // start like none of the phrases, and a `starts_with` per phrase was
    // a `memcmp` call.
    let word_at = |s: &[u8], w: &str| {
        let w = w.as_bytes();
        s.first() == w.first()
            && s.starts_with(w)
            && s.get(w.len()).is_none_or(|b| !b.is_ascii_alphanumeric())
    };
    let start = NOISE_STARTS.iter().find(|(w, _)| word_at(text, w));
    let whole = NOISE_WHOLE.iter().find(|(w, _)| text == w.as_bytes());
    if let Some(&(_, noise)) = start.or(whole) {
        return Some(noise);
    }
    let digits = text.iter().take_while(|b| b.is_ascii_digit()).count();
    let rest = text[digits..].strip_prefix(b" ")?;
    let counted = [
        "comment",
        "comments",
        "responses",
        "replies",
        "kommentare",
        "commentaires",
        "comentarios",
        "commenti",
        "comentários",
        "reacties",
        "komentarzy",
    ];
    (digits > 0 && counted.iter().any(|w| word_at(rest, w))).then_some(Noise::Comments)
}

// `noise_phrase` compares a phrase's first byte first: an empty phrase
// would then match only an empty heading, not every heading as before.
const _: () = {
    let mut i = 0;
    while i < NOISE_STARTS.len() {
        assert!(!NOISE_STARTS[i].0.is_empty());
        i += 1;
    }
};

pub(super) const NOISE_STARTS: &[(&str, Noise)] = &[
    ("related", Noise::Links),
    ("you may also like", Noise::Links),
    ("you might also like", Noise::Links),
    ("you may like", Noise::Links),
    ("you might like", Noise::Links),
    ("you may also enjoy", Noise::Links),
    ("you might also enjoy", Noise::Links),
    ("you may enjoy", Noise::Links),
    ("you might enjoy", Noise::Links),
    ("more from", Noise::Links),
    ("more stories", Noise::Links),
    ("more articles", Noise::Links),
    ("more news", Noise::Links),
    ("more posts", Noise::Links),
    ("read next", Noise::Links),
    ("most popular", Noise::Links),
    ("most read", Noise::Links),
    ("popular posts", Noise::Links),
    ("popular articles", Noise::Links),
    ("popular stories", Noise::Links),
    ("trending", Noise::Links),
    ("recommended for you", Noise::Links),
    ("recommended reading", Noise::Links),
    ("recommended articles", Noise::Links),
    ("recommended stories", Noise::Links),
    ("recommended posts", Noise::Links),
    ("further reading", Noise::Links),
    ("from other news sites", Noise::Links),
    ("from around the web", Noise::Links),
    ("around the web", Noise::Links),
    ("elsewhere on the web", Noise::Links),
    ("leave a reply", Noise::Comments),
    ("leave a comment", Noise::Comments),
    ("share this", Noise::Share),
    ("share with", Noise::Share),
    // The same labels in German, French, Spanish, Italian, Portuguese,
    // Dutch and Polish (lowercase as `noise_heading` folds ASCII only: a
    // capital that is not ASCII is listed as written).
    ("ähnliche artikel", Noise::Links),
    ("Ähnliche artikel", Noise::Links),
    ("ähnliche beiträge", Noise::Links),
    ("Ähnliche beiträge", Noise::Links),
    ("verwandte artikel", Noise::Links),
    ("verwandte beiträge", Noise::Links),
    ("das könnte sie auch interessieren", Noise::Links),
    ("das könnte dich auch interessieren", Noise::Links),
    ("das könnte ihnen auch gefallen", Noise::Links),
    ("das könnte dir auch gefallen", Noise::Links),
    ("auch interessant", Noise::Links),
    ("weitere artikel", Noise::Links),
    ("weitere beiträge", Noise::Links),
    ("weitere nachrichten", Noise::Links),
    ("mehr zum thema", Noise::Links),
    ("mehr aus", Noise::Links),
    ("meistgelesen", Noise::Links),
    ("am meisten gelesen", Noise::Links),
    ("beliebte artikel", Noise::Links),
    ("beliebte beiträge", Noise::Links),
    ("empfohlene artikel", Noise::Links),
    ("lesen sie auch", Noise::Links),
    ("lies auch", Noise::Links),
    ("auch lesenswert", Noise::Links),
    ("aus dem netz", Noise::Links),
    ("articles similaires", Noise::Links),
    ("articles liés", Noise::Links),
    ("à lire aussi", Noise::Links),
    ("À lire aussi", Noise::Links),
    ("a lire aussi", Noise::Links),
    ("lire aussi", Noise::Links),
    ("vous aimerez aussi", Noise::Links),
    ("vous aimerez peut-être", Noise::Links),
    ("vous pourriez aimer", Noise::Links),
    ("plus d'articles", Noise::Links),
    ("les plus lus", Noise::Links),
    ("articles les plus lus", Noise::Links),
    ("articles populaires", Noise::Links),
    ("recommandé pour vous", Noise::Links),
    ("sur le même sujet", Noise::Links),
    ("dans la même rubrique", Noise::Links),
    ("ailleurs sur le web", Noise::Links),
    ("artículos relacionados", Noise::Links),
    ("noticias relacionadas", Noise::Links),
    ("te puede interesar", Noise::Links),
    ("le puede interesar", Noise::Links),
    ("también te puede interesar", Noise::Links),
    ("también le puede interesar", Noise::Links),
    ("te podría interesar", Noise::Links),
    ("lea también", Noise::Links),
    ("lee también", Noise::Links),
    ("más noticias", Noise::Links),
    ("más artículos", Noise::Links),
    ("lo más leído", Noise::Links),
    ("más leídas", Noise::Links),
    ("más leídos", Noise::Links),
    ("te recomendamos", Noise::Links),
    ("recomendado para ti", Noise::Links),
    ("articoli correlati", Noise::Links),
    ("notizie correlate", Noise::Links),
    ("potrebbe interessarti", Noise::Links),
    ("ti potrebbe interessare", Noise::Links),
    ("potrebbe interessarti anche", Noise::Links),
    ("leggi anche", Noise::Links),
    ("più letti", Noise::Links),
    ("articoli più letti", Noise::Links),
    ("altre notizie", Noise::Links),
    ("altri articoli", Noise::Links),
    ("consigliati per te", Noise::Links),
    ("artigos relacionados", Noise::Links),
    ("notícias relacionadas", Noise::Links),
    ("leia também", Noise::Links),
    ("leia mais", Noise::Links),
    ("você também pode gostar", Noise::Links),
    ("você pode gostar", Noise::Links),
    ("mais lidas", Noise::Links),
    ("mais lidos", Noise::Links),
    ("mais notícias", Noise::Links),
    ("mais artigos", Noise::Links),
    ("recomendado para você", Noise::Links),
    ("gerelateerde artikelen", Noise::Links),
    ("gerelateerd", Noise::Links),
    ("lees ook", Noise::Links),
    ("meer nieuws", Noise::Links),
    ("meer artikelen", Noise::Links),
    ("meest gelezen", Noise::Links),
    ("populaire artikelen", Noise::Links),
    ("aanbevolen voor jou", Noise::Links),
    ("zobacz również", Noise::Links),
    ("zobacz też", Noise::Links),
    ("czytaj także", Noise::Links),
    ("czytaj też", Noise::Links),
    ("powiązane artykuły", Noise::Links),
    ("podobne artykuły", Noise::Links),
    ("najczęściej czytane", Noise::Links),
    ("polecane artykuły", Noise::Links),
    ("kommentar schreiben", Noise::Comments),
    ("kommentar hinterlassen", Noise::Comments),
    ("schreibe einen kommentar", Noise::Comments),
    ("schreiben sie einen kommentar", Noise::Comments),
    ("laisser un commentaire", Noise::Comments),
    ("laissez un commentaire", Noise::Comments),
    ("deja un comentario", Noise::Comments),
    ("deja tu comentario", Noise::Comments),
    ("lascia un commento", Noise::Comments),
    ("deixe um comentário", Noise::Comments),
    ("deixe seu comentário", Noise::Comments),
    ("laat een reactie achter", Noise::Comments),
    ("dodaj komentarz", Noise::Comments),
    ("diesen artikel teilen", Noise::Share),
    ("artikel teilen", Noise::Share),
    ("beitrag teilen", Noise::Share),
    ("partager cet article", Noise::Share),
    ("partagez cet article", Noise::Share),
    ("compartir este artículo", Noise::Share),
    ("comparte este artículo", Noise::Share),
    ("condividi questo articolo", Noise::Share),
    ("compartilhe este artigo", Noise::Share),
    ("partilhe este artigo", Noise::Share),
    ("deel dit artikel", Noise::Share),
    ("udostępnij artykuł", Noise::Share),
];

pub(super) const NOISE_WHOLE: &[(&str, Noise)] = &[
    ("comment", Noise::Comments),
    ("comments", Noise::Comments),
    ("latest news", Noise::Links),
    ("latest posts", Noise::Links),
    ("latest articles", Noise::Links),
    ("latest stories", Noise::Links),
    ("kommentare", Noise::Comments),
    ("commentaires", Noise::Comments),
    ("comentarios", Noise::Comments),
    ("commenti", Noise::Comments),
    ("comentários", Noise::Comments),
    ("reacties", Noise::Comments),
    ("komentarze", Noise::Comments),
    ("neueste artikel", Noise::Links),
    ("neueste beiträge", Noise::Links),
    ("neueste nachrichten", Noise::Links),
    ("aktuelle nachrichten", Noise::Links),
    ("derniers articles", Noise::Links),
    ("dernières actualités", Noise::Links),
    ("últimas noticias", Noise::Links),
    ("Últimas noticias", Noise::Links),
    ("ultime notizie", Noise::Links),
    ("últimas notícias", Noise::Links),
    ("Últimas notícias", Noise::Links),
    ("laatste nieuws", Noise::Links),
    ("najnowsze", Noise::Links),
];
