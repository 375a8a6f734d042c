//! Reading ahead for records listed together: when a run's list names
//! records of one remote file one after the other (an index sorted by
//! offset), the first of them asks for the bytes of the next ones too, in
//! one request, and they are read from what it brought. Decides only
//! which bytes one request asks for; a record that meets no window (none
//! planned, one that failed, one given up) is read by its own range, with
//! its own retries and errors.

use super::transfer::Policy;
use super::{Failure, Remote};
use hyper::body::Bytes;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, OnceLock};

/// The most one request asks for ahead of its record.
pub const MAX_AHEAD: u64 = 4 << 20;

/// The widest gap between two listed records (another record, not
/// listed, between them) still read through in one request.
pub const MAX_GAP: u64 = 64 << 10;

/// The most bytes of windows kept for records not read yet: the oldest
/// window is given up past it (its records are then read one by one).
const MAX_KEPT: u64 = 64 << 20;

/// One record of a list: its file's location, offset and length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    pub location: String,
    pub offset: u64,
    pub length: u64,
}

/// The bytes one request reads for several listed records, and where
/// those records start.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Planned {
    start: u64,
    end: u64,
    offsets: Vec<u64>,
}

/// A list's records cut into windows, by file: from a record, the
/// following records of the same file in list order, each starting at or
/// after the last one's end and at most [`MAX_GAP`] past it, up to
/// [`MAX_AHEAD`] bytes in all, are one window; the next record starts the
/// next one. A record alone in its window is left out (it is one request
/// anyway). Whichever of a window's records is read first reads it all,
/// so the requests do not depend on which task runs first.
fn windows(spans: &[Span]) -> HashMap<String, HashMap<u64, Arc<Planned>>> {
    let mut plan: HashMap<String, HashMap<u64, Arc<Planned>>> = HashMap::new();
    let mut i = 0;
    while i < spans.len() {
        let first = &spans[i];
        let mut window = Planned {
            start: first.offset,
            end: first.offset.saturating_add(first.length),
            offsets: vec![first.offset],
        };
        i += 1;
        while let Some(next) = spans.get(i).filter(|_| first.length > 0) {
            let end = next.offset.saturating_add(next.length);
            let follows = next.location == first.location
                && next.length > 0
                && next.offset >= window.end
                && next.offset - window.end <= MAX_GAP
                && end - window.start <= MAX_AHEAD;
            if !follows {
                break;
            }
            window.end = end;
            window.offsets.push(next.offset);
            i += 1;
        }
        if window.offsets.len() > 1 {
            let file = plan.entry(first.location.clone()).or_default();
            let window = Arc::new(window);
            for offset in &window.offsets {
                file.entry(*offset).or_insert_with(|| window.clone());
            }
        }
    }
    plan
}

/// A window's bytes, once its request is done.
#[derive(Debug)]
enum State {
    Pending,
    Ready { bytes: Bytes, total: Option<u64> },
    Failed,
}

#[derive(Debug)]
struct Window {
    location: String,
    start: u64,
    end: u64,
    state: Mutex<State>,
    done: Condvar,
    /// Where its listed records start.
    offsets: Vec<u64>,
    /// Listed records in it not read yet: at 0 it is dropped.
    left: Mutex<usize>,
}

impl Window {
    fn covers(&self, location: &str, start: u64, end: u64) -> bool {
        self.location == location && self.start <= start && end <= self.end
    }

    /// Waits for the request and gives `start..end` of its bytes (fewer
    /// at the file's end) and the file's size; `None` when it failed or
    /// ended before `start`.
    fn wait(&self, start: u64, end: u64) -> Option<(Bytes, Option<u64>)> {
        let mut state = self.state.lock().ok()?;
        while matches!(*state, State::Pending) {
            state = self.done.wait(state).ok()?;
        }
        let State::Ready { bytes, total } = &*state else {
            return None;
        };
        let from = usize::try_from(start - self.start).ok()?;
        let to = usize::try_from(end - self.start).ok()?.min(bytes.len());
        (from < to).then(|| (bytes.slice(from..to), *total))
    }

    fn settle(&self, state: State) {
        if let Ok(mut s) = self.state.lock() {
            *s = state;
        }
        self.done.notify_all();
    }
}

/// Marks a window failed if its request ends without settling it (a
/// panic), so that no reader waits for ever.
struct Settle<'a>(&'a Window);

impl Drop for Settle<'_> {
    fn drop(&mut self) {
        let pending = self
            .0
            .state
            .lock()
            .is_ok_and(|s| matches!(*s, State::Pending));
        if pending {
            self.0.settle(State::Failed);
        }
    }
}

/// The planned windows not read yet and the windows read or being read.
#[derive(Default)]
struct Ahead {
    plan: HashMap<String, HashMap<u64, Arc<Planned>>>,
    windows: VecDeque<Arc<Window>>,
}

impl Ahead {
    fn kept(&self) -> u64 {
        self.windows.iter().map(|w| w.end - w.start).sum()
    }

    fn drop_window(&mut self, window: &Arc<Window>) {
        self.windows.retain(|w| !Arc::ptr_eq(w, window));
    }
}

fn ahead() -> &'static Mutex<Ahead> {
    static AHEAD: OnceLock<Mutex<Ahead>> = OnceLock::new();
    AHEAD.get_or_init(Mutex::default)
}

