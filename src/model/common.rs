//! The page envelope shared by every paged list.

use serde::{Deserialize, Serialize};

/// One page of a paged list: `{items, total, page, size, pages}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub total: u64,
    pub page: u32,
    pub size: u32,
    pub pages: u32,
}

impl<T> Page<T> {
    /// Builds the envelope for `items`, the rows of page `page` of `total` rows cut in pages of
    /// `size`.
    pub fn new(items: Vec<T>, total: u64, page: u32, size: u32) -> Self {
        let pages = if size == 0 {
            0
        } else {
            total.div_ceil(u64::from(size)) as u32
        };
        Page {
            items,
            total,
            page,
            size,
            pages,
        }
    }

    /// The same page with each item turned by `f`.
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> Page<U> {
        Page {
            items: self.items.into_iter().map(f).collect(),
            total: self.total,
            page: self.page,
            size: self.size,
            pages: self.pages,
        }
    }
}

/// `page` and `size` query parameters: page >= 1, size 1-100, default 50.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageParams {
    pub page: u32,
    pub size: u32,
}

impl PageParams {
    pub const DEFAULT_SIZE: u32 = 50;
    pub const MAX_SIZE: u32 = 100;

    pub fn new(page: u32, size: u32) -> Self {
        PageParams { page, size }
    }

    /// Index of the first row of this page in the whole list.
    pub fn offset(&self) -> usize {
        (self.page.saturating_sub(1) as usize).saturating_mul(self.size as usize)
    }
}

impl Default for PageParams {
    fn default() -> Self {
        PageParams {
            page: 1,
            size: Self::DEFAULT_SIZE,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_round_up() {
        assert_eq!(Page::<u8>::new(vec![], 101, 1, 50).pages, 3);
        assert_eq!(Page::<u8>::new(vec![], 100, 1, 50).pages, 2);
        assert_eq!(Page::<u8>::new(vec![], 0, 1, 50).pages, 0);
    }

    #[test]
    fn offset_of_a_page() {
        assert_eq!(PageParams::new(1, 100).offset(), 0);
        assert_eq!(PageParams::new(3, 100).offset(), 200);
    }
}
