//! Wire types of the service's v1 interface, shared by the client and the sandbox.
//!
//! Conventions:
//! - Amounts and rates are [`rust_decimal::Decimal`]: written as JSON strings, read from a string
//!   or a number.
//! - `YYYY-MM-DD` dates are [`chrono::NaiveDate`]; timestamps are [`Timestamp`], which reads
//!   values with and without an offset.
//! - Enumerations are "open" (see [`open_enum!`]): a value this version does not know is kept and
//!   shown, never a failed page.
//! - Read models serialize absent optional fields as `null`, as the live service does; request
//!   models leave them out.

#[macro_use]
mod open_enum;
mod address;
pub mod audit;
pub mod casing;
mod common;
mod customer;
mod error;
mod estimate;
mod exemption;
mod filing;
pub mod filters;
pub mod format;
pub mod history;
mod nexus;
mod product;
mod registration;
mod resource;
pub mod retry;
pub mod secrets;
pub mod tenanted;
mod timestamp;
mod transaction;

pub use address::*;
pub use common::{Page, PageParams};
pub use customer::*;
pub use error::{ErrorBody, ErrorDetail, FieldError, LocPart};
pub use estimate::*;
pub use exemption::*;
pub use filing::*;
pub use nexus::*;
pub use product::*;
pub use registration::*;
pub use resource::Resource;
pub use timestamp::Timestamp;
pub use transaction::*;
