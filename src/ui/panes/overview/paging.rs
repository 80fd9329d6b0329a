//! The pages of the Overview's lists: which page each list files next, how far it has asked,
//! and the answers that came back before their turn. A list's pages after the first are asked
//! for together, so they come back in any order; they are filed in page order all the same.

use std::collections::HashMap;
use std::ops::RangeInclusive;

use super::data::Ask;
use crate::effect::{Failure, Reply};

/// The page a list that has ended (read to its end, or failed) files next: none.
const ENDED: u32 = u32::MAX;

/// The pages of every list under way.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Paging {
    /// The page each list files next (absent: the first).
    next: HashMap<Ask, u32>,
    /// The last page each list has asked for (absent: the first).
    asked: HashMap<Ask, u32>,
    /// Answers that came back before the page to file.
    early: HashMap<(Ask, u32), Result<Reply, Failure>>,
}

impl Paging {
    fn next(&self, ask: Ask) -> u32 {
        self.next.get(&ask).copied().unwrap_or(1)
    }

    /// Whether `ask` has ended: later pages of it are dropped.
    pub fn ended(&self, ask: Ask) -> bool {
        self.next(ask) == ENDED
    }

    /// The answer to page `page` of `ask` when that page is the one to file now; otherwise it
    /// is kept for its turn (or dropped, when the list ended or the page was filed already).
    pub fn arrived(
        &mut self,
        ask: Ask,
        page: u32,
        result: Result<Reply, Failure>,
    ) -> Option<Result<Reply, Failure>> {
        let next = self.next(ask);
        if page == next {
            Some(result)
        } else {
            if page > next && next != ENDED {
                self.early.insert((ask, page), result);
            }
            None
        }
    }

    /// Page `page` of `ask` is filed: the next one is due, unless the list ended there. Answers
    /// the next page when it came back already.
    pub fn filed(
        &mut self,
        ask: Ask,
        page: u32,
        ended: bool,
    ) -> Option<(u32, Result<Reply, Failure>)> {
        if ended {
            self.next.insert(ask, ENDED);
            self.early.retain(|(a, _), _| *a != ask);
            return None;
        }
        let next = page + 1;
        self.next.insert(ask, next);
        self.early.remove(&(ask, next)).map(|r| (next, r))
    }

    /// The pages of `ask` not asked for yet up to `through`, which are asked for from now on.
    pub fn ask_through(&mut self, ask: Ask, through: u32) -> RangeInclusive<u32> {
        let asked = self.asked.get(&ask).copied().unwrap_or(1);
        if through > asked {
            self.asked.insert(ask, through);
        }
        asked + 1..=through
    }

    /// `ask` is read again from its first page.
    pub fn restart(&mut self, ask: Ask) {
        self.next.remove(&ask);
        self.asked.remove(&ask);
        self.early.retain(|(a, _), _| *a != ask);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::FailureKind;

    fn answer(n: u32) -> Result<Reply, Failure> {
        Err(Failure {
            kind: FailureKind::Other,
            message: n.to_string(),
            fields: Vec::new(),
        })
    }

    #[test]
    fn pages_that_come_early_wait_for_their_turn() {
        let mut paging = Paging::default();
        assert_eq!(paging.arrived(Ask::Nexus, 1, answer(1)), Some(answer(1)));
        assert_eq!(paging.ask_through(Ask::Nexus, 4), 2..=4);
        assert!(paging.ask_through(Ask::Nexus, 4).is_empty(), "asked once");
        assert_eq!(paging.filed(Ask::Nexus, 1, false), None);
        assert_eq!(paging.arrived(Ask::Nexus, 3, answer(3)), None);
        assert_eq!(paging.arrived(Ask::Nexus, 4, answer(4)), None);
        assert_eq!(paging.arrived(Ask::Nexus, 2, answer(2)), Some(answer(2)));
        assert_eq!(paging.filed(Ask::Nexus, 2, false), Some((3, answer(3))));
        assert_eq!(paging.filed(Ask::Nexus, 3, false), Some((4, answer(4))));
        assert_eq!(paging.filed(Ask::Nexus, 4, true), None);
        assert!(paging.ended(Ask::Nexus));
    }

    #[test]
    fn pages_after_the_end_are_dropped() {
        let mut paging = Paging::default();
        assert_eq!(paging.arrived(Ask::Queued, 3, answer(3)), None);
        assert!(paging.arrived(Ask::Queued, 1, answer(1)).is_some());
        // The first page was the last after all (the list shrank).
        assert_eq!(paging.filed(Ask::Queued, 1, true), None);
        assert_eq!(paging.arrived(Ask::Queued, 2, answer(2)), None);
        assert!(paging.early.is_empty());
        paging.restart(Ask::Queued);
        assert!(!paging.ended(Ask::Queued));
        assert!(paging.arrived(Ask::Queued, 1, answer(1)).is_some());
    }
}
