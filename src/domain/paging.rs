//! Page numbers and sizes of paged lists (`?page=&page_size=`). A bad value is reported as
//! field-keyed [`Messages`]; the HTTP layer answers them with a 400.

use std::collections::HashMap;

use crate::domain::messages::Messages;

/// A parsed and bounded page request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRequest {
    /// 1-based page number.
    pub page: u64,
    /// Items per page.
    pub page_size: u32,
}

/// The paging facts of one answered page, sent as headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    /// Number of items in the whole list.
    pub total: u64,
    /// Number of pages (0 for an empty list).
    pub total_pages: u64,
    /// This page's number.
    pub page_number: u64,
    /// Items per page.
    pub per_page: u32,
}

impl PageRequest {
    /// Reads `page` (default 1) and `page_size` (default `default_size`, at most `max_size`)
    /// from a raw query string. Anything else in the query is ignored.
    pub fn parse(query: Option<&str>, default_size: u32, max_size: u32) -> Result<PageRequest, Messages> {
        let params: HashMap<String, String> = serde_urlencoded::from_str(query.unwrap_or(""))
            .map_err(|_| Messages::one("query", "The query string is malformed"))?;
        let mut errors = Messages::default();
        let page = match params.get("page").map(|v| v.trim()) {
            None | Some("") => Some(1),
            Some(raw) => raw.parse::<u64>().ok().filter(|&p| p >= 1 && p <= i64::MAX as u64),
        };
        if page.is_none() {
            errors.push("page", "Should be a whole number from 1");
        }
        let page_size = match params.get("page_size").map(|v| v.trim()) {
            None | Some("") => Some(default_size),
            Some(raw) => raw.parse::<u32>().ok().filter(|&s| s >= 1 && s <= max_size),
        };
        if page_size.is_none() {
            errors.push("page_size", format!("Should be a whole number from 1 to {max_size}"));
        }
        match (page, page_size) {
            (Some(page), Some(page_size)) => Ok(PageRequest { page, page_size }),
            _ => Err(errors),
        }
    }

    /// Rows to skip.
    pub fn offset(&self) -> u64 {
        (self.page - 1).saturating_mul(u64::from(self.page_size))
    }

    /// Checks the page against the list's size: page 1 always exists, others must hold items.
    pub fn within(&self, total: u64) -> Result<Page, Messages> {
        let total_pages = total.div_ceil(u64::from(self.page_size));
        if self.page > total_pages.max(1) {
            return Err(Messages::one("page", format!("Should be from 1 to {}", total_pages.max(1))));
        }
        Ok(Page { total, total_pages, page_number: self.page, per_page: self.page_size })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_apply_when_absent() {
        let req = PageRequest::parse(None, 10, 100).unwrap();
        assert_eq!(req, PageRequest { page: 1, page_size: 10 });
        assert_eq!(req.offset(), 0);
    }

    #[test]
    fn bad_numbers_are_refused_with_their_field() {
        for query in ["page=0", "page=-1", "page=abc", "page=1.5", "page=99999999999999999999"] {
            let err = PageRequest::parse(Some(query), 10, 100).unwrap_err();
            assert_eq!(err.0[0].0, "page", "{query}");
        }
        for query in ["page_size=0", "page_size=101", "page_size=x"] {
            let err = PageRequest::parse(Some(query), 10, 100).unwrap_err();
            assert_eq!(err.0[0].0, "page_size", "{query}");
        }
    }

    #[test]
    fn pages_past_the_end_are_refused_but_page_one_of_nothing_is_fine() {
        let req = PageRequest::parse(Some("page=3&page_size=10"), 10, 100).unwrap();
        assert_eq!(req.within(25).unwrap().total_pages, 3);
        assert!(req.within(20).is_err());
        let first = PageRequest::parse(None, 10, 100).unwrap();
        assert_eq!(first.within(0).unwrap().total_pages, 0);
    }
}
