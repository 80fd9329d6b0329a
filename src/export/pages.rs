//! What the first page promises, and each page judged against it: a page may come back with
//! fewer rows than the announced total leaves for it only when the list really shrank, which the
//! page's own total then shows.

/// How a page compares with the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// As many rows as expected (or more: the list grew); read on.
    More,
    /// Fewer rows than expected, and the page's own total agrees with the rows read: the list
    /// shrank, and this is its end.
    Ended,
    /// Fewer rows than expected, and the service still announces more: it promised records it
    /// does not deliver.
    Short,
}

/// The pages the first answer announced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Plan {
    announced: u64,
    /// Rows a page holds: the size the service says it used when it is a sensible one (1 up to
    /// the size asked for), else the size asked for.
    size: u64,
}

impl Plan {
    /// The plan of a list of `announced` rows, read `asked` at a time, the service saying it
    /// used pages of `answered`.
    pub fn new(announced: u64, answered: u32, asked: u32) -> Self {
        let size = if (1..=asked).contains(&answered) {
            answered
        } else {
            asked.max(1)
        };
        Plan {
            announced,
            size: u64::from(size),
        }
    }

    /// The number of pages, from the total and the size (not from the service's `pages`, which
    /// could say anything).
    pub fn pages(&self) -> u32 {
        u32::try_from(self.announced.div_ceil(self.size)).unwrap_or(u32::MAX)
    }

    /// The rows page `page` (from 1) should hold.
    pub fn expected(&self, page: u32) -> u64 {
        let before = u64::from(page.saturating_sub(1)) * self.size;
        self.announced.saturating_sub(before).min(self.size)
    }

    /// Judges page `page`, which held `rows` and announced `total`, `read` rows having been read
    /// with it.
    pub fn judge(&self, page: u32, rows: u64, total: u64, read: u64) -> Verdict {
        if rows >= self.expected(page) {
            Verdict::More
        } else if total == read {
            Verdict::Ended
        } else {
            Verdict::Short
        }
    }
}

/// What the short page held, in words: `came back empty`, `held 40 rows of the 100 expected`.
pub(crate) fn held(rows: u64, expected: u64) -> String {
    if rows == 0 {
        "came back empty".to_owned()
    } else {
        format!("held {rows} rows of the {expected} expected")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_and_their_expected_rows() {
        let plan = Plan::new(250, 100, 100);
        assert_eq!(plan.pages(), 3);
        assert_eq!([1, 2, 3, 4].map(|p| plan.expected(p)), [100, 100, 50, 0]);
        // A service that answers smaller pages than asked: its size counts.
        let plan = Plan::new(250, 50, 100);
        assert_eq!((plan.pages(), plan.expected(5)), (5, 50));
        // A size that makes no sense is not believed.
        assert_eq!(Plan::new(250, 0, 100).pages(), 3);
        assert_eq!(Plan::new(250, 5000, 100).pages(), 3);
        assert_eq!(Plan::new(0, 100, 100).pages(), 0);
        assert_eq!(Plan::new(u64::MAX, 1, 1).pages(), u32::MAX);
    }

    #[test]
    fn an_empty_or_short_page_before_the_end_is_short_unless_the_list_shrank() {
        let plan = Plan::new(1_000_000, 100, 100);
        assert_eq!(plan.judge(1, 0, 1_000_000, 0), Verdict::Short);
        assert_eq!(plan.judge(1, 100, 1_000_000, 100), Verdict::More);
        assert_eq!(plan.judge(3, 40, 1_000_000, 240), Verdict::Short);
        // The list lost 10 records while it was read: the last page says so.
        let plan = Plan::new(250, 100, 100);
        assert_eq!(plan.judge(3, 40, 240, 240), Verdict::Ended);
        assert_eq!(plan.judge(3, 0, 200, 200), Verdict::Ended);
        // Shifted rows were skipped: the service's total is more than what was read.
        assert_eq!(plan.judge(3, 30, 240, 230), Verdict::Short);
        // It grew: more than expected is never short.
        assert_eq!(plan.judge(3, 60, 260, 260), Verdict::More);
        assert_eq!(held(0, 100), "came back empty");
        assert_eq!(held(40, 50), "held 40 rows of the 50 expected");
    }
}
