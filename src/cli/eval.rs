//! `linesift eval MANIFEST`: extracts every page of an evaluation manifest on
//! all cores and scores it against gold as `shared/eval/score.py` does;
//! prints the per-dataset table and optionally writes JSON, a per-page TSV
//! and an HTML report with explain pages for the worst pages.
//! `--compare A B` runs two option sets over the same pages and prints the
//! differences. Failing pages are reported and scored 0; they do not stop
//! the run or change the exit code.

use super::options::ExtractOptions;
use super::{printable, printable_path};
use anyhow::{Context, anyhow, bail};
use clap::Parser;
use linesift::extract::explain::explain;
use linesift::report::eval::{self, PageResult, Summary};
use linesift::report::html::{self, Worst};
use linesift::report::{ReportError, explain_view, manifest, read_page};
use linesift::{Extractor, Hints, Options};
use rayon::prelude::*;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Manifest TSV: dataset, id, html, gold_text [, gold_headline].
    manifest: PathBuf,
    /// Worker threads (default: all cores; at most the cores and the pages).
    #[arg(long, short)]
    jobs: Option<usize>,
    /// Only these datasets (comma-separated).
    #[arg(long)]
    datasets: Option<String>,
    /// Write the summary as JSON (score.py's shape; with --compare: {"a", "b"}).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write per-page scores as TSV.
    #[arg(long = "per-page", value_name = "FILE")]
    per_page: Option<PathBuf>,
    /// Write a self-contained HTML report, with explain pages of the worst
    /// pages in FILE's stem + `_explain/`.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// How many worst pages the report lists and explains (and how many
    /// changed pages --compare prints).
    #[arg(long, default_value_t = 20)]
    worst: usize,
    /// Compare two option sets, each one quoted argument starting from the
    /// defaults, e.g. --compare "--algorithm danag" "--gap 60" ("" = defaults).
    #[arg(long, num_args = 2, value_names = ["A", "B"], allow_hyphen_values = true)]
    compare: Option<Vec<String>>,
    #[command(flatten)]
    extract: ExtractOptions,
}

/// One `--compare` option set.
#[derive(Debug, Parser)]
#[command(name = "--compare", no_binary_name = true)]
struct OptionSet {
    #[command(flatten)]
    extract: ExtractOptions,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut entries = manifest::read(&args.manifest).map_err(shown_report_error)?;
    let shown = printable_path(&args.manifest);
    // A manifest of a header alone would print an empty table as if all
    // were well, as `--datasets ""` would.
    if entries.is_empty() {
        bail!("{shown}: lists no page: nothing to score");
    }
    if let Some(list) = &args.datasets {
        let keep: Vec<&str> = list
            .split(',')
            .map(str::trim)
            .filter(|d| !d.is_empty())
            .collect();
        // `--datasets ""` (an unset shell variable, say) would keep no page
        // and print an empty table as if all were well.
        if keep.is_empty() {
            bail!(
                "--datasets names no dataset; {shown} has {}",
                printable(&known_datasets(&entries).join(", "))
            );
        }
        // A misspelt name would otherwise just drop its pages and print a
        // table without them, as if all were well.
        let known = known_datasets(&entries);
        let unknown: Vec<&str> = keep
            .iter()
            .copied()
            .filter(|d| !known.contains(d))
            .collect();
        if !unknown.is_empty() {
            bail!(
                "--datasets: {} not in {shown}; its datasets are {}",
                printable(&unknown.join(", ")),
                printable(&known.join(", "))
            );
        }
        entries.retain(|e| keep.contains(&e.dataset.as_str()));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads(args.jobs, entries.len()))
        .build()?;
    match &args.compare {
        Some(sets) => compare(&args, sets, &entries, &pool),
        None => single(&args, &entries, &pool),
    }
}

/// The threads to score `pages` pages on: `--jobs` (0 or none: all cores),
/// at most the cores and the pages. Extraction is CPU-bound, so more
/// threads than cores gain nothing, and `-j 100000` would spend its time
/// starting threads (or fail to).
fn threads(jobs: Option<usize>, pages: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let asked = jobs.filter(|&j| j > 0).unwrap_or(cores);
    asked.min(cores).min(pages).max(1)
}

