//! Tenanted answers written straight from the records: [`Tenanted`] serializes any v1 value
//! (a record, a page of records, a `serde_json::Value`) in its Tenanted form for a release,
//! renaming keys and fixing number forms as it goes, so a page is serialized once with no JSON
//! tree in between.
//!
//! The rules (the same for every record type, so a field added to a v1 record reaches the
//! Tenanted answer without a change here):
//! - keys in camelCase; from 2026-10-06 `country` is `countryCode`;
//! - the value of a key [`kind_of`] names an amount is a decimal string at scale 2, of a rate at
//!   scale 9, of a timestamp RFC 3339 in UTC ending in `Z`; other values are written as they are;
//!   numbers and dates inside lists are left alone, objects inside them follow the same rules;
//! - the values of the [`OPAQUE`] keys (documents of their own) are written untouched;
//! - a country-level filing (a record with `date_filed` and no `state_code`) has `stateCode` and
//!   `stateName` `""` before 2026-10-06, null from it; a blank `product_name` is null before
//!   2026-10-06 and `""` from it.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Display;
use std::hash::BuildHasherDefault;

use rust_decimal::Decimal;
use serde::ser::{
    self, Error as _, Impossible, Serialize, SerializeMap, SerializeSeq, SerializeStruct,
    SerializeStructVariant, SerializeTuple, SerializeTupleStruct, SerializeTupleVariant,
    Serializer,
};
use serde_json::{Map, Value};

use super::wire::at_scale;
use crate::model::Timestamp;
use crate::model::casing::snake_to_camel;
use crate::model::tenanted::ApiVersion;

/// `value` in its Tenanted form for `version`, ready to serialize.
pub(crate) struct Tenanted<'a, T: ?Sized> {
    version: ApiVersion,
    value: &'a T,
}

impl<'a, T: ?Sized> Tenanted<'a, T> {
    pub(crate) fn new(version: ApiVersion, value: &'a T) -> Self {
        Tenanted { version, value }
    }
}

impl<T: Serialize + ?Sized> Serialize for Tenanted<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(Writer {
            inner: serializer,
            latest: self.version.is_latest_shape(),
            kind: Kind::Other,
        })
    }
}

/// The amounts of the v1 records (every `Decimal` field that is neither a rate nor a quantity),
/// plus those of the Tenanted-only records; sorted, for the binary search.
const MONEY_KEYS: &[&str] = &[
    "amount",
    "amount_adjusted",
    "amount_calculated",
    "amount_discounts",
    "amount_fees",
    "amount_penalties",
    "amount_sales",
    "amount_tax_collected",
    "calculated_tax_liability",
    "converted_amount",
    "converted_final_total_amount",
    "converted_subtotal",
    "converted_tax_amount_calculated",
    "converted_tax_amount_imported",
    "converted_taxable_amount",
    "converted_total_amount",
    "converted_total_discount",
    "converted_total_recoverable_input_vat",
    "converted_total_tax_amount_calculated",
    "converted_total_tax_amount_imported",
    "converted_total_tax_liability_amount",
    "credits_total_available",
    "discount_amount",
    "estimated_liability",
    "final_total_amount",
    "imported_tax_liability",
    "previous_transactions_amount",
    "sales_amount",
    "subtotal",
    "tax_amount",
    "tax_amount_calculated",
    "tax_amount_imported",
    "tax_liability",
    "taxable_amount",
    "threshold_sales",
    "total_amount",
    "total_discount",
    "total_recoverable_input_vat",
    "total_tax_amount_calculated",
    "total_tax_amount_imported",
    "total_tax_liability",
    "total_tax_liability_amount",
    "total_taxable_sales",
    "transactions_amount",
];

/// The timestamps of the v1 records (besides every name ending in `_at`). `YYYY-MM-DD` dates are
/// left as they are.
const TIMESTAMP_KEYS: &[&str] = &[
    "date",
    "date_filed",
    "registration_requested",
    "registration_completed",
    "deregistration_requested",
    "deregistration_completed",
];

/// Keys whose values are documents of their own, carried as they are.
const OPAQUE: &[&str] = &["jurisdiction_fields_json_schema", "metadata"];

