//! An author's name as a byline writes it, cleaned: the `By` before it,
//! the date, role or section after it, and text that names no person
//! (`Sign in`, a URL, a handle) refused. Reads strings only.

/// Words a byline puts before the names.
const PREFIXES: &[&str] = &[
    "written by",
    "posted by",
    "post by",
    "published by",
    "authored by",
    "story by",
    "words by",
    "text by",
    "article by",
    "guide by",
    "review by",
    "by",
    "author",
    "authors",
    "von",
    "par",
    "por",
    "door",
    "di",
    "autor",
    "auteur",
];

/// Text that a byline-like element holds but names nobody.
const NOT_NAMES: &[&str] = &[
    "admin",
    "administrator",
    "by",
    "author",
    "authors",
    "about the author",
    "anonymous",
    "comments",
    "date",
    "follow",
    "guest",
    "more",
    "posts",
    "read more",
    "share",
    "sign in",
    "staff",
    "subject",
    "submission",
    "thread",
    "tweet",
    "unknown",
    "view all posts",
    "written by",
];

/// The name in one byline, or `None` when the text names no one.
pub fn clean(text: &str) -> Option<String> {
    if is_link(text.trim()) {
        return None;
    }
    let mut s = text.split_whitespace().collect::<Vec<_>>().join(" ");
    // The words that open a byline go, and so does a date before or
    // after them, glued to the name by the markup or not: a date is no
    // name ("Written By Feb 11, 2019", "Dec 17, 2025Julian K. Arni",
    // "November 12, 2012 by Sam Laird").
    for _ in 0..2 {
        s = strip_prefix(&s).to_string();
        if super::date::starts_with_date(&s) {
            s = after_year(&s).to_string();
        }
    }
    let mut cut = s.len();
    for stop in [
        " | ",
        " • ",
        " · ",
        " — ",
        " – ",
        " » ",
        "\u{2022}",
        "|",
        " on ",
        " in ",
        " updated ",
        " published ",
    ] {
        if let Some(i) = s.find(stop)
            && i > 0
        {
            cut = cut.min(i);
        }
    }
    let date = date_start(&s);
    if let Some(i) = date {
        cut = cut.min(i);
    }
    let name = s[..cut].trim_matches(|c: char| {
        c.is_whitespace() || matches!(c, ',' | ':' | '-' | '–' | '—' | '|' | '•' | '/' | '.' | '@')
    });
    let name = match date == Some(cut) {
        true => without_function_word(name),
        false => name,
    }
    .to_string();
    let mut name = name
        .strip_suffix(" and")
        .unwrap_or(&name)
        .trim()
        .to_string();
    let mut full_stop = s[..cut].trim_end().ends_with('.');
    while let Some((head, stopped)) = trailing_label(&name) {
        (name, full_stop) = (head.to_string(), stopped);
    }
    if full_stop && ends_with_abbreviation(&name) {
        name.push('.');
    }
    plausible(&name).then_some(name)
}

/// A name without the short lowercase word that a byline puts, after a
/// comma, before the date cut from it: the preposition of the date in
/// the byline's language ("Jean Dupont, le" of "…, le 3 avril 2024",
/// "Anna Berg, am" of "…, am 3. April 2024"). Words of a name or a title
/// after a comma are capitalised ("Ann Lee, MD").
fn without_function_word(name: &str) -> &str {
    match name.rsplit_once(',') {
        Some((head, word))
            if (1..=3).contains(&word.trim().chars().count())
                && word.trim().chars().all(char::is_lowercase) =>
        {
            head.trim_end()
        }
        _ => name,
    }
}

/// The text after the first four digits in `s` (a date's year), without
/// the spaces and punctuation that follow them; empty when none follow.
fn after_year(s: &str) -> &str {
    let b = s.as_bytes();
    let year = (0..b.len().saturating_sub(3)).find(|&i| {
        b[i..i + 4].iter().all(u8::is_ascii_digit) && (i == 0 || !b[i - 1].is_ascii_digit())
    });
    year.map_or("", |i| {
        s[i + 4..].trim_start_matches(|c: char| !c.is_alphanumeric())
    })
}

