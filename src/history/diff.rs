//! What changed between two snapshots: per resource, the records added, removed, and each
//! changed field with its old and new value.
//!
//! - Hashes first: the database compares the records' body hashes, so a record unchanged
//!   between the snapshots is never read nor parsed; only the bodies of records added, removed
//!   or changed leave the database.
//! - Fields: a body is flattened to its leaves, each named by its dotted path (`address.city`).
//!   Arrays are compared by index (`lines.0.amount`, `sku.1`): a value moved within an array
//!   shows as changes at the indexes it left and reached. An empty object or array is a leaf.
//!   A field present in one body only changes from or to absent.
//! - Labels: each record is named for people: nexus by its jurisdiction (`US-GA`), the others
//!   by id plus a name where one is obvious (`cus_1 (Acme)`, `reg_4 (US-CA)`).

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;
use serde_json::Value;

use super::snapshot::{Snapshot, resource_named};
use super::store::Param;
use super::{History, HistoryError};
use crate::model::Resource;
use crate::model::history::Tally;

/// How one record differs.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "change")]
pub enum Kind {
    /// In the newer snapshot only.
    Added,
    /// In the older snapshot only.
    Removed,
    /// In both, with these fields changed.
    Changed { fields: Vec<FieldChange> },
}

/// One field's change: `None` where the field is absent.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldChange {
    pub path: String,
    pub old: Option<Value>,
    pub new: Option<Value>,
}

/// One record that differs between the snapshots.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    #[serde(serialize_with = "resource_name")]
    pub resource: Resource,
    pub id: String,
    /// The record's name for people: `US-GA`, `cus_1 (Acme)`.
    pub label: String,
    #[serde(flatten)]
    pub kind: Kind,
}

#[expect(clippy::trivially_copy_pass_by_ref)]
fn resource_name<S: serde::Serializer>(r: &Resource, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(r.name())
}

/// Everything that differs between two snapshots, ordered by resource (as
/// [`Resource::ALL`] lists them) and record id.
#[derive(Debug, Clone, PartialEq)]
pub struct Diff {
    pub from: Snapshot,
    pub to: Snapshot,
    pub changes: Vec<Change>,
}

impl Diff {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    /// How many records were added, removed and changed.
    pub fn tally(&self) -> Tally {
        let mut tally = Tally {
            from: self.from.id,
            ..Tally::default()
        };
        for change in &self.changes {
            match change.kind {
                Kind::Added => tally.added += 1,
                Kind::Removed => tally.removed += 1,
                Kind::Changed { .. } => tally.changed += 1,
            }
        }
        tally
    }

    /// The lines people read: `nexus US-GA Status: APPROACHING → EXPOSED`, one a changed
    /// field, `customer cus_9 (Acme) added`.
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        for change in &self.changes {
            let who = format!("{} {}", noun(change.resource), change.label);
            match &change.kind {
                Kind::Added => out.push(format!("{who} added")),
                Kind::Removed => out.push(format!("{who} removed")),
                Kind::Changed { fields } => {
                    for f in fields {
                        out.push(format!("{who} {f}"));
                    }
                }
            }
        }
        out
    }

    /// The JSON of `--format json`: both snapshots and the changes.
    pub fn to_json(&self) -> Value {
        let run = |s: &Snapshot| {
            serde_json::json!({
                "id": s.id,
                "taken": s.taken.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                "profile": s.scope.profile,
                "organization": s.scope.organization,
                "records": s.records,
            })
        };
        serde_json::json!({
            "from": run(&self.from),
            "to": run(&self.to),
            "changes": self.changes,
        })
    }
}

/// One changed field as people read it, on every screen and in `taxdash diff`'s text: the field
/// in words, then the values (`End date: none → 2026-12-31`, `Address › city: Austin → Dallas`).
/// The JSON keeps the wire names.
impl fmt::Display for FieldChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} → {}",
            field_words(&self.path),
            shown(self.old.as_ref()),
            shown(self.new.as_ref())
        )
    }
}