/// What kind of value a v1 key holds; `Other` also for list items and the answer as a whole.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    Money,
    Rate,
    Timestamp,
    Other,
}

/// The kind of the value of the v1 key `key`: a rate when one of its words is `rate`, an amount
/// when it is one of [`MONEY_KEYS`], a timestamp when it is one of [`TIMESTAMP_KEYS`] or ends in
/// `_at`.
pub(crate) fn kind_of(key: &str) -> Kind {
    if key.split('_').any(|part| part == "rate") {
        Kind::Rate
    } else if MONEY_KEYS.binary_search(&key).is_ok() {
        Kind::Money
    } else if TIMESTAMP_KEYS.contains(&key) || key.ends_with("_at") {
        Kind::Timestamp
    } else {
        Kind::Other
    }
}

/// `key` in camelCase, borrowed when it has nothing to change.
fn camel(key: &str) -> Cow<'_, str> {
    if key.contains('_') {
        Cow::Owned(snake_to_camel(key))
    } else {
        Cow::Borrowed(key)
    }
}

/// A plain decimal of at most `scale` places (`12`, `12.5`, `-0.25`, not `007`, `-0`, `1e3`),
/// which the fixed form only pads with zeros.
fn pads_to_scale(s: &str, scale: usize) -> bool {
    let unsigned = s.strip_prefix('-').unwrap_or(s);
    let (int, frac) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    // Short enough for any decimal at the scale.
    let plain = !int.is_empty()
        && int.len() + scale <= 18
        && digits(int)
        && digits(frac)
        && frac.len() <= scale
        && (int == "0" || !int.starts_with('0'))
        && (!unsigned.contains('.') || !frac.is_empty());
    // A negative zero would lose its sign in the fixed form: not plain.
    plain && (unsigned.len() == s.len() || unsigned.bytes().any(|b| (b'1'..=b'9').contains(&b)))
}

/// `s` as a decimal string at `scale` places, or `None` when it is not a number.
fn fixed(s: &str, scale: u32) -> Option<Cow<'_, str>> {
    let s = s.trim();
    if pads_to_scale(s, scale as usize) {
        let frac = s.split_once('.').map_or(0, |(_, f)| f.len());
        if frac == scale as usize {
            return Some(Cow::Borrowed(s));
        }
        let mut out = String::with_capacity(s.len() + scale as usize + 1);
        out.push_str(s);
        if frac == 0 {
            out.push('.');
        }
        out.extend(std::iter::repeat_n('0', scale as usize - frac));
        return Some(Cow::Owned(out));
    }
    let d: Decimal = s.parse().ok()?;
    Some(Cow::Owned(at_scale(d, scale).to_string()))
}

/// Whether `s` is already a timestamp as the Tenanted API writes it (RFC 3339 in UTC ending in
/// `Z`, with 0, 3, 6 or 9 fraction digits, the fewest that keep the value).
fn canonical_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let shape = b"dddd-dd-ddTdd:dd:dd";
    if b.len() < shape.len() + 1 || b[b.len() - 1] != b'Z' {
        return false;
    }
    let head_ok = shape.iter().zip(b).all(|(&want, &got)| match want {
        b'd' => got.is_ascii_digit(),
        other => other == got,
    });
    let frac = &b[shape.len()..b.len() - 1];
    let frac_ok = match frac {
        [] => true,
        [b'.', digits @ ..] if matches!(digits.len(), 3 | 6 | 9) => {
            digits.iter().all(u8::is_ascii_digit) && !digits.ends_with(b"000")
        }
        _ => false,
    };
    head_ok && frac_ok
}

/// A scalar text of kind `kind` in its Tenanted form; text that is not a number or a date-time
/// is kept.
fn text_of(kind: Kind, s: &str) -> Cow<'_, str> {
    match kind {
        Kind::Money => fixed(s, 2).unwrap_or(Cow::Borrowed(s)),
        Kind::Rate => fixed(s, 9).unwrap_or(Cow::Borrowed(s)),
        Kind::Timestamp if s.contains('T') && !canonical_timestamp(s) => {
            Timestamp::parse(s).map_or(Cow::Borrowed(s), |t| Cow::Owned(t.to_string()))
        }
        Kind::Timestamp | Kind::Other => Cow::Borrowed(s),
    }
}