/// Plans the reads of a list's records, in the order they will be read:
/// a record followed in the list by others of its file (see [`windows`])
/// is read with them in one request. Replaces any plan made before.
pub fn plan(spans: &[Span]) {
    let plan = windows(spans);
    if let Ok(mut ahead) = ahead().lock() {
        ahead.plan = plan;
        ahead.windows.clear();
    }
}

/// The window to read `start..end` of `location` from: one read or being
/// read that covers it, or the planned one of the record at `start`,
/// made once (`true`: the caller makes its request).
fn window_for(location: &str, start: u64, end: u64) -> Option<(Arc<Window>, bool)> {
    let mut ahead = ahead().lock().ok()?;
    let covering = ahead
        .windows
        .iter()
        .find(|w| w.covers(location, start, end));
    if let Some(w) = covering {
        return Some((w.clone(), false));
    }
    let file = ahead.plan.get_mut(location)?;
    let planned = file.get(&start)?.clone();
    if end > planned.end {
        return None;
    }
    // Read once: a record of it read again later (a task tried again)
    // reads its own range.
    for offset in &planned.offsets {
        file.remove(offset);
    }
    let window = Arc::new(Window {
        location: location.to_string(),
        start: planned.start,
        end: planned.end,
        state: Mutex::new(State::Pending),
        done: Condvar::new(),
        left: Mutex::new(planned.offsets.len()),
        offsets: planned.offsets.clone(),
    });
    let size = planned.end - planned.start;
    while ahead.kept() + size > MAX_KEPT && !ahead.windows.is_empty() {
        ahead.windows.pop_front();
    }
    ahead.windows.push_back(window.clone());
    Some((window, true))
}

/// Bytes `start..end` of `remote` from a planned window, `None` when no
/// window holds them (the caller reads them by their own range). The
/// window's request is made once, by the first record that needs it, with
/// no retries: one that fails leaves each of its records to its own.
pub(super) fn read(remote: &Remote, start: u64, end: u64) -> Option<(Bytes, Option<u64>)> {
    let (window, mine) = window_for(&remote.location, start, end)?;
    if mine {
        let _settle = Settle(&window);
        let policy = Policy {
            retries: 0,
            ..Policy::from_env()
        };
        let state = match super::transfer::fetch(&remote.backend, window.start, window.end, policy)
        {
            Ok((bytes, total)) => State::Ready {
                bytes: Bytes::from(bytes),
                total,
            },
            Err(Failure { .. }) => {
                replan(&window, start);
                State::Failed
            }
        };
        window.settle(state);
    }
    let got = window.wait(start, end);
    let finished = match window.left.lock() {
        Ok(mut left) => {
            *left = left.saturating_sub(1);
            *left == 0
        }
        Err(_) => true,
    };
    if (finished || got.is_none())
        && let Ok(mut ahead) = ahead().lock()
    {
        ahead.drop_window(&window);
    }
    got
}

/// After a window's request failed: its records after `start` (the one
/// whose read made it) are planned again as one window, so that a failure
/// costs one record its window, not all of them.
fn replan(window: &Window, start: u64) {
    let rest: Vec<u64> = window
        .offsets
        .iter()
        .copied()
        .filter(|o| *o > start)
        .collect();
    let Some(&first) = rest.first().filter(|_| rest.len() > 1) else {
        return;
    };
    let planned = Arc::new(Planned {
        start: first,
        end: window.end,
        offsets: rest,
    });
    if let Ok(mut ahead) = ahead().lock() {
        let file = ahead.plan.entry(window.location.clone()).or_default();
        for offset in &planned.offsets {
            file.insert(*offset, planned.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(location: &str, offset: u64, length: u64) -> Span {
        Span {
            location: location.to_string(),
            offset,
            length,
        }
    }

    fn starts(plan: &HashMap<String, HashMap<u64, Arc<Planned>>>, file: &str) -> Vec<u64> {
        let mut starts: Vec<u64> = plan[file].keys().copied().collect();
        starts.sort_unstable();
        starts
    }

    #[test]
    fn records_that_follow_each_other_in_a_file_are_one_window() {
        let plan = windows(&[
            span("a", 0, 100),
            span("a", 100, 50),
            // Past a record not listed, within the gap.
            span("a", 200, 10),
            span("b", 210, 10),
            span("a", 210, 10),
            span("a", 220, 10),
        ]);
        let first = &plan["a"][&100];
        assert_eq!((first.start, first.end), (0, 210));
        assert_eq!(first.offsets, [0, 100, 200]);
        assert_eq!(plan["a"][&220].start, 210);
        assert_eq!(starts(&plan, "a"), [0, 100, 200, 210, 220]);
        // Alone between another file's records: one request of its own.
        assert!(!plan.contains_key("b"));
    }

    #[test]
    fn a_window_stops_at_a_gap_a_step_back_or_its_size() {
        let far = windows(&[span("a", 0, 10), span("a", 10 + MAX_GAP + 1, 10)]);
        assert!(far.is_empty());
        let back = windows(&[span("a", 100, 10), span("a", 0, 10)]);
        assert!(back.is_empty());
        let big = MAX_AHEAD / 2;
        let sized = windows(&[
            span("a", 0, big),
            span("a", big, big),
            span("a", 2 * big, 1),
            span("a", 2 * big + 1, 1),
        ]);
        assert_eq!(sized["a"][&0].end, 2 * big);
        assert_eq!(sized["a"][&(2 * big + 1)].start, 2 * big);
    }
}
