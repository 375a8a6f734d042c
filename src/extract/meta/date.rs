//! Dates as pages write them, read into one form and written back as
//! ISO 8601: machine dates (`2024-05-17T10:00:00+02:00`, `20240517`,
//! RFC 2822's `Fri, 17 May 2024 10:00:00 +0200`), dates in prose (`May
//! 17, 2024`, `17. Mai 2024`, `17.05.2024`) and in URL paths
//! (`/2024/05/17/`). Reads the strings it is given; finds no dates on a
//! page by itself.

/// A calendar day, with the time of day and its UTC offset when given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Date {
    pub year: u16,
    pub month: u8,
    pub day: u8,
    /// Hours, minutes, seconds, and the offset from UTC in minutes
    /// (`None`: the string named no zone).
    pub time: Option<Time>,
}

/// Hours, minutes, seconds and the UTC offset in minutes, if named.
type Time = (u8, u8, u8, Option<i16>);

/// Years taken as publication dates: older or later numbers are more
/// often prices, counts or ids than dates.
const YEARS: std::ops::RangeInclusive<u32> = 1990..=2039;

impl Date {
    fn new(year: u32, month: u32, day: u32) -> Option<Date> {
        let days = match month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if year.is_multiple_of(4)
                && (!year.is_multiple_of(100) || year.is_multiple_of(400)) =>
            {
                29
            }
            2 => 28,
            _ => return None,
        };
        (YEARS.contains(&year) && (1..=days).contains(&day)).then_some(Date {
            year: year as u16,
            month: month as u8,
            day: day as u8,
            time: None,
        })
    }

    /// ISO 8601: `YYYY-MM-DD`, with `Thh:mm:ss` and the offset (`Z` or
    /// `±hh:mm`) when the source gave a time.
    pub fn to_iso(self) -> String {
        let day = format!("{:04}-{:02}-{:02}", self.year, self.month, self.day);
        let Some((h, m, s, zone)) = self.time else {
            return day;
        };
        let zone = match zone {
            None => String::new(),
            Some(0) => "Z".to_string(),
            Some(z) => {
                let sign = if z < 0 { '-' } else { '+' };
                format!(
                    "{sign}{:02}:{:02}",
                    z.unsigned_abs() / 60,
                    z.unsigned_abs() % 60
                )
            }
        };
        format!("{day}T{h:02}:{m:02}:{s:02}{zone}")
    }
}

/// A machine date at the start of `s` (leading spaces ignored):
/// `YYYY-MM-DD` (or `/`, `.`) or `YYYYMMDD`, then optionally a time
/// (`T` or a space, `hh:mm[:ss[.fff]]`) and a zone (`Z`, `±hh:mm`,
/// `±hhmm`, ` +0000`, `UTC`, `GMT`).
pub fn parse_machine(s: &str) -> Option<Date> {
    let b = s.trim_start().as_bytes();
    let (mut date, mut at) = if b.len() >= 8 && b[..8].iter().all(u8::is_ascii_digit) {
        let n = |r: std::ops::Range<usize>| number(&b[r]);
        (Date::new(n(0..4), n(4..6), n(6..8))?, 8)
    } else {
        let year = digits(b, 0, 4, 4)?;
        let sep = *b.get(4).filter(|c| matches!(c, b'-' | b'/' | b'.'))?;
        let month = digits(b, 5, 1, 2)?;
        let at = 5 + month.1;
        (b.get(at) == Some(&sep)).then_some(())?;
        let day = digits(b, at + 1, 1, 2)?;
        (Date::new(year.0, month.0, day.0)?, at + 1 + day.1)
    };
    if b.get(at).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    if matches!(b.get(at), Some(b'T' | b't' | b' ')) {
        at += 1;
        if let Some((time, end)) = time_of_day(b, at) {
            date.time = Some(time);
            at = end;
            let _ = at;
        }
    }
    Some(date)
}