/// The value of a blank state of a country-level filing, or of a blank product name, in a
/// release: `None` for null.
fn blank(latest: bool, null_in_latest: bool) -> Option<&'static str> {
    (latest != null_in_latest).then_some("")
}

/// What a key's value takes part in besides its kind.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Role {
    Plain,
    /// A document of its own, written untouched.
    Opaque,
    /// `country`, renamed `countryCode` from 2026-10-06.
    Country,
    /// `date_filed`: the object is a filing.
    DateFiled,
    StateCode,
    StateName,
    ProductName,
}

/// The camelCase name, kind and role of the v1 key `key`.
fn describe(key: &str) -> (Cow<'_, str>, Kind, Role) {
    let role = match key {
        "country" => Role::Country,
        "date_filed" => Role::DateFiled,
        "state_code" => Role::StateCode,
        "state_name" => Role::StateName,
        "product_name" => Role::ProductName,
        _ if OPAQUE.contains(&key) => Role::Opaque,
        _ => Role::Plain,
    };
    (camel(key), kind_of(key), role)
}

/// What [`describe`] says of a record's field name.
#[derive(Clone, Copy)]
struct FieldName {
    camel: &'static str,
    kind: Kind,
    role: Role,
}

/// A hasher for the address and length of a field name.
#[derive(Default)]
struct AddressHasher(u64);

impl std::hash::Hasher for AddressHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type FieldNames = HashMap<(usize, usize), FieldName, BuildHasherDefault<AddressHasher>>;

thread_local! {
    /// The field names of the records, described once per thread. Field names are the
    /// program's own constants, so the table stays small.
    static FIELD_NAMES: RefCell<FieldNames> = RefCell::default();
}

/// [`describe`] of a record's field name, from the table.
fn field_name(key: &'static str) -> FieldName {
    FIELD_NAMES.with(|names| {
        *names
            .borrow_mut()
            .entry((key.as_ptr() as usize, key.len()))
            .or_insert_with(|| {
                let (camel, kind, role) = describe(key);
                let camel = match camel {
                    Cow::Borrowed(same) => same,
                    Cow::Owned(renamed) => Box::leak(renamed.into_boxed_str()),
                };
                FieldName { camel, kind, role }
            })
    })
}

/// Serializes a value of kind `kind` in its Tenanted form into `inner`.
struct Writer<S> {
    inner: S,
    latest: bool,
    kind: Kind,
}

/// A value to write with the rules, of kind `kind`.
struct Field<'a, T: ?Sized> {
    value: &'a T,
    latest: bool,
    kind: Kind,
}

impl<T: Serialize + ?Sized> Serialize for Field<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(Writer {
            inner: serializer,
            latest: self.latest,
            kind: self.kind,
        })
    }
}

impl<S: Serializer> Writer<S> {
    /// A number: raw, or as a decimal string at the scale of an amount or a rate.
    fn number(
        self,
        text: impl FnOnce() -> Option<String>,
        raw: impl FnOnce(S) -> Result<S::Ok, S::Error>,
    ) -> Result<S::Ok, S::Error> {
        let scale = match self.kind {
            Kind::Money => 2,
            Kind::Rate => 9,
            Kind::Timestamp | Kind::Other => return raw(self.inner),
        };
        let Some(text) = text() else {
            return raw(self.inner);
        };
        match fixed(&text, scale) {
            Some(t) => self.inner.serialize_str(&t),
            None => raw(self.inner),
        }
    }

    fn map(self) -> Result<MapWriter<S::SerializeMap>, S::Error> {
        Ok(MapWriter {
            inner: self.inner.serialize_map(None)?,
            latest: self.latest,
            key: None,
            filing: false,
            state_code: None,
            state_name: false,
        })
    }
}