/// A field's dotted wire path in words: `end_date` reads `End date`, `address.city` reads
/// `Address › city`, an item of a list its number from 1 (`Transaction items 1 › amount`).
pub fn field_words(path: &str) -> String {
    let mut out = String::new();
    for (k, part) in path.split('.').enumerate() {
        if let Ok(index) = part.parse::<usize>() {
            out.push(' ');
            out.push_str(&(index + 1).to_string());
            continue;
        }
        if k > 0 {
            out.push_str(" › ");
        }
        let words = crate::model::format::code_words(part);
        out.push_str(&if k == 0 { words } else { words.to_lowercase() });
    }
    out
}

/// A value as a person reads it: strings bare, `null` as `none`, `true` and `false` as `yes` and
/// `no`, absent as `(absent)`.
pub fn shown(value: Option<&Value>) -> String {
    match value {
        None => "(absent)".to_owned(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) => "none".to_owned(),
        Some(Value::Bool(flag)) => crate::model::format::yes_no(*flag).to_owned(),
        Some(other) => other.to_string(),
    }
}

/// The word for one record of `resource`: `nexus`, `exemption`.
pub fn noun(resource: Resource) -> &'static str {
    match resource {
        Resource::Registrations => "registration",
        Resource::PhysicalNexus => "physical-nexus",
        Resource::Nexus => "nexus",
        Resource::Exemptions => "exemption",
        Resource::Customers => "customer",
        Resource::Transactions => "transaction",
        Resource::Filings => "filing",
        Resource::Products => "product",
    }
}

/// A record's name for people, from its body (see the module's notes).
pub fn label(resource: Resource, id: &str, body: &Value) -> String {
    let text = |key: &str| {
        body.get(key)
            .and_then(Value::as_str)
            .filter(|s| !s.trim().is_empty())
    };
    let jurisdiction = || match (text("country_code"), text("state_code")) {
        (Some(c), Some(s)) => Some(format!("{c}-{s}")),
        (Some(c), None) => Some(c.to_owned()),
        (None, Some(s)) => Some(s.to_owned()),
        (None, None) => None,
    };
    let with = |extra: Option<String>| match extra {
        Some(extra) => format!("{id} ({extra})"),
        None => id.to_owned(),
    };
    match resource {
        Resource::Nexus => jurisdiction().unwrap_or_else(|| id.to_owned()),
        Resource::Registrations | Resource::PhysicalNexus | Resource::Filings => {
            with(jurisdiction())
        }
        Resource::Customers | Resource::Products => with(text("name").map(str::to_owned)),
        Resource::Transactions => with(text("external_id").map(str::to_owned)),
        Resource::Exemptions => id.to_owned(),
    }
}

/// The leaves of `value`, each under its dotted path from `prefix`.
pub fn flatten(value: &Value, prefix: &str, out: &mut BTreeMap<String, Value>) {
    let join = |key: &str| {
        if prefix.is_empty() {
            key.to_owned()
        } else {
            format!("{prefix}.{key}")
        }
    };
    match value {
        Value::Object(map) if !map.is_empty() => {
            for (k, v) in map {
                flatten(v, &join(k), out);
            }
        }
        Value::Array(items) if !items.is_empty() => {
            for (i, v) in items.iter().enumerate() {
                flatten(v, &join(&i.to_string()), out);
            }
        }
        leaf => {
            out.insert(prefix.to_owned(), leaf.clone());
        }
    }
}

/// The fields that differ between two bodies, by path.
pub fn field_changes(old: &Value, new: &Value) -> Vec<FieldChange> {
    let (mut a, mut b) = (BTreeMap::new(), BTreeMap::new());
    flatten(old, "", &mut a);
    flatten(new, "", &mut b);
    let mut out = Vec::new();
    for (path, old) in &a {
        match b.get(path) {
            Some(new) if new == old => {}
            new => out.push(FieldChange {
                path: path.clone(),
                old: Some(old.clone()),
                new: new.cloned(),
            }),
        }
    }
    for (path, new) in b {
        if !a.contains_key(&path) {
            out.push(FieldChange {
                path,
                old: None,
                new: Some(new),
            });
        }
    }
    out.sort_by(|x, y| x.path.cmp(&y.path));
    out
}

