//! Small helpers for drawing dates, amounts and text from a seeded generator.

use chrono::{Datelike, Days, Months, NaiveDate};
use rand::Rng;
use rand::seq::IndexedRandom;
use rust_decimal::Decimal;

use crate::model::Timestamp;

/// `true` with probability `num / den`.
pub fn chance(rng: &mut impl Rng, num: u32, den: u32) -> bool {
    rng.random_ratio(num, den)
}

/// One element of a non-empty slice.
pub fn pick<'a, T>(rng: &mut impl Rng, items: &'a [T]) -> &'a T {
    items.choose(rng).expect("pick from a non-empty slice")
}

/// One value of a non-empty `(value, weight)` table, in proportion to the weights.
pub fn weighted<'a, T>(rng: &mut impl Rng, items: &'a [(T, u32)]) -> &'a T {
    let total: u32 = items.iter().map(|(_, w)| w).sum();
    let mut roll = rng.random_range(0..total);
    for (value, weight) in items {
        if roll < *weight {
            return value;
        }
        roll -= weight;
    }
    &items[items.len() - 1].0
}

/// A date in `from..=to` (or `from` when the range is empty).
pub fn date_between(rng: &mut impl Rng, from: NaiveDate, to: NaiveDate) -> NaiveDate {
    let span = (to - from).num_days();
    if span <= 0 {
        return from;
    }
    from + Days::new(rng.random_range(0..=span) as u64)
}

pub fn ymd(year: i32, month: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(year, month, day).expect("a valid calendar date")
}

pub fn days_before(date: NaiveDate, days: u64) -> NaiveDate {
    date - Days::new(days)
}

pub fn days_after(date: NaiveDate, days: u64) -> NaiveDate {
    date + Days::new(days)
}

/// First day of the month `months` after the month of `date`.
pub fn month_start_plus(date: NaiveDate, months: u32) -> NaiveDate {
    ymd(date.year(), date.month(), 1) + Months::new(months)
}

/// A moment on `date` during office hours, UTC.
pub fn timestamp_on(rng: &mut impl Rng, date: NaiveDate) -> Timestamp {
    let time = date
        .and_hms_opt(
            rng.random_range(13..23),
            rng.random_range(0..60),
            rng.random_range(0..60),
        )
        .expect("a valid time of day");
    Timestamp(time.and_utc())
}

/// An amount of money between two amounts given in cents, with two decimal places.
pub fn money(rng: &mut impl Rng, min_cents: i64, max_cents: i64) -> Decimal {
    Decimal::new(rng.random_range(min_cents..=max_cents), 2)
}

/// `n` random decimal digits.
pub fn digits(rng: &mut impl Rng, n: usize) -> String {
    (0..n)
        .map(|_| char::from(b'0' + rng.random_range(0..10u8)))
        .collect()
}

/// `n` random uppercase letters.
pub fn letters(rng: &mut impl Rng, n: usize) -> String {
    (0..n)
        .map(|_| char::from(b'A' + rng.random_range(0..26u8)))
        .collect()
}

/// A portal password: letters, digits and one symbol.
pub fn password(rng: &mut impl Rng) -> String {
    const CHARS: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    let mut s: String = (0..11).map(|_| char::from(*pick(rng, CHARS))).collect();
    s.push(*pick(rng, &['!', '#', '$', '%', '&', '*']));
    s
}

/// A lowercase, dash-free token from a name, for e-mail addresses and user names.
pub fn slug(text: &str) -> String {
    text.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// A federal employer identification number, `NN-NNNNNNN`.
pub fn fein(rng: &mut impl Rng) -> String {
    format!("{}-{}", rng.random_range(10..99), digits(rng, 7))
}