impl<S: Serializer> Serializer for Writer<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = SeqWriter<S::SerializeSeq>;
    type SerializeTuple = SeqWriter<S::SerializeSeq>;
    type SerializeTupleStruct = SeqWriter<S::SerializeSeq>;
    type SerializeTupleVariant = VariantWriter<S::SerializeMap>;
    type SerializeMap = MapWriter<S::SerializeMap>;
    type SerializeStruct = MapWriter<S::SerializeMap>;
    type SerializeStructVariant = VariantWriter<S::SerializeMap>;

    fn serialize_bool(self, v: bool) -> Result<S::Ok, S::Error> {
        self.inner.serialize_bool(v)
    }
    fn serialize_i8(self, v: i8) -> Result<S::Ok, S::Error> {
        self.serialize_i64(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<S::Ok, S::Error> {
        self.serialize_i64(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<S::Ok, S::Error> {
        self.serialize_i64(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<S::Ok, S::Error> {
        self.number(|| Some(v.to_string()), |s| s.serialize_i64(v))
    }
    fn serialize_i128(self, v: i128) -> Result<S::Ok, S::Error> {
        self.number(|| Some(v.to_string()), |s| s.serialize_i128(v))
    }
    fn serialize_u8(self, v: u8) -> Result<S::Ok, S::Error> {
        self.serialize_u64(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<S::Ok, S::Error> {
        self.serialize_u64(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<S::Ok, S::Error> {
        self.serialize_u64(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<S::Ok, S::Error> {
        self.number(|| Some(v.to_string()), |s| s.serialize_u64(v))
    }
    fn serialize_u128(self, v: u128) -> Result<S::Ok, S::Error> {
        self.number(|| Some(v.to_string()), |s| s.serialize_u128(v))
    }
    fn serialize_f32(self, v: f32) -> Result<S::Ok, S::Error> {
        self.number(|| Some(v.to_string()), |s| s.serialize_f32(v))
    }
    fn serialize_f64(self, v: f64) -> Result<S::Ok, S::Error> {
        // The text JSON writes for it, as a number read back from the v1 answer would be.
        self.number(
            || serde_json::Number::from_f64(v).map(|n| n.to_string()),
            |s| s.serialize_f64(v),
        )
    }
    fn serialize_char(self, v: char) -> Result<S::Ok, S::Error> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<S::Ok, S::Error> {
        self.inner.serialize_str(&text_of(self.kind, v))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<S::Ok, S::Error> {
        self.inner.serialize_bytes(v)
    }
    fn serialize_none(self) -> Result<S::Ok, S::Error> {
        self.inner.serialize_none()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<S::Ok, S::Error> {
        self.inner.serialize_unit()
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<S::Ok, S::Error> {
        self.inner.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<S::Ok, S::Error> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        let mut map = self.map()?;
        map.entry(variant, value)?;
        SerializeMap::end(map)
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        Ok(SeqWriter {
            inner: self.inner.serialize_seq(None)?,
            latest: self.latest,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, S::Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        Ok(VariantWriter {
            map: self.map()?,
            variant,
            items: Vec::new(),
            fields: Map::new(),
        })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        self.map()
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        self.map()
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        self.serialize_tuple_variant("", 0, variant, 0)
    }
    fn collect_str<T: Display + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        self.serialize_str(&value.to_string())
    }
}

/// A list: its items are written with the rules, as values of no key.
struct SeqWriter<M> {
    inner: M,
    latest: bool,
}

impl<M: SerializeSeq> SerializeSeq for SeqWriter<M> {
    type Ok = M::Ok;
    type Error = M::Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), M::Error> {
        self.inner.serialize_element(&Field {
            value,
            latest: self.latest,
            kind: Kind::Other,
        })
    }
    fn end(self) -> Result<M::Ok, M::Error> {
        self.inner.end()
    }
}

impl<M: SerializeSeq> SerializeTuple for SeqWriter<M> {
    type Ok = M::Ok;
    type Error = M::Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), M::Error> {
        SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<M::Ok, M::Error> {
        SerializeSeq::end(self)
    }
}

impl<M: SerializeSeq> SerializeTupleStruct for SeqWriter<M> {
    type Ok = M::Ok;
    type Error = M::Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), M::Error> {
        SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<M::Ok, M::Error> {
        SerializeSeq::end(self)
    }
}

/// An object: each key renamed, each value written by the kind of its key. It remembers what the
/// filing rule needs (`date_filed` comes before the state fields, in a filing record and in a
/// JSON object, whose keys are in order).
struct MapWriter<M> {
    inner: M,
    latest: bool,
    /// The key of the value about to be written, for `serialize_key` then `serialize_value`.
    key: Option<String>,
    /// A `date_filed` key was written: a filing.
    filing: bool,
    /// Whether the filing's `state_code` was blank, once written.
    state_code: Option<bool>,
    state_name: bool,
}

impl<M: SerializeMap> MapWriter<M> {
    fn write_blank(&mut self, name: &str, null_in_latest: bool) -> Result<(), M::Error> {
        self.inner
            .serialize_entry(name, &blank(self.latest, null_in_latest))
    }

    /// Writes the value of the v1 key `key`.
    fn entry<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), M::Error> {
        let (camel, kind, role) = describe(key);
        self.named(&camel, kind, role, value)
    }

    /// Writes the value of a record's field, whose name is looked up once.
    fn field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), M::Error> {
        let name = field_name(key);
        self.named(name.camel, name.kind, name.role, value)
    }

    fn named<T: Serialize + ?Sized>(
        &mut self,
        camel: &str,
        kind: Kind,
        role: Role,
        value: &T,
    ) -> Result<(), M::Error> {
        match role {
            Role::Country if self.latest => {
                return self.inner.serialize_entry("countryCode", value);
            }
            Role::DateFiled => self.filing = true,
            Role::StateCode if self.filing => {
                let empty = is_blank(value);
                self.state_code = Some(empty);
                if empty {
                    return self.write_blank(camel, true);
                }
            }
            Role::StateName if self.filing => {
                self.state_name = true;
                if self.state_code == Some(true) {
                    return self.write_blank(camel, true);
                }
            }
            Role::ProductName if is_blank(value) => return self.write_blank(camel, false),
            Role::Opaque => return self.inner.serialize_entry(camel, value),
            _ => {}
        }
        self.inner.serialize_entry(
            camel,
            &Field {
                value,
                latest: self.latest,
                kind,
            },
        )
    }

    fn finish(mut self) -> Result<M::Ok, M::Error> {
        // A filing with no state code at all has the blank state of its release.
        if self.filing && self.state_code.is_none() {
            self.write_blank("stateCode", true)?;
            if !self.state_name {
                self.write_blank("stateName", true)?;
            }
        }
        self.inner.end()
    }
}

impl<M: SerializeMap> SerializeMap for MapWriter<M> {
    type Ok = M::Ok;
    type Error = M::Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), M::Error> {
        self.key = Some(key.serialize(KeyText).map_err(M::Error::custom)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), M::Error> {
        let key = self
            .key
            .take()
            .ok_or_else(|| M::Error::custom("a map value was written before its key"))?;
        self.entry(&key, value)
    }
    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<(), M::Error> {
        let key = key.serialize(KeyText).map_err(M::Error::custom)?;
        self.entry(&key, value)
    }
    fn end(self) -> Result<M::Ok, M::Error> {
        self.finish()
    }
}

impl<M: SerializeMap> SerializeStruct for MapWriter<M> {
    type Ok = M::Ok;
    type Error = M::Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), M::Error> {
        self.field(key, value)
    }
    fn end(self) -> Result<M::Ok, M::Error> {
        self.finish()
    }
}

/// An enum variant with fields, `{variant: [..]}` or `{variant: {..}}`: its fields are gathered
/// as written by v1, then written with the rules. No record has one; they are written as a v1
/// answer read back would be.
struct VariantWriter<M> {
    map: MapWriter<M>,
    variant: &'static str,
    items: Vec<Value>,
    fields: Map<String, Value>,
}

impl<M: SerializeMap> VariantWriter<M> {
    fn finish(mut self, value: &Value) -> Result<M::Ok, M::Error> {
        self.map.entry(self.variant, value)?;
        self.map.finish()
    }
}

impl<M: SerializeMap> SerializeTupleVariant for VariantWriter<M> {
    type Ok = M::Ok;
    type Error = M::Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), M::Error> {
        self.items
            .push(serde_json::to_value(value).map_err(M::Error::custom)?);
        Ok(())
    }
    fn end(mut self) -> Result<M::Ok, M::Error> {
        let items = Value::Array(std::mem::take(&mut self.items));
        self.finish(&items)
    }
}

impl<M: SerializeMap> SerializeStructVariant for VariantWriter<M> {
    type Ok = M::Ok;
    type Error = M::Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), M::Error> {
        self.fields.insert(
            key.to_owned(),
            serde_json::to_value(value).map_err(M::Error::custom)?,
        );
        Ok(())
    }
    fn end(mut self) -> Result<M::Ok, M::Error> {
        let fields = Value::Object(std::mem::take(&mut self.fields));
        self.finish(&fields)
    }
}

/// Whether a value is null or `""` (a blank state or product name).
fn is_blank<T: Serialize + ?Sized>(value: &T) -> bool {
    value.serialize(Blank).unwrap_or(false)
}

/// Not a scalar: not blank.
#[derive(Debug)]
struct NotScalar;

impl Display for NotScalar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not a scalar")
    }
}

impl std::error::Error for NotScalar {}

impl ser::Error for NotScalar {
    fn custom<T: Display>(_msg: T) -> Self {
        NotScalar
    }
}

/// Tells a blank value (null, `""`) from any other.
struct Blank;

macro_rules! not_blank {
    ($($method:ident: $ty:ty),*) => {
        $(fn $method(self, _v: $ty) -> Result<bool, NotScalar> {
            Ok(false)
        })*
    };
}

impl Serializer for Blank {
    type Ok = bool;
    type Error = NotScalar;
    type SerializeSeq = Impossible<bool, NotScalar>;
    type SerializeTuple = Impossible<bool, NotScalar>;
    type SerializeTupleStruct = Impossible<bool, NotScalar>;
    type SerializeTupleVariant = Impossible<bool, NotScalar>;
    type SerializeMap = Impossible<bool, NotScalar>;
    type SerializeStruct = Impossible<bool, NotScalar>;
    type SerializeStructVariant = Impossible<bool, NotScalar>;

    not_blank!(serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
        serialize_i64: i64, serialize_u8: u8, serialize_u16: u16, serialize_u32: u32,
        serialize_u64: u64, serialize_f32: f32, serialize_f64: f64, serialize_char: char,
        serialize_bytes: &[u8]);

    fn serialize_str(self, v: &str) -> Result<bool, NotScalar> {
        Ok(v.is_empty())
    }
    fn serialize_none(self) -> Result<bool, NotScalar> {
        Ok(true)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<bool, NotScalar> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<bool, NotScalar> {
        Ok(true)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<bool, NotScalar> {
        Ok(true)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<bool, NotScalar> {
        Ok(variant.is_empty())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<bool, NotScalar> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<bool, NotScalar> {
        Err(NotScalar)
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, NotScalar> {
        Err(NotScalar)
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, NotScalar> {
        Err(NotScalar)
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, NotScalar> {
        Err(NotScalar)
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, NotScalar> {
        Err(NotScalar)
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, NotScalar> {
        Err(NotScalar)
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, NotScalar> {
        Err(NotScalar)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, NotScalar> {
        Err(NotScalar)
    }
}

/// The text of a map key, as JSON writes it (strings, and numbers or booleans as text).
struct KeyText;

macro_rules! key_as_text {
    ($($method:ident: $ty:ty),*) => {
        $(fn $method(self, v: $ty) -> Result<String, NotScalar> {
            Ok(v.to_string())
        })*
    };
}

impl Serializer for KeyText {
    type Ok = String;
    type Error = NotScalar;
    type SerializeSeq = Impossible<String, NotScalar>;
    type SerializeTuple = Impossible<String, NotScalar>;
    type SerializeTupleStruct = Impossible<String, NotScalar>;
    type SerializeTupleVariant = Impossible<String, NotScalar>;
    type SerializeMap = Impossible<String, NotScalar>;
    type SerializeStruct = Impossible<String, NotScalar>;
    type SerializeStructVariant = Impossible<String, NotScalar>;

    key_as_text!(serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
        serialize_i64: i64, serialize_u8: u8, serialize_u16: u16, serialize_u32: u32,
        serialize_u64: u64, serialize_char: char, serialize_str: &str);

    fn serialize_f32(self, _v: f32) -> Result<String, NotScalar> {
        Err(NotScalar)
    }
    fn serialize_f64(self, _v: f64) -> Result<String, NotScalar> {
        Err(NotScalar)
    }
    fn serialize_bytes(self, _v: &[u8]) -> Result<String, NotScalar> {
        Err(NotScalar)
    }
    fn serialize_none(self) -> Result<String, NotScalar> {
        Err(NotScalar)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result<String, NotScalar> {
        Err(NotScalar)
    }
    fn serialize_unit(self) -> Result<String, NotScalar> {
        Err(NotScalar)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<String, NotScalar> {
        Err(NotScalar)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<String, NotScalar> {
        Ok(variant.to_owned())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<String, NotScalar> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<String, NotScalar> {
        Err(NotScalar)
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, NotScalar> {
        Err(NotScalar)
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, NotScalar> {
        Err(NotScalar)
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, NotScalar> {
        Err(NotScalar)
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, NotScalar> {
        Err(NotScalar)
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, NotScalar> {
        Err(NotScalar)
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, NotScalar> {
        Err(NotScalar)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, NotScalar> {
        Err(NotScalar)
    }
}

#[cfg(test)]
mod tests {
    use chrono::{TimeZone, Utc};
    use serde::Serialize;
    use serde_json::json;

    use super::*;
    use crate::sandbox::tenanted::wire::to_tenanted;

    const OLD: ApiVersion = ApiVersion::DEFAULT;
    const NEW: ApiVersion = ApiVersion::LATEST;

    #[derive(Serialize)]
    struct Line {
        product_name: Option<String>,
        amount: Decimal,
        tax_rate: f64,
        quantity: Decimal,
        date: Timestamp,
    }

    /// A record with a field of every kind, in the order a filing has them.
    #[derive(Serialize)]
    struct Record {
        id: &'static str,
        date_filed: Option<Timestamp>,
        state_code: Option<String>,
        state_name: Option<String>,
        country: &'static str,
        total_amount: Decimal,
        threshold_sales: i64,
        created_at: Timestamp,
        start_date: chrono::NaiveDate,
        metadata: Value,
        street_1: &'static str,
        dates: Vec<&'static str>,
        items: Vec<Line>,
    }

    fn record() -> Record {
        let at = Timestamp(Utc.with_ymd_and_hms(2026, 10, 6, 12, 0, 0).unwrap());
        Record {
            id: "fil_1",
            date_filed: None,
            state_code: Some(String::new()),
            state_name: Some("Canada".into()),
            country: "CA",
            total_amount: Decimal::new(125, 1),
            threshold_sales: 100_000,
            created_at: at,
            start_date: chrono::NaiveDate::from_ymd_opt(2026, 10, 1).unwrap(),
            metadata: json!({"total_amount": "1", "created_at": "2026-10-06T14:00:00+02:00"}),
            street_1: "1 Main St",
            dates: vec!["2026-10-06T14:00:00+02:00"],
            items: vec![Line {
                product_name: None,
                amount: Decimal::new(98_555, 3),
                tax_rate: 0.0725,
                quantity: Decimal::new(2, 0),
                date: at,
            }],
        }
    }

    fn written(version: ApiVersion, value: &impl Serialize) -> Value {
        let bytes = serde_json::to_vec(&Tenanted::new(version, value)).unwrap();
        serde_json::from_slice(&bytes).unwrap()
    }

    #[test]
    fn records_are_written_in_the_form_of_each_release() {
        let old = written(OLD, &record());
        assert_eq!(
            old,
            json!({
                "id": "fil_1", "dateFiled": null, "stateCode": "", "stateName": "",
                "country": "CA", "totalAmount": "12.50", "thresholdSales": "100000.00",
                "createdAt": "2026-10-06T12:00:00Z", "startDate": "2026-10-01",
                "metadata": {"total_amount": "1", "created_at": "2026-10-06T14:00:00+02:00"},
                "street1": "1 Main St", "dates": ["2026-10-06T14:00:00+02:00"],
                "items": [{
                    "productName": null, "amount": "98.56", "taxRate": "0.072500000",
                    "quantity": "2", "date": "2026-10-06T12:00:00Z"
                }]
            })
        );
        let new = written(NEW, &record());
        assert_eq!(
            (&new["stateCode"], &new["stateName"], &new["countryCode"]),
            (&Value::Null, &Value::Null, &json!("CA"))
        );
        assert!(new.get("country").is_none());
        assert_eq!(new["items"][0]["productName"], json!(""));
    }

    #[test]
    fn a_record_and_its_v1_json_give_the_same_answer() {
        for version in [OLD, NEW] {
            let v1 = serde_json::to_value(record()).unwrap();
            assert_eq!(written(version, &record()), to_tenanted(version, &v1));
        }
        // A filing with a state keeps it; one with no state fields at all gets them.
        let mut with_state = record();
        with_state.state_code = Some("TX".into());
        with_state.state_name = Some("Texas".into());
        let new = written(NEW, &with_state);
        assert_eq!(
            (&new["stateCode"], &new["stateName"]),
            (&json!("TX"), &json!("Texas"))
        );
        let bare = to_tenanted(OLD, &json!({"date_filed": null}));
        assert_eq!(
            bare,
            json!({"dateFiled": null, "stateCode": "", "stateName": ""})
        );
    }

    #[test]
    fn a_field_v1_adds_reaches_the_answer_in_camel_case() {
        #[derive(Serialize)]
        struct Nexus {
            state_code: &'static str,
            previous_period_start_date: &'static str,
            total_transactions_included: u32,
            is_vda_eligible: bool,
        }
        let nexus = Nexus {
            state_code: "TX",
            previous_period_start_date: "2025-01-01",
            total_transactions_included: 212,
            is_vda_eligible: true,
        };
        assert_eq!(
            written(NEW, &nexus),
            json!({
                "stateCode": "TX", "previousPeriodStartDate": "2025-01-01",
                "totalTransactionsIncluded": 212, "isVdaEligible": true
            })
        );
    }

    #[test]
    fn fixed_forms_pad_plain_decimals_and_round_the_rest() {
        for (text, scale) in [
            ("12", 2),
            ("12.5", 2),
            ("12.50", 2),
            ("12.345", 2),
            ("-0.5", 2),
            ("-12", 2),
            ("0", 9),
            ("0.0725", 9),
            ("0.0000000005", 9),
            (" 3 ", 2),
            ("007", 2),
            ("-0", 2),
            ("123456789012345678901", 2),
        ] {
            let by_decimal = text
                .trim()
                .parse::<Decimal>()
                .ok()
                .map(|d| at_scale(d, scale).to_string());
            assert_eq!(
                fixed(text, scale).map(Cow::into_owned),
                by_decimal,
                "{text:?} at {scale}"
            );
        }
        assert_eq!(fixed("n/a", 2), None);
        assert_eq!(text_of(Kind::Money, "n/a"), "n/a");
    }

    #[test]
    fn timestamps_already_in_form_are_kept_and_others_rewritten() {
        for (text, form) in [
            ("2026-10-06T10:00:00Z", "2026-10-06T10:00:00Z"),
            ("2026-10-06T10:00:00.120Z", "2026-10-06T10:00:00.120Z"),
            ("2026-10-06T10:00:00.120000Z", "2026-10-06T10:00:00.120Z"),
            ("2026-10-06T10:00:00.000Z", "2026-10-06T10:00:00Z"),
            ("2026-10-06T12:00:00+02:00", "2026-10-06T10:00:00Z"),
            ("2026-10-06T10:00:00", "2026-10-06T10:00:00Z"),
            ("2026-10-06", "2026-10-06"),
            ("2026-13-06T10:00:00Z", "2026-13-06T10:00:00Z"),
        ] {
            assert_eq!(text_of(Kind::Timestamp, text), form, "{text}");
        }
    }
}
