//! The records of an organization as rows of the state database: one row per record, named by
//! its kind and its key (the record's id, or what identifies it when it has none), its body in
//! JSON and, for attachments, the file's bytes beside it.
//!
//! A handler that changes records names each one it changed ([`OrgData::touch`](super::OrgData::touch));
//! the store then writes only those rows, so that a write costs the size of what it changed, not
//! of the whole state.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::model::tenanted::SecurityQuestion;
use crate::model::{
    Customer, Exemption, Filing, Nexus, OssCountry, PhysicalNexus, Product, Registration,
};
use crate::sandbox::demo_data::{
    BackFilingOptionRecord, CertificateImportRecord, Closure, DemoOrg, ExposureRecord, SealedCode,
    StoredAttachment,
};

/// One record as it is kept: its body in JSON, and the bytes of a file when it has one.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Row {
    pub kind: Kind,
    pub id: String,
    pub body: String,
    pub bytes: Option<Vec<u8>>,
}

/// A record kept as one row.
trait Record: Serialize + DeserializeOwned {
    /// What identifies the record among those of its kind in one organization.
    fn key(&self) -> String;

    /// Whether the record's key is `key`; those keyed by their id answer without making one.
    fn has_key(&self, key: &str) -> bool {
        self.key() == key
    }

    /// The body and the bytes kept apart from it.
    fn to_parts(&self) -> serde_json::Result<(String, Option<Vec<u8>>)> {
        Ok((serde_json::to_string(self)?, None))
    }

    /// The record back from [`to_parts`](Self::to_parts).
    fn from_parts(body: &str, _bytes: Option<Vec<u8>>) -> serde_json::Result<Self> {
        serde_json::from_str(body)
    }
}

macro_rules! keyed_by_id {
    ($($t:ty),*) => {
        $(impl Record for $t {
            fn key(&self) -> String {
                self.id.clone()
            }

            fn has_key(&self, key: &str) -> bool {
                self.id == key
            }
        })*
    };
}

keyed_by_id!(
    Registration,
    PhysicalNexus,
    Nexus,
    Customer,
    Exemption,
    Product,
    Filing,
    CertificateImportRecord,
    ExposureRecord,
    BackFilingOptionRecord
);

/// OSS countries by registration id.
impl Record for (String, Vec<OssCountry>) {
    fn key(&self) -> String {
        self.0.clone()
    }
}

/// Security questions by registration id (their answers sealed).
impl Record for (String, Vec<SecurityQuestion>) {
    fn key(&self) -> String {
        self.0.clone()
    }
}

/// A sealed secret: registration id, field, sealed value.
impl Record for (String, String, String) {
    fn key(&self) -> String {
        secret_key(&self.0, &self.1)
    }
}

impl Record for SealedCode {
    fn key(&self) -> String {
        secret_key(&self.registration_id, &self.field)
    }
}

impl Record for Closure {
    fn key(&self) -> String {
        self.registration_id.clone()
    }
}

/// The attachment's record in JSON, its file as bytes beside it.
impl Record for StoredAttachment {
    fn key(&self) -> String {
        self.attachment.id.clone()
    }

    fn to_parts(&self) -> serde_json::Result<(String, Option<Vec<u8>>)> {
        Ok((
            serde_json::to_string(&self.attachment)?,
            Some(self.bytes.clone()),
        ))
    }

    fn from_parts(body: &str, bytes: Option<Vec<u8>>) -> serde_json::Result<Self> {
        Ok(StoredAttachment {
            attachment: serde_json::from_str(body)?,
            bytes: bytes.unwrap_or_default(),
        })
    }
}

/// The key of a secret or sealed code: the registration and the field.
pub(crate) fn secret_key(registration_id: &str, field: &str) -> String {
    format!("{registration_id} {field}")
}

fn row_of<R: Record>(kind: Kind, record: &R) -> serde_json::Result<Row> {
    let (body, bytes) = record.to_parts()?;
    Ok(Row {
        kind,
        id: record.key(),
        body,
        bytes,
    })
}