fn parse(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|_| Value::String(body.to_owned()))
}

impl History {
    /// What changed from snapshot `from` to snapshot `to`. `None` when either is not stored.
    pub fn diff(&self, from: i64, to: i64) -> Result<Option<Diff>, HistoryError> {
        let (Some(older), Some(newer)) = (self.snapshot(from)?, self.snapshot(to)?) else {
            return Ok(None);
        };
        let pair = [Param::Int(from), Param::Int(to)];
        let mut rows: Vec<(String, String, Option<String>, Option<String>)> = self
            .rows(
                "SELECT d.resource, d.record_id, \
                     (SELECT body FROM snapshot_bodies WHERE hash = d.old), \
                     (SELECT body FROM snapshot_bodies WHERE hash = d.new) \
                 FROM (SELECT a.resource, a.record_id, a.hash AS old, b.hash AS new \
                     FROM snapshot_records a \
                     LEFT JOIN snapshot_records b ON b.snapshot = ?2 \
                         AND b.resource = a.resource AND b.record_id = a.record_id \
                     WHERE a.snapshot = ?1 AND (b.hash IS NULL OR b.hash <> a.hash)) d",
                &pair,
            )?
            .into_iter()
            .map(|mut r| (r.text(0), r.text(1), r.take_body(2), r.take_body(3)))
            .collect();
        rows.extend(
            self.rows(
                "SELECT d.resource, d.record_id, \
                     (SELECT body FROM snapshot_bodies WHERE hash = d.new) \
                 FROM (SELECT b.resource, b.record_id, b.hash AS new FROM snapshot_records b \
                     WHERE b.snapshot = ?2 AND NOT EXISTS (SELECT 1 FROM snapshot_records a \
                         WHERE a.snapshot = ?1 AND a.resource = b.resource \
                         AND a.record_id = b.record_id)) d",
                &pair,
            )?
            .into_iter()
            .map(|mut r| (r.text(0), r.text(1), None, r.take_body(2))),
        );
        let mut changes: Vec<Change> = rows
            .into_iter()
            .filter_map(|(resource, id, old, new)| {
                let resource = resource_named(&resource)?;
                let old = old.as_deref().map(parse);
                let new = new.as_deref().map(parse);
                let (kind, named) = match (&old, &new) {
                    (Some(o), Some(n)) => (
                        Kind::Changed {
                            fields: field_changes(o, n),
                        },
                        n,
                    ),
                    (Some(o), None) => (Kind::Removed, o),
                    (None, Some(n)) => (Kind::Added, n),
                    (None, None) => return None,
                };
                Some(Change {
                    label: label(resource, &id, named),
                    resource,
                    id,
                    kind,
                })
            })
            .filter(|c| !matches!(&c.kind, Kind::Changed { fields } if fields.is_empty()))
            .collect();
        let order = |r: Resource| Resource::ALL.iter().position(|x| *x == r);
        changes.sort_by(|a, b| (order(a.resource), &a.id).cmp(&(order(b.resource), &b.id)));
        Ok(Some(Diff {
            from: older,
            to: newer,
            changes,
        }))
    }