/// Does a name end with a word whose full stop is its own, not the
/// sentence's: an initial (`Jeff T.`), a word with stops inside (`Ph.D.`,
/// `M.D.`) or a company's or generation's suffix (`Inc.`, `Jr.`)?
fn ends_with_abbreviation(name: &str) -> bool {
    let last = name.rsplit([' ', ',']).next().unwrap_or("");
    let mut letters = last.chars();
    let initial = letters.next().is_some_and(char::is_uppercase) && letters.next().is_none();
    initial || last.contains('.') || ["Inc", "Ltd", "Co", "Corp", "Jr", "Sr"].contains(&last)
}

/// Words that open a byline written as running text, the name after
/// them on the same line or, alone on theirs, on the next.
const TEXT_PREFIXES: &[&str] = &["written by", "posted by", "by", "von", "por", "par", "door"];

/// Lowercase words a name may hold between capitalised ones.
const NAME_LINKS: &[&str] = &[
    "and", "und", "y", "et", "e", "&", "van", "von", "de", "der", "da", "del", "la", "le",
];

/// The author a text by the headline names in a byline line ("By Ann
/// Lee", "Written by" above "Ann Lee", "Published May 3, 2024 by Ann
/// Lee"): a line opening with a byline's words, or with a date and then
/// them, and going on with at most six words, each capitalised or a link
/// word (`and`, `van`). Other lines that open so are not bylines ("By
/// clicking accept…", "By 2030…").
pub fn from_text(text: &str) -> Option<String> {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let by = memchr::memmem::Finder::new(" by ");
    while let Some(line) = lines.next() {
        let line = after_dated_label(line, &by).unwrap_or(line);
        let Some((p, after)) = opening(line, TEXT_PREFIXES) else {
            continue;
        };
        let candidate = if !after.trim_start_matches(':').trim().is_empty() {
            line
        } else if p.contains(' ') {
            lines.next()?
        } else {
            continue;
        };
        if let Some(name) = clean(candidate).filter(|n| names_people(n)) {
            return Some(name);
        }
    }
    None
}

/// The longest label and date before a byline's "by" (bytes):
/// "Published on September 17, 2023" is 31.
const DATED_LABEL_MAX: usize = 48;

/// The "by …" of a line that opens with a date, alone or after a label
/// of a word or two ("Published August 7, 2023 by Nicole Burke",
/// "Posted on 03/01/2017 by Ann Lee").
fn after_dated_label<'a>(line: &'a str, by: &memchr::memmem::Finder) -> Option<&'a str> {
    // A label and a date are short; prose with " by " further on is not
    // tokenized for dates.
    let by = by.find(&line.as_bytes()[..DATED_LABEL_MAX.min(line.len())])?;
    let mut head = line[..by].trim();
    for _ in 0..3 {
        if super::date::starts_with_date(head) {
            return after_year(head).is_empty().then(|| &line[by + 1..]);
        }
        head = head.split_once(' ')?.1;
    }
    None
}

/// The name before a label or weekday that a byline puts after it
/// ("Alex Hern Published", "Stephen Walt Thursday", "Dan Savage, The
/// Stranger. Posted"), without the full stop before the label, and
/// whether there was one. `None` where the name ends with no label.
fn trailing_label(name: &str) -> Option<(&str, bool)> {
    const LABELS: &[&str] = &[
        "Published",
        "Updated",
        "Posted",
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
    ];
    let (head, last) = name.rsplit_once(' ')?;
    LABELS.contains(&last).then(|| {
        let head = head.trim_end_matches([',', ' ']);
        (head.trim_end_matches('.'), head.ends_with('.'))
    })
}

/// Is a cleaned name a short run of capitalised words?
fn names_people(name: &str) -> bool {
    let words: Vec<&str> = name.split_whitespace().collect();
    name.chars().filter(|c| c.is_alphabetic()).count() >= 3
        && words.len() <= 6
        && words
            .iter()
            .any(|w| w.chars().next().is_some_and(char::is_uppercase))
        && words.iter().all(|w| {
            w.chars().next().is_some_and(char::is_uppercase)
                || NAME_LINKS.contains(&w.trim_end_matches(','))
        })
}

