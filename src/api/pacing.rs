//! The client's pacing under the service's rate limit: a token bucket that never lets more than
//! the limit through in any minute, which the requests of every clone of a client pass one at a
//! time, in the order they asked.

use std::num::NonZeroU32;

use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};

/// Spaces requests under a per-minute limit.
///
/// The bucket holds three quarters of a second's worth of the limit (at least two requests:
/// 125 at 10,000 a minute) and refills at the limit less that burst, so no window of a minute,
/// sliding or fixed, ever holds more than the limit: a screen's worth of requests asked at once
/// leaves together instead of one slot apart, and bulk work runs at 98.75 % of the limit. The
/// burst stays under a second's worth (what the sandbox's limiter allows at once), so that
/// requests of a burst that reach the service a little apart never find its bucket empty. (At least two: a waiter wakes a little after its slot, and
/// with no tolerance each such delay would push every later slot back.)
///
/// Requests take their turn first come, first served: only the one at the head of the queue
/// waits on the bucket. A thousand pages asked for at once then cost one timer at a time, not a
/// thousand wake-ups at every slot, and a page asked for earlier is never sent after one asked
/// for later.
pub(crate) struct Pacer {
    bucket: DefaultDirectRateLimiter,
    /// Held by the request whose turn is next, while it waits for its slot; fair (FIFO).
    queue: tokio::sync::Mutex<()>,
}

/// The requests a limit of `per_minute` lets through back to back, and the rate the bucket
/// refills at: together never more than `per_minute` in a minute.
fn burst_and_rate(per_minute: NonZeroU32) -> (NonZeroU32, NonZeroU32) {
    let limit = per_minute.get();
    let burst = (limit / 80).max(2).min(limit.saturating_sub(1).max(1));
    let rate = limit.saturating_sub(burst).max(1);
    (
        NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN),
        NonZeroU32::new(rate).unwrap_or(NonZeroU32::MIN),
    )
}

impl Pacer {
    /// At most `per_minute` requests in any minute.
    pub fn per_minute(per_minute: NonZeroU32) -> Self {
        let (burst, rate) = burst_and_rate(per_minute);
        Pacer {
            bucket: RateLimiter::direct(Quota::per_minute(rate).allow_burst(burst)),
            queue: tokio::sync::Mutex::new(()),
        }
    }

    /// Waits until this request may be sent. Dropping the future gives up the place in the
    /// queue.
    pub async fn turn(&self) {
        let _head = self.queue.lock().await;
        self.bucket.until_ready().await;
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn requests_pass_in_the_order_they_asked_at_the_rate() {
        // 600 a minute: a burst of seven, then one every 101.2 ms (593 a minute).
        let pacer = Arc::new(Pacer::per_minute(NonZeroU32::new(600).unwrap()));
        let (sent, mut order) = tokio::sync::mpsc::unbounded_channel();
        let started = std::time::Instant::now();
        let mut waiting = Vec::new();
        for i in 0..10 {
            let pacer = Arc::clone(&pacer);
            let sent = sent.clone();
            waiting.push(tokio::spawn(async move {
                pacer.turn().await;
                sent.send(i).unwrap();
            }));
            // Each asks after the one before, before any slot frees.
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        for w in waiting {
            w.await.unwrap();
        }
        drop(sent);
        let mut seen = Vec::new();
        while let Some(i) = order.recv().await {
            seen.push(i);
        }
        assert_eq!(seen, (0..10).collect::<Vec<_>>());
        // The seven of the burst at once, then three slots of 101.2 ms.
        let took = started.elapsed();
        assert!(took >= Duration::from_millis(300), "{took:?}");
        assert!(
            took < Duration::from_millis(600),
            "the burst left together: {took:?}"
        );
    }

    #[test]
    fn no_minute_holds_more_than_the_limit() {
        // A bucket of `burst` refilled at `rate` a minute lets through at most burst + rate in
        // any minute.
        for limit in [1, 2, 3, 60, 600, 10_000, 100_000] {
            let (burst, rate) = burst_and_rate(NonZeroU32::new(limit).unwrap());
            assert!(
                burst.get() + rate.get() <= limit.max(2),
                "{limit}: {burst} + {rate}"
            );
        }
        let (burst, rate) = burst_and_rate(NonZeroU32::new(10_000).unwrap());
        assert_eq!((burst.get(), rate.get()), (125, 9_875));
    }
}