/// The kinds of record, with the name each has in the database and the list of [`DemoOrg`] it
/// lives in. Transactions are kept apart (see [`Kind::Transaction`]).
macro_rules! kinds {
    ($($kind:ident $name:literal $($field:ident).+;)*) => {
        /// A kind of record, as named in the database.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub(crate) enum Kind {
            $($kind,)*
            /// A transaction created through the interface, by its index.
            Transaction,
            /// A demo transaction changed since generation, by its index.
            DemoTransaction,
            /// A user of the Tenanted users endpoints (kept apart from the organizations).
            User,
        }

        impl Kind {
            pub fn name(self) -> &'static str {
                match self {
                    $(Kind::$kind => $name,)*
                    Kind::Transaction => "transaction",
                    Kind::DemoTransaction => "demo_transaction",
                    Kind::User => "user",
                }
            }

            pub fn parse(name: &str) -> Option<Kind> {
                match name {
                    $($name => Some(Kind::$kind),)*
                    "transaction" => Some(Kind::Transaction),
                    "demo_transaction" => Some(Kind::DemoTransaction),
                    "user" => Some(Kind::User),
                    _ => None,
                }
            }
        }

        /// The row of the record `id` of kind `kind`, or `None` when the organization no longer
        /// has it (then its row goes). Only for the kinds kept in [`DemoOrg`]. Searched from the
        /// end, where a record just made is.
        pub(crate) fn find(demo: &DemoOrg, kind: Kind, id: &str) -> Option<serde_json::Result<Row>> {
            match kind {
                $(Kind::$kind => demo.$($field).+
                    .iter()
                    .rev()
                    .find(|r| r.has_key(id))
                    .map(|r| row_of(kind, r)),)*
                Kind::Transaction | Kind::DemoTransaction | Kind::User => None,
            }
        }

        /// Every record of the organization, in order.
        pub(crate) fn all(demo: &DemoOrg) -> serde_json::Result<Vec<Row>> {
            let mut rows = Vec::new();
            $(for r in &demo.$($field).+ {
                rows.push(row_of(Kind::$kind, r)?);
            })*
            Ok(rows)
        }

        /// Adds a record read back from its row at the end of its list. Answers `false` for the
        /// kinds not kept in [`DemoOrg`].
        pub(crate) fn put(demo: &mut DemoOrg, row: Row) -> serde_json::Result<bool> {
            match row.kind {
                $(Kind::$kind => demo.$($field).+.push(Record::from_parts(&row.body, row.bytes)?),)*
                Kind::Transaction | Kind::DemoTransaction | Kind::User => return Ok(false),
            }
            Ok(true)
        }
    };
}

kinds! {
    Registration "registration" registrations;
    OssCountries "oss_countries" oss_countries;
    PhysicalNexus "physical_nexus" physical_nexus;
    Nexus "nexus" nexus;
    Customer "customer" customers;
    Exemption "exemption" exemptions;
    Attachment "attachment" attachments;
    Product "product" products;
    Filing "filing" filings;
    Secret "secret" secrets;
    SecurityQuestions "security_questions" tenanted.security_questions;
    SealedCode "sealed_code" tenanted.sealed_codes;
    CertificateImport "certificate_import" tenanted.certificate_imports;
    ExposureEvent "exposure_event" tenanted.exposure_events;
    BackFilingOption "back_filing_option" tenanted.back_filing_options;
    Closure "closure" tenanted.closures;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::demo_data;

    #[test]
    fn every_record_goes_to_a_row_and_back() {
        let demo = demo_data::generate(42, 0, "orgn_demo_1", demo_data::DEMO_ANCHOR);
        let rows = all(&demo).unwrap();
        let mut back = DemoOrg {
            organization_id: demo.organization_id.clone(),
            ..DemoOrg::default()
        };
        for row in rows.iter().cloned() {
            assert!(put(&mut back, row).unwrap());
        }
        assert_eq!(back, demo);
        assert!(
            rows.iter()
                .any(|r| r.kind == Kind::Attachment && r.bytes.is_some())
        );
    }

    #[test]
    fn keys_are_unique_within_a_kind() {
        for org in 0..2 {
            let demo = demo_data::generate(7, org, "orgn_x", demo_data::DEMO_ANCHOR);
            let mut seen = std::collections::HashSet::new();
            for row in all(&demo).unwrap() {
                assert!(seen.insert((row.kind, row.id.clone())), "{row:?}");
            }
        }
    }

    #[test]
    fn a_record_is_found_by_its_key_and_gone_once_removed() {
        let mut demo = demo_data::generate(42, 1, "orgn_demo_2", demo_data::DEMO_ANCHOR);
        let id = demo.customers[3].id.clone();
        let row = find(&demo, Kind::Customer, &id).unwrap().unwrap();
        assert_eq!(row.id, id);
        assert!(row.body.contains(&id));
        demo.customers.remove(3);
        assert!(find(&demo, Kind::Customer, &id).is_none());
    }

    #[test]
    fn kind_names_read_back() {
        for kind in [Kind::Secret, Kind::Transaction, Kind::User, Kind::Closure] {
            assert_eq!(Kind::parse(kind.name()), Some(kind));
        }
        assert_eq!(Kind::parse("nothing"), None);
    }
}