/// The manifest's dataset names, sorted and each once.
fn known_datasets(entries: &[manifest::Entry]) -> Vec<&str> {
    let known: BTreeSet<&str> = entries.iter().map(|e| e.dataset.as_str()).collect();
    known.into_iter().collect()
}

fn single(
    args: &Args,
    entries: &[manifest::Entry],
    pool: &rayon::ThreadPool,
) -> anyhow::Result<ExitCode> {
    let options = args.extract.options();
    let extractor = Extractor::new(options);
    let results = run_pages(&extractor, entries, pool);
    let summary = eval::summarize(&results);
    print_out(&summary.table())?;
    if let Some(path) = &args.json {
        write(path, &serde_json::to_string_pretty(&summary.to_json())?)?;
    }
    if let Some(path) = &args.per_page {
        write(path, &eval::per_page_tsv(&results))?;
    }
    if let Some(path) = &args.html {
        let report = Report {
            extractor: &extractor,
            entries,
            options: &describe(&options),
            summary: &summary,
            results: &results,
        };
        report.write(args, path, pool)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn compare(
    args: &Args,
    sets: &[String],
    entries: &[manifest::Entry],
    pool: &rayon::ThreadPool,
) -> anyhow::Result<ExitCode> {
    let [a, b] = sets else {
        return Err(anyhow!("--compare takes two option sets"));
    };
    let (oa, ob) = (parse_set(a)?, parse_set(b)?);
    let ra = run_pages(&Extractor::new(oa), entries, pool);
    let rb = run_pages(&Extractor::new(ob), entries, pool);
    let (sa, sb) = (eval::summarize(&ra), eval::summarize(&rb));
    let names = (describe(&oa), describe(&ob));
    print_out(&eval::compare_table(
        (&names.0, &names.1),
        (&sa, &sb),
        (&ra, &rb),
        args.worst,
    ))?;
    if let Some(path) = &args.json {
        let both = serde_json::json!({"a": sa.to_json(), "b": sb.to_json(), "a_options": names.0, "b_options": names.1});
        write(path, &serde_json::to_string_pretty(&both)?)?;
    }
    if let Some(path) = &args.per_page {
        write(path, &compare_tsv(&ra, &rb))?;
    }
    if args.html.is_some() {
        say!("linesift: --html is not written with --compare; run eval once per option set");
    }
    Ok(ExitCode::SUCCESS)
}

/// Parses one `--compare` argument into options.
fn parse_set(set: &str) -> anyhow::Result<Options> {
    OptionSet::try_parse_from(set.split_whitespace())
        .map(|s| s.extract.options())
        .map_err(|e| {
            // clap's first line, without its `error: ` and usage lines:
            // an error is one line.
            let rendered = e.to_string();
            let first = rendered.lines().next().unwrap_or_default();
            anyhow!(
                "--compare {set:?}: {}",
                first.strip_prefix("error: ").unwrap_or(first)
            )
        })
}

/// A one-line description of the options, for reports.
pub fn describe(o: &Options) -> String {
    format!(
        "algorithm {}, gap {}, filter {}, headline {}, wrap {}",
        o.algorithm, o.gap, o.filter, o.headline, o.wrap
    )
}

/// Extracts and scores the pages, reporting failures on stderr.
fn run_pages(
    extractor: &Extractor,
    entries: &[manifest::Entry],
    pool: &rayon::ThreadPool,
) -> Vec<PageResult> {
    let progress = super::progress::pages(entries.len());
    let results: Vec<PageResult> = pool.install(|| {
        entries
            .par_iter()
            .map(|e| {
                let r = eval::evaluate_one(extractor, e);
                progress.inc(1);
                r
            })
            .collect()
    });
    progress.finish_and_clear();
    for r in &results {
        if let Some(err) = &r.error {
            let line = format!("{} ({}): {err}", r.key(), r.html.display());
            say!("linesift: {}", printable(&line));
        }
    }
    results
}

fn compare_tsv(a: &[PageResult], b: &[PageResult]) -> String {
    let mut t = String::from("dataset\tid\tf1_a\tf1_b\tdelta\n");
    for (x, y) in a.iter().zip(b) {
        if let (Some(fa), Some(fb)) = (x.f1(), y.f1()) {
            t.push_str(&format!(
                "{}\t{}\t{fa:.4}\t{fb:.4}\t{:+.4}\n",
                x.dataset,
                x.id,
                fb - fa
            ));
        }
    }
    t
}

/// What the HTML report needs.
struct Report<'a> {
    extractor: &'a Extractor,
    /// The manifest's pages, in the order of `results`.
    entries: &'a [manifest::Entry],
    options: &'a str,
    summary: &'a Summary,
    results: &'a [PageResult],
}

impl Report<'_> {
    /// Writes the explain pages of the worst pages, then the report.
    fn write(&self, args: &Args, path: &Path, pool: &rayon::ThreadPool) -> anyhow::Result<()> {
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("report");
        let dir_name = format!("{stem}_explain");
        let dir = path.with_file_name(&dir_name);
        let worst_idx = eval::worst(self.results, args.worst);
        if !worst_idx.is_empty() {
            std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        let worst: Vec<Worst> = pool.install(|| {
            worst_idx
                .par_iter()
                .enumerate()
                .map(|(rank, &index)| self.worst_page(rank, index, &dir, &dir_name))
                .collect()
        });
        let page = html::eval_report(
            &args.manifest.display().to_string(),
            self.options,
            self.summary,
            self.results,
            &worst,
        );
        write(path, &page)
    }

    /// One worst page for the report: its explain page written, and its
    /// gold and extracted texts. What cannot be read is left out (the
    /// page's error is in the table already).
    fn worst_page(&self, rank: usize, index: usize, dir: &Path, dir_name: &str) -> Worst {
        let gold = self
            .entries
            .get(index)
            .and_then(|e| std::fs::read(&e.gold_text).ok())
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
        let explained = self.results.get(index).and_then(|r| {
            let file = std::fs::File::open(&r.html).ok()?;
            let bytes = read_page(file, self.extractor.options().max_bytes).ok()?;
            let e = explain(self.extractor, &bytes, &Hints::default()).ok()?;
            Some((r, e))
        });
        let Some((r, e)) = explained else {
            return Worst {
                index,
                link: None,
                gold,
                output: None,
            };
        };
        let file = format!("{:02}-{}.html", rank + 1, safe_name(&r.key()));
        let title = format!("{} ({})", r.key(), r.html.display());
        let page = explain_view::page(&e, &title, self.options);
        let link = match std::fs::write(dir.join(&file), page) {
            Ok(()) => Some(format!("{dir_name}/{file}")),
            Err(err) => {
                say!(
                    "linesift: writing {}: {err}",
                    printable_path(&dir.join(&file))
                );
                None
            }
        };
        Worst {
            index,
            link,
            gold,
            output: Some(e.document.text),
        }
    }
}

/// A page key as a file name: letters, digits, `-`, `_` and `.` kept.
fn safe_name(key: &str) -> String {
    key.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .take(80)
        .collect()
}

/// Writes to stdout, an error (not `print!`'s panic) when it is closed, so
/// that `linesift eval ... | head` ends quietly like the other commands.
fn print_out(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .context("writing stdout")
}

/// A report error as messages show it: the path it names with control
/// characters escaped.
fn shown_report_error(e: ReportError) -> anyhow::Error {
    match e {
        ReportError::Io { path, source } => {
            anyhow::Error::new(source).context(printable_path(&path))
        }
        ReportError::Manifest { path, message } => {
            anyhow!("{}: {}", printable_path(&path), printable(&message))
        }
        other => other.into(),
    }
}

fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    std::fs::write(path, text).with_context(|| format!("writing {}", printable_path(path)))
}