/// `hh:mm[:ss[.fff]]` and a zone at `at`: the time and where it ends.
fn time_of_day(b: &[u8], at: usize) -> Option<(Time, usize)> {
    let (h, _) = digits(b, at, 2, 2)?;
    (b.get(at + 2) == Some(&b':')).then_some(())?;
    let (m, _) = digits(b, at + 3, 2, 2)?;
    let mut end = at + 5;
    let mut s = 0;
    if b.get(end) == Some(&b':')
        && let Some((sec, _)) = digits(b, end + 1, 2, 2)
    {
        s = sec;
        end += 3;
        if matches!(b.get(end), Some(b'.' | b',')) {
            end += 1;
            while b.get(end).is_some_and(u8::is_ascii_digit) {
                end += 1;
            }
        }
    }
    if h > 23 || m > 59 || s > 60 {
        return None;
    }
    let rest = &b[end..];
    let trimmed = rest.trim_ascii_start();
    let zone = match trimmed.first() {
        Some(b'Z' | b'z') if trimmed.len() == rest.len() => Some(0),
        Some(b'+' | b'-') => offset(trimmed),
        _ if trimmed.starts_with(b"UTC") || trimmed.starts_with(b"GMT") => {
            offset(&trimmed[3..]).or(Some(0))
        }
        _ => None,
    };
    Some(((h as u8, m as u8, s as u8, zone), end))
}

/// `±hh:mm`, `±hhmm` or `±hh` as minutes east of UTC.
fn offset(b: &[u8]) -> Option<i16> {
    let sign: i16 = match b.first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let two = |at: usize| {
        b.get(at..at + 2)
            .filter(|d| d.iter().all(u8::is_ascii_digit))
            .map(number)
    };
    let h = two(1)?;
    let m = two(if b.get(3) == Some(&b':') { 4 } else { 3 }).unwrap_or(0);
    (h <= 14 && m < 60).then_some(sign * (h * 60 + m) as i16)
}

/// A run of `min` to `max` ASCII digits at `at` (no more digits right
/// after it): its value and length.
fn digits(b: &[u8], at: usize, min: usize, max: usize) -> Option<(u32, usize)> {
    let run = b
        .get(at..)?
        .iter()
        .take(max + 1)
        .take_while(|c| c.is_ascii_digit())
        .count();
    (min..=max)
        .contains(&run)
        .then(|| (number(&b[at..at + run]), run))
}

fn number(b: &[u8]) -> u32 {
    b.iter()
        .fold(0u32, |n, &c| n * 10 + u32::from(c.wrapping_sub(b'0')))
}

/// A date a URL's path names: `/2024/05/17/`, `/2024/may/17/`,
/// `/2024-05-17`, `/20240517/`.
pub fn in_url(url: &str) -> Option<Date> {
    // A URL written with its slashes percent-encoded (`%2F`) is read
    // decoded.
    let decoded = percent_encoding::percent_decode_str(url).decode_utf8_lossy();
    let path = decoded.split(['?', '#']).next()?;
    let path = path.find("://").map_or(path, |i| &path[i + 3..]);
    let segments: Vec<&str> = path.split('/').skip(1).collect();
    for (i, seg) in segments.iter().enumerate() {
        let is_year = seg.len() == 4 && seg.bytes().all(|c| c.is_ascii_digit());
        if is_year {
            let part = |j: usize| {
                segments
                    .get(j)
                    .filter(|s| (1..=2).contains(&s.len()) && s.bytes().all(|c| c.is_ascii_digit()))
                    .map(|s| number(s.as_bytes()))
            };
            let month = part(i + 1).or_else(|| {
                let name = segments.get(i + 1)?;
                month_named(name).map(u32::from)
            });
            if let (Some(m), Some(d)) = (month, part(i + 2))
                && let Some(date) = Date::new(number(seg.as_bytes()), m, d)
            {
                return Some(date);
            }
            continue;
        }
        if seg.len() >= 8
            && seg.as_bytes()[..4].iter().all(u8::is_ascii_digit)
            && let Some(date) = parse_machine(seg)
        {
            return Some(Date { time: None, ..date });
        }
    }
    None
}