fn strip_prefix(s: &str) -> &str {
    let s = s.trim_start_matches(|c: char| c.is_whitespace() || matches!(c, ':' | '-' | '|' | '•'));
    match opening(s, PREFIXES) {
        Some((_, rest)) if !rest.is_empty() => rest.trim_start_matches([' ', ':']),
        _ => s,
    }
}

/// The first of `prefixes` that `line` opens with as a whole word (ASCII
/// case ignored; the line ends there, or a space or `:` follows: "By Ann",
/// not "Bylines"), and the rest of the line after it.
fn opening<'a>(line: &'a str, prefixes: &[&'static str]) -> Option<(&'static str, &'a str)> {
    let b = line.as_bytes();
    prefixes.iter().find_map(|&p| {
        let opens = b.get(..p.len())?.eq_ignore_ascii_case(p.as_bytes());
        // An ASCII byte or the end follows: `p.len()` is a char boundary.
        let whole_word = matches!(b.get(p.len()), None | Some(b' ' | b':'));
        // Or a name the markup glued to a lowercase `by` ("Posted
        // byDamien Walter"); not "BYRON", not "Bylines".
        let glued = p.ends_with("by")
            && b.get(p.len() - 2..p.len()) == Some(b"by")
            && b.get(p.len()).is_some_and(u8::is_ascii_uppercase);
        (opens && (whole_word || glued)).then(|| (p, &line[p.len()..]))
    })
}

/// Where a date starts in a byline (`Luke Kim December 17, 2025`),
/// after its first word.
fn date_start(s: &str) -> Option<usize> {
    s.match_indices(' ')
        .map(|(i, _)| i + 1)
        .find(|&i| super::date::starts_with_date(&s[i..]))
        .map(|i| i - 1)
}

/// Could this be a person's or an organisation's name?
fn plausible(name: &str) -> bool {
    let words = name.split(' ').count();
    let lower = name.to_lowercase();
    !name.is_empty()
        && name.chars().count() <= 90
        && words <= 12
        && !name.contains("://")
        && !name.starts_with("www.")
        && !name.contains('@')
        && name.chars().any(char::is_alphabetic)
        && !name.chars().next().is_some_and(|c| c.is_ascii_digit())
        && !NOT_NAMES.contains(&lower.as_str())
        && !super::date::is_month_and_day(name)
}

/// Is a meta value a URL or a handle rather than a name
/// (`article:author` often holds a profile's address)?
pub fn is_link(value: &str) -> bool {
    value.contains("://")
        || value.starts_with("www.")
        || value.starts_with('@')
        || value.starts_with('/')
}