    /// The ids of the records of `resource` that differ between the two latest snapshots of
    /// `scope` (added or changed in the latest): what the lists mark as changed. Empty with
    /// fewer than two snapshots. Compares hashes only.
    pub fn changed_since_previous(
        &self,
        scope: (&str, &str),
        resource: Resource,
    ) -> Result<Vec<String>, HistoryError> {
        let runs = self.snapshots(Some(scope))?;
        let [latest, previous, ..] = runs.as_slice() else {
            return Ok(Vec::new());
        };
        Ok(self
            .rows(
                "SELECT b.record_id FROM snapshot_records b \
                 LEFT JOIN snapshot_records a ON a.snapshot = ?1 AND a.resource = b.resource \
                      AND a.record_id = b.record_id \
                 WHERE b.snapshot = ?2 AND b.resource = ?3 \
                 AND (a.hash IS NULL OR a.hash <> b.hash) ORDER BY b.record_id",
                &[
                    Param::Int(previous.id),
                    Param::Int(latest.id),
                    Param::Text(resource.name()),
                ],
            )?
            .iter()
            .map(|r| r.text(0))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use crate::history::on_both_stores;

    use chrono::{DateTime, NaiveDate, Utc};
    use serde_json::json;

    use super::super::snapshot::{Record, Scope};
    use super::*;

    fn scope() -> Scope {
        Scope {
            profile: "work".into(),
            organization: "org_1".into(),
            api: "v1".into(),
            transactions: None,
        }
    }

    fn at(day: u32) -> DateTime<Utc> {
        NaiveDate::from_ymd_opt(2026, 11, day)
            .unwrap()
            .and_hms_opt(9, 0, 0)
            .unwrap()
            .and_utc()
    }

    fn rec(resource: Resource, id: &str, body: &Value) -> Record {
        Record {
            resource,
            id: id.into(),
            body: body.to_string(),
        }
    }

    #[test]
    fn nested_fields_are_dotted_paths_and_arrays_go_by_index() {
        let old = json!({"a": {"b": 1, "c": [1, 2]}, "gone": "x", "same": true, "e": {}});
        let new = json!({"a": {"b": 2, "c": [1, 3, 4]}, "new": null, "same": true, "e": {}});
        let changes = field_changes(&old, &new);
        let paths: Vec<&str> = changes.iter().map(|c| c.path.as_str()).collect();
        assert_eq!(paths, ["a.b", "a.c.1", "a.c.2", "gone", "new"]);
        // People read each in words, an item of a list by its number from 1.
        let shown: Vec<String> = changes.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "A › b: 1 → 2",
                "A › c 2: 2 → 3",
                "A › c 3: (absent) → 4",
                "Gone: x → (absent)",
                "New: (absent) → none",
            ]
        );
    }

    on_both_stores! {
    fn a_diff_lists_added_removed_and_changed_records_with_labels(h: History) {
        let ga = |status: &str| json!({"id": "nex_1", "country_code": "US", "state_code": "GA", "status": status});
        let first = vec![
            rec(Resource::Nexus, "nex_1", &ga("APPROACHING")),
            rec(
                Resource::Exemptions,
                "exmp_1",
                &json!({"id": "exmp_1", "status": "ACTIVE"}),
            ),
            rec(
                Resource::Customers,
                "cus_1",
                &json!({"id": "cus_1", "name": "Acme"}),
            ),
            rec(
                Resource::Customers,
                "cus_2",
                &json!({"id": "cus_2", "name": "Same"}),
            ),
        ];
        let a = h.write_snapshot(&scope(), at(1), &first).unwrap();
        let second = vec![
            rec(Resource::Nexus, "nex_1", &ga("EXPOSED")),
            rec(
                Resource::Exemptions,
                "exmp_1",
                &json!({"id": "exmp_1", "status": "EXPIRED"}),
            ),
            rec(
                Resource::Customers,
                "cus_2",
                &json!({"id": "cus_2", "name": "Same"}),
            ),
            rec(
                Resource::Customers,
                "cus_3",
                &json!({"id": "cus_3", "name": "New Co"}),
            ),
        ];
        let b = h.write_snapshot(&scope(), at(2), &second).unwrap();
        let diff = h.diff(a, b).unwrap().unwrap();
        assert_eq!(
            diff.lines(),
            [
                "nexus US-GA Status: APPROACHING → EXPOSED",
                "exemption exmp_1 Status: ACTIVE → EXPIRED",
                "customer cus_1 (Acme) removed",
                "customer cus_3 (New Co) added",
            ]
        );
        let json = diff.to_json();
        assert_eq!(json["changes"][0]["change"], "changed");
        assert_eq!(json["changes"][0]["resource"], "nexus");
        assert_eq!(json["changes"][0]["fields"][0]["old"], "APPROACHING");
        assert_eq!(json["changes"][3]["change"], "added");
        assert!(h.diff(a, a).unwrap().unwrap().is_empty());
        assert!(h.diff(a, 99).unwrap().is_none());

        let marked = h
            .changed_since_previous(("work", "org_1"), Resource::Customers)
            .unwrap();
        assert_eq!(marked, ["cus_3"]);
    }
    }
}
