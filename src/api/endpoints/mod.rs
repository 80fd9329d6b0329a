//! One typed method per endpoint, grouped by resource. Each method only describes its call
//! (method, path, query, body) and the type of its answer; the transport does the rest.

mod customers;
mod exemptions;
mod filings;
mod nexus;
mod products;
mod registrations;
mod related;
mod tenanted;
mod transactions;

pub use exemptions::Upload;
pub use registrations::RevealField;

use serde::de::DeserializeOwned;
use serde_json::value::RawValue;

use crate::api::transport::Call;
use crate::api::{ApiResult, Client};
use crate::model::filters::ListFilter;
use crate::model::{Page, PageParams};

impl Client {
    /// One page of the list `filter` filters (any list: the filter's type names it), each item
    /// as the service sent it (its JSON text): every field kept, unknown ones included, an
    /// absent one still absent. v1 items are byte for byte the service's; a Tenanted item's keys
    /// are spelled as v1's (`countryCode` -> `country_code`), its values untouched. The same call as the typed list
    /// method, with the same pacing and retries; [`read_item`](Self::read_item) reads an item
    /// as that method would.
    pub async fn list_raw<F: ListFilter>(
        &self,
        filter: &F,
        page: PageParams,
    ) -> ApiResult<Page<Box<RawValue>>> {
        self.transport.send_page_raw(Call::list(filter, page)).await
    }

    /// A page of the list `filter` filters, its items read as `T` in one pass: a record in
    /// full, or the few fields a check adds up (see [`SaleFigures`](crate::model::SaleFigures)).
    pub async fn list_as<F: ListFilter, T: DeserializeOwned>(
        &self,
        filter: &F,
        page: PageParams,
    ) -> ApiResult<Page<T>> {
        self.transport.send(Call::list(filter, page)).await
    }

    /// Reads one item of a [`list_raw`](Self::list_raw) page as the typed record.
    pub fn read_item<T: DeserializeOwned>(&self, item: &RawValue) -> ApiResult<T> {
        self.transport.read_item(item)
    }
}