/// Month names (lowercase, ASCII folded where a page may drop an accent)
/// in English, German, French, Spanish, Italian, Dutch and Portuguese,
/// with their common abbreviations; matched as whole words.
const MONTHS: &[(&str, u8)] = &[
    ("january", 1),
    ("jan", 1),
    ("januar", 1),
    ("janvier", 1),
    ("enero", 1),
    ("gennaio", 1),
    ("januari", 1),
    ("janeiro", 1),
    ("february", 2),
    ("feb", 2),
    ("februar", 2),
    ("février", 2),
    ("fevrier", 2),
    ("febrero", 2),
    ("febbraio", 2),
    ("februari", 2),
    ("fevereiro", 2),
    ("march", 3),
    ("mar", 3),
    ("märz", 3),
    ("maerz", 3),
    ("mars", 3),
    ("marzo", 3),
    ("maart", 3),
    ("março", 3),
    ("marco", 3),
    ("april", 4),
    ("apr", 4),
    ("avril", 4),
    ("abril", 4),
    ("aprile", 4),
    ("may", 5),
    ("mai", 5),
    ("mayo", 5),
    ("maggio", 5),
    ("mei", 5),
    ("maio", 5),
    ("june", 6),
    ("jun", 6),
    ("juni", 6),
    ("juin", 6),
    ("junio", 6),
    ("giugno", 6),
    ("junho", 6),
    ("july", 7),
    ("jul", 7),
    ("juli", 7),
    ("juillet", 7),
    ("julio", 7),
    ("luglio", 7),
    ("julho", 7),
    ("august", 8),
    ("aug", 8),
    ("août", 8),
    ("aout", 8),
    ("agosto", 8),
    ("augustus", 8),
    ("september", 9),
    ("sep", 9),
    ("sept", 9),
    ("septembre", 9),
    ("septiembre", 9),
    ("settembre", 9),
    ("setembro", 9),
    ("october", 10),
    ("oct", 10),
    ("oktober", 10),
    ("octobre", 10),
    ("octubre", 10),
    ("ottobre", 10),
    ("okt", 10),
    ("outubro", 10),
    ("november", 11),
    ("nov", 11),
    ("novembre", 11),
    ("noviembre", 11),
    ("novembro", 11),
    ("december", 12),
    ("dec", 12),
    ("dezember", 12),
    ("décembre", 12),
    ("decembre", 12),
    ("diciembre", 12),
    ("dicembre", 12),
    ("dez", 12),
    ("dezembro", 12),
];

/// The month a word names. Called for every word of a text searched for
/// dates: most are refused by their length or first letter, and ASCII
/// words are lowercased on the stack.
fn month_named(word: &str) -> Option<u8> {
    if !(3..=10).contains(&word.len()) {
        return None;
    }
    let first = word.as_bytes()[0].to_ascii_lowercase();
    if !b"jfmasondgleo".contains(&first) {
        return None;
    }
    let mut buf = [0u8; 10];
    let lower: std::borrow::Cow<str> = if word.is_ascii() {
        for (b, c) in buf.iter_mut().zip(word.bytes()) {
            *b = c.to_ascii_lowercase();
        }
        std::borrow::Cow::Borrowed(std::str::from_utf8(&buf[..word.len()]).unwrap_or(""))
    } else {
        std::borrow::Cow::Owned(word.to_lowercase())
    };
    MONTHS
        .iter()
        .find(|(name, _)| *name == lower)
        .map(|&(_, m)| m)
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Tok<'a> {
    Num(u32, usize),
    /// A word, and whether it opens a line of the text.
    Word(&'a str, bool),
    Punct(char),
}

/// Splits text into numbers, words and single punctuation marks
/// (whitespace dropped), one token at a time.
struct Tokens<'a> {
    text: &'a str,
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
}