/// Several names as a byline lists them: `A, B and C`; names written
/// surname first (`Roy, Aniruddha`) apart by semicolons.
pub fn join(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        _ if names.iter().any(|n| n.contains(',')) => names.join("; "),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bylines_lose_their_prefix_date_and_section() {
        for (text, want) in [
            ("By Scott Pletcher", "Scott Pletcher"),
            ("Written by: Ann Lee", "Ann Lee"),
            ("By MixmasterFred in Workshop Woodworking", "MixmasterFred"),
            ("Luke Kim December 17, 2025", "Luke Kim"),
            ("by Meaghan Weeden | 4 min read", "Meaghan Weeden"),
            ("Dylan Bailey, MS, RD, FAND", "Dylan Bailey, MS, RD, FAND"),
            ("By Genevieve Carlton, Ph.D.", "Genevieve Carlton, Ph.D."),
            ("Kaufman, Jeff T.", "Kaufman, Jeff T."),
            ("Cerebral Inc.", "Cerebral Inc."),
            ("Written by Ann Lee.", "Ann Lee"),
            ("By Serge Novak –", "Serge Novak"),
            ("By Ann Lee —", "Ann Lee"),
            (
                "Dan Savage, The Stranger. Posted",
                "Dan Savage, The Stranger",
            ),
            ("By Stephen Walt Published Thursday", "Stephen Walt"),
            ("Jeff T. Updated", "Jeff T."),
            (
                "  Team SimplyThrilled  September 4, 2025",
                "Team SimplyThrilled",
            ),
            ("Dec 17, 2025Julian K. Arni", "Julian K. Arni"),
            ("Posted byDamien Walter", "Damien Walter"),
            ("BYRON SMITH", "BYRON SMITH"),
            (
                "Post by changingtimes » Sat Dec 13, 2025 9:41 am",
                "changingtimes",
            ),
            ("November 12, 2012 by Sam Laird", "Sam Laird"),
            ("May Brennan", "May Brennan"),
            ("June 5 Ensemble", "June 5 Ensemble"),
        ] {
            assert_eq!(clean(text).as_deref(), Some(want), "{text}");
        }
    }

    /// A byline in French, German or Spanish puts a preposition between
    /// the name and the date ("Par Jean Dupont, le 3 avril 2024"): it goes
    /// with the date. A capitalised word after the comma is the name's.
    #[test]
    fn a_short_lowercase_word_between_a_name_and_its_date_goes_with_the_date() {
        for (text, want) in [
            (
                "Par Jean-Pierre Dupont, le 3 avril 2024",
                "Jean-Pierre Dupont",
            ),
            ("Von Anna Berg, am 3. April 2024", "Anna Berg"),
            ("Por Ana Ruiz, el 3 de abril de 2024", "Ana Ruiz"),
            ("By Ann Lee, MD 3 May 2024", "Ann Lee, MD"),
            ("Ann Lee, 3 May 2024", "Ann Lee"),
        ] {
            assert_eq!(clean(text).as_deref(), Some(want), "{text}");
        }
    }

    /// A byline element that holds only a date (with or without its
    /// year), or a date after its label, names no one.
    #[test]
    fn a_date_is_no_name() {
        for text in [
            "August 28, 2025",
            "Dec. 19, 2025",
            "Written By Feb 11, 2019 · 3 min read",
            "Date: November 5, 2012",
            "Jun 2",
            "Mar. 6",
            "Tweet",
        ] {
            assert_eq!(clean(text), None, "{text}");
        }
    }

    #[test]
    fn a_byline_in_running_text_is_a_line_opening_with_by_and_a_name() {
        for (text, want) in [
            ("Harbour story\nBy Ann Lee\nThe pier…", Some("Ann Lee")),
            (
                "Written by\nAnn van Dijk and Rolf Berne\n",
                Some("Ann van Dijk and Rolf Berne"),
            ),
            (
                "BY DOUG FERGUSON, AP Golf Writer",
                Some("DOUG FERGUSON, AP Golf Writer"),
            ),
            ("By Alex Hern Published", Some("Alex Hern")),
            (
                "Published August 7, 2023 by Nicole Burke\n",
                Some("Nicole Burke"),
            ),
            ("Posted on 03/01/2017 by Ann Lee", Some("Ann Lee")),
            ("Tickets from May 3, 2024 by phone or online\n", None),
            (
                "Von Roland Brockmann und Sebastian Drescher",
                Some("Roland Brockmann und Sebastian Drescher"),
            ),
            ("By clicking accept you agree to the terms\n", None),
            ("By 2030 the pier will be rebuilt.\n", None),
            ("Browse\nBy Date\nBy Subject\n", None),
            ("By\nAnn Lee\n", None),
            ("Bylines are short.\n", None),
        ] {
            assert_eq!(from_text(text).as_deref(), want, "{text}");
        }
    }

    #[test]
    fn text_naming_no_one_is_refused() {
        for text in [
            "Sign In",
            "https://example.com/user/ann",
            "@ann",
            "",
            "By",
            "12 comments",
            "Share",
        ] {
            assert_eq!(clean(text), None, "{text}");
        }
    }

    #[test]
    fn names_join_as_a_byline_lists_them() {
        let names = ["A".to_string(), "B".to_string(), "C".to_string()];
        assert_eq!(join(&names), "A, B and C");
        assert_eq!(join(&names[..1]), "A");
        let surnames_first = ["Roy, Aniruddha".to_string(), "Patel, Jyoti".to_string()];
        assert_eq!(join(&surnames_first), "Roy, Aniruddha; Patel, Jyoti");
    }
}