impl<'a> Tokens<'a> {
    fn new(text: &'a str) -> Tokens<'a> {
        Tokens {
            text,
            chars: text.char_indices().peekable(),
        }
    }

    /// Where the run of characters `k` accepts that starts at `i` with
    /// `c` ends, its characters taken.
    fn run_end(&mut self, i: usize, c: char, k: impl Fn(char) -> bool) -> usize {
        let mut end = i + c.len_utf8();
        while let Some(&(j, d)) = self.chars.peek() {
            if !k(d) {
                break;
            }
            end = j + d.len_utf8();
            self.chars.next();
        }
        end
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Tok<'a>;

    fn next(&mut self) -> Option<Tok<'a>> {
        let mut opens_line = false;
        let (i, c) = self.chars.find(|&(_, c)| {
            opens_line |= c == '\n';
            !c.is_whitespace()
        })?;
        Some(if c.is_ascii_digit() {
            let end = self.run_end(i, c, |d| d.is_ascii_digit());
            let run = &self.text[i..end];
            let value = if run.len() <= 8 {
                number(run.as_bytes())
            } else {
                u32::MAX
            };
            Tok::Num(value, run.len())
        } else if c.is_alphabetic() {
            let end = self.run_end(i, c, char::is_alphabetic);
            Tok::Word(&self.text[i..end], opens_line)
        } else {
            Tok::Punct(c)
        })
    }
}

/// Tokens read for dates in a text, at most.
const MAX_TOKENS: usize = 4096;

/// The first date written in `text` as prose or digits: `May 17, 2024`,
/// `17 May 2024`, `17. Mai 2024`, `2024-05-17`, `17.05.2024`,
/// `05/17/2024` (month first unless the first number is above 12).
pub fn find_in_text(text: &str) -> Option<Date> {
    // Every form has a year of four digits: text without one is not read.
    if !has_four_digits(text.as_bytes()) {
        return None;
    }
    // Tokens are read only as far as the first date needs: up to each
    // year and the few after it a date may read (at most DATE_SPAN).
    let mut source = Tokens::new(text).take(MAX_TOKENS);
    let mut toks = Vec::new();
    // A date starts at most `DATE_SPAN` tokens before its year: only
    // those starts are tried, in order.
    let mut from = 0;
    for year in 0.. {
        if year == toks.len() {
            toks.push(source.next()?);
        }
        if !matches!(toks[year], Tok::Num(_, 4)) {
            continue;
        }
        toks.extend(
            source
                .by_ref()
                .take((year + DATE_SPAN + 1).saturating_sub(toks.len())),
        );
        let starts = from.max(year.saturating_sub(DATE_SPAN))..=year;
        from = year + 1;
        if let Some(date) = starts.into_iter().find_map(|i| date_at(&toks[i..])) {
            return Some(date);
        }
    }
    None
}

/// More tokens than any date has before its year (the longest form
/// [`date_at`] reads, `17 de mayo, de 2024`, has six), and more than it
/// reads after it (`2024-05-17`: four).
const DATE_SPAN: usize = 8;

/// Does `b` hold a run of exactly four ASCII digits?
fn has_four_digits(b: &[u8]) -> bool {
    let mut run = 0;
    for &c in b {
        if c.is_ascii_digit() {
            run += 1;
        } else if run == 4 {
            return true;
        } else {
            run = 0;
        }
    }
    run == 4
}

/// Does `text` start with a date (prose or digits)?
pub fn starts_with_date(text: &str) -> bool {
    let mut buf = [Tok::Punct(' '); 12];
    date_at(first_tokens(text, &mut buf)).is_some()
}

/// The first tokens of `text`, as many as `buf` holds, in `buf`: the
/// bylines' tests run for every candidate name, so no allocation.
fn first_tokens<'a, 'b>(text: &'a str, buf: &'b mut [Tok<'a>]) -> &'b [Tok<'a>] {
    let mut n = 0;
    for (slot, tok) in buf.iter_mut().zip(Tokens::new(text)) {
        *slot = tok;
        n += 1;
    }
    &buf[..n]
}

/// Is `text` a month's name and a day and nothing else ("Mar 6", "Jul.
/// 11")?
pub fn is_month_and_day(text: &str) -> bool {
    // A name without a digit is no date: most are refused here.
    if !text.bytes().any(|b| b.is_ascii_digit()) {
        return false;
    }
    let mut buf = [Tok::Punct(' '); 4];
    let t = first_tokens(text, &mut buf);
    let day = |d: u32, len: usize| len <= 2 && (1..=31).contains(&d);
    match *t {
        [Tok::Word(w, _), Tok::Num(d, len)]
        | [Tok::Word(w, _), Tok::Punct('.'), Tok::Num(d, len)] => {
            month_named(w).is_some() && day(d, len)
        }
        _ => false,
    }
}

/// A date starting at the first token.
fn date_at(t: &[Tok]) -> Option<Date> {
    let num = |k: usize| match t.get(k) {
        Some(&Tok::Num(v, len)) => Some((v, len)),
        _ => None,
    };
    let punct = |k: usize| match t.get(k) {
        Some(&Tok::Punct(c)) => Some(c),
        _ => None,
    };
    let month = |k: usize| match t.get(k) {
        Some(&Tok::Word(w, _)) => month_named(w),
        _ => None,
    };
    let year = |k: usize| num(k).filter(|&(_, len)| len == 4).map(|(v, _)| v);
    match t.first()? {
        Tok::Num(first, len) => {
            let first = *first;
            // Digits: Y-M-D, D.M.Y, M/D/Y.
            if let (Some(s1), Some((b, _)), Some(s2), Some((c, clen))) =
                (punct(1), num(2), punct(3), num(4))
                && s1 == s2
                && matches!(s1, '-' | '/' | '.')
            {
                if *len == 4 {
                    return Date::new(first, b, c);
                }
                if clen == 4 && *len <= 2 {
                    return match s1 {
                        '.' => Date::new(c, b, first),
                        _ if first > 12 => Date::new(c, b, first),
                        _ => Date::new(c, first, b),
                    };
                }
                return None;
            }
            // Y Month D, as citation metadata writes it ("2023 Jan 7"), on
            // one line: a year that ends a heading is not the year of a
            // date that opens the next line ("… of 2024" over "September
            // 1st, 2023").
            if *len == 4 {
                if matches!(t.get(1), Some(Tok::Word(_, true))) {
                    return None;
                }
                let m = month(1)?;
                let (d, _) = num(2).filter(|&(_, len)| len <= 2)?;
                return Date::new(first, u32::from(m), d);
            }
            // D [.|th] Month [,] Y
            if *len > 2 {
                return None;
            }
            let mut k = 1;
            if matches!(punct(k), Some('.')) {
                k += 1;
            } else if let Some(Tok::Word(w, _)) = t.get(k)
                && matches!(*w, "st" | "nd" | "rd" | "th" | "de" | "of")
            {
                k += 1;
                if let Some(Tok::Word("de" | "of", _)) = t.get(k) {
                    k += 1;
                }
            }
            let m = month(k)?;
            k += 1;
            if matches!(punct(k), Some(',' | '.')) {
                k += 1;
            }
            if let Some(Tok::Word("de", _)) = t.get(k) {
                k += 1;
            }
            Date::new(year(k)?, u32::from(m), first)
        }
        Tok::Word(..) => {
            // Month D [st] [,] Y
            let m = month(0)?;
            let mut k = 1;
            if matches!(punct(k), Some('.')) {
                k += 1;
            }
            let (d, dlen) = num(k)?;
            if dlen > 2 {
                return None;
            }
            k += 1;
            if let Some(Tok::Word("st" | "nd" | "rd" | "th", _)) = t.get(k) {
                k += 1;
            }
            if matches!(punct(k), Some(',' | '.')) {
                k += 1;
            }
            Date::new(year(k)?, u32::from(m), d)
        }
        Tok::Punct(_) => None,
    }
}

/// A date from a meta tag's or JSON-LD's value: a machine date, one as
/// RFC 2822 writes it, else one in prose.
pub fn parse_any(s: &str) -> Option<Date> {
    parse_machine(s)
        .or_else(|| parse_rfc2822(s))
        .or_else(|| find_in_text(s))
}

/// A date as RFC 2822 (feeds, HTTP, some CMSs' meta tags) writes it:
/// `[Tue, ]05 Mar 2024[ 18:30[:00] GMT]`, the zone `GMT`, `UTC`, `Z` or
/// `±hhmm`. Its time and zone are kept, which the prose reading drops.
fn parse_rfc2822(s: &str) -> Option<Date> {
    let s = s.trim_start();
    let s = match s.split_once(',') {
        Some((weekday, rest))
            if !weekday.is_empty() && weekday.bytes().all(|c| c.is_ascii_alphabetic()) =>
        {
            rest.trim_start()
        }
        _ => s,
    };
    let b = s.as_bytes();
    let (day, day_len) = digits(b, 0, 1, 2)?;
    (b.get(day_len) == Some(&b' ')).then_some(())?;
    let month_at = day_len + 1;
    let month_end = month_at
        + b[month_at..]
            .iter()
            .take_while(|c| c.is_ascii_alphabetic())
            .count();
    let month = month_named(&s[month_at..month_end])?;
    (b.get(month_end) == Some(&b' ')).then_some(())?;
    let (year, _) = digits(b, month_end + 1, 4, 4)?;
    let mut date = Date::new(year, u32::from(month), day)?;
    let time_at = month_end + 6;
    if b.get(time_at - 1) == Some(&b' ')
        && let Some((time, end)) = time_of_day(b, time_at)
        && !has_meridiem(&b[end..])
    {
        date.time = Some(time);
    }
    Some(date)
}

/// Does a time's rest open with `am` or `pm` (a 12-hour clock, which
/// RFC 2822 never writes: the time is not read)?
fn has_meridiem(rest: &[u8]) -> bool {
    let rest = rest.trim_ascii_start();
    matches!(rest.first(), Some(b'a' | b'A' | b'p' | b'P'))
        && matches!(rest.get(1), Some(b'm' | b'M' | b'.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iso(s: &str) -> Option<String> {
        parse_any(s).map(Date::to_iso)
    }

    #[test]
    fn only_text_with_a_four_digit_run_is_read_for_dates() {
        assert!(has_four_digits(b"on 2024"));
        assert!(has_four_digits(b"1999-01-02"));
        assert!(!has_four_digits(b"12345 and 123"));
        assert!(!has_four_digits(b"May 17, 24"));
        assert_eq!(find_in_text("May 17, 24"), None);
        assert_eq!(
            find_in_text("on 17.05.2024").map(Date::to_iso).as_deref(),
            Some("2024-05-17")
        );
    }

    /// Tokens are read only as far as the first date needs; the dates
    /// found are those of reading the whole text: a year's own date
    /// before a later one, the tokens after a year that starts its date,
    /// and nothing past the token limit.
    #[test]
    fn the_first_date_is_found_however_far_the_text_goes_on() {
        let find = |t: &str| find_in_text(t).map(Date::to_iso);
        let filler = "word ".repeat(100);
        assert_eq!(
            find(&format!("{filler}in 1999 on 2024-05-17 and May 3, 2021")).as_deref(),
            Some("2024-05-17")
        );
        assert_eq!(
            find(&format!("{filler}2023 Jan 7")).as_deref(),
            Some("2023-01-07")
        );
        assert_eq!(find(&format!("{filler}2023 Jan")), None);
        assert_eq!(
            find(&format!("{filler}17 de mayo, de 2024 then")).as_deref(),
            Some("2024-05-17")
        );
        let past_the_limit = format!("{}May 17, 2024", "w ".repeat(MAX_TOKENS));
        assert_eq!(find(&past_the_limit), None);
        let at_the_limit = format!("{}2024-05-17", "w ".repeat(MAX_TOKENS - 5));
        assert_eq!(find(&at_the_limit).as_deref(), Some("2024-05-17"));
    }

    /// A year that ends a line and a month's name that opens the next
    /// are no citation date ("2024 September 1"); a date may still run
    /// over lines in its other forms (a calendar badge's three blocks).
    #[test]
    fn a_year_and_a_month_on_two_lines_are_no_date() {
        for (text, want) in [
            (
                "The best tutoring franchises of 2024\nSeptember 1st, 2023 By Emily",
                "2023-09-01",
            ),
            ("Cost Guide 2026\n  Dec 26, 2025", "2025-12-26"),
            ("Oct\n4\n2012", "2012-10-04"),
            ("in 2023 Jan 7", "2023-01-07"),
        ] {
            let found = find_in_text(text).map(Date::to_iso);
            assert_eq!(found.as_deref(), Some(want), "{text}");
        }
    }

    #[test]
    fn machine_dates_keep_their_time_and_zone() {
        assert_eq!(
            iso("2024-05-17T10:03:00+02:00").as_deref(),
            Some("2024-05-17T10:03:00+02:00")
        );
        assert_eq!(
            iso("2024-05-17T10:03:00.123Z").as_deref(),
            Some("2024-05-17T10:03:00Z")
        );
        assert_eq!(
            iso(" 2024-05-17 10:03:00 +0000").as_deref(),
            Some("2024-05-17T10:03:00Z")
        );
        assert_eq!(iso("2024-05-17").as_deref(), Some("2024-05-17"));
        assert_eq!(iso("2023 Jan 7").as_deref(), Some("2023-01-07"));
        assert_eq!(iso("2023 Jan").as_deref(), None);
        assert_eq!(iso("20240517").as_deref(), Some("2024-05-17"));
        assert_eq!(iso("2024/5/7").as_deref(), Some("2024-05-07"));
        assert_eq!(
            iso("2024-05-17T10:03-0500").as_deref(),
            Some("2024-05-17T10:03:00-05:00")
        );
    }

    #[test]
    fn rfc_2822_dates_keep_their_time_and_zone() {
        for (text, want) in [
            ("Tue, 05 Mar 2024 18:30:00 GMT", "2024-03-05T18:30:00Z"),
            (
                "Tue, 05 Mar 2024 18:30:00 +0100",
                "2024-03-05T18:30:00+01:00",
            ),
            ("5 Mar 2024 18:30 -0500", "2024-03-05T18:30:00-05:00"),
            ("Tue, 05 Mar 2024 18:30:00", "2024-03-05T18:30:00"),
            ("Tue, 05 Mar 2024", "2024-03-05"),
            ("05 March 2024, 18:30", "2024-03-05"),
            ("05 Mar 2024 10:30 PM", "2024-03-05"),
        ] {
            assert_eq!(iso(text).as_deref(), Some(want), "{text}");
        }
    }

    #[test]
    fn prose_dates_in_several_languages_read() {
        for (text, want) in [
            ("Published On: 15 August 2025", "2025-08-15"),
            ("Sep 27, 2024", "2024-09-27"),
            ("Updated: 10/31/2024", "2024-10-31"),
            ("17.05.2021", "2021-05-17"),
            ("Tue Aug 27, 2019 1:47 am", "2019-08-27"),
            ("am 3. März 2025 von", "2025-03-03"),
            ("le 12 février 2024", "2024-02-12"),
            ("5 de marzo de 2023", "2023-03-05"),
            ("December 1st, 2022", "2022-12-01"),
            ("31/10/2024", "2024-10-31"),
        ] {
            assert_eq!(iso(text).as_deref(), Some(want), "{text}");
        }
    }

    #[test]
    fn numbers_that_are_no_dates_are_left() {
        for text in [
            "Call 555-1234-2024",
            "2024 people",
            "May I help",
            "13/13/2024",
            "1 of 2000",
            "v1.2.3",
        ] {
            assert_eq!(iso(text), None, "{text}");
        }
    }

    #[test]
    fn dates_in_url_paths_read() {
        assert_eq!(
            in_url("https://example.com/2024/05/17/a-story/")
                .map(Date::to_iso)
                .as_deref(),
            Some("2024-05-17")
        );
        assert_eq!(
            in_url("https://example.com/news/2024-05-17-a-story")
                .map(Date::to_iso)
                .as_deref(),
            Some("2024-05-17")
        );
        assert_eq!(
            in_url("https://example.com/blog/2023/october/03/wine-styles")
                .map(Date::to_iso)
                .as_deref(),
            Some("2023-10-03")
        );
        assert_eq!(
            in_url("https://blog.example%2Farticles%2F2025-12-15%2BA%2Bstory")
                .map(Date::to_iso)
                .as_deref(),
            Some("2025-12-15")
        );
        assert!(in_url("https://example.com/2023/oct/about").is_none());
        assert_eq!(in_url("https://example.com/2024/about/"), None);
        assert_eq!(in_url("https://example.com/?d=2024/05/17"), None);
        assert_eq!(in_url("https://example.com/%3Fd=2024/05/17"), None);
    }
}
