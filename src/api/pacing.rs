//! The client's pacing under the service's rate limit: a token bucket at the limit, which the
//! requests of every clone of a client pass one at a time, in the order they asked.

use std::num::NonZeroU32;

use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};

/// Requests the pacing lets through back to back.
///
/// Two, not one: a waiter wakes a little after its slot (timer granularity), and with no
/// tolerance at all each such delay would push every later slot back, so bulk work would run
/// ~7 % under the limit. Two absorbs that lateness; the long-run rate is unchanged.
const BURST: NonZeroU32 = NonZeroU32::new(2).expect("non-zero");

/// Spaces requests evenly at a rate.
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

impl Pacer {
    /// `per_minute` requests a minute, evenly spaced.
    pub fn per_minute(per_minute: NonZeroU32) -> Self {
        Pacer {
            bucket: RateLimiter::direct(Quota::per_minute(per_minute).allow_burst(BURST)),
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
        // 600 a minute: one every 100 ms after the burst of two.
        let pacer = Arc::new(Pacer::per_minute(NonZeroU32::new(600).unwrap()));
        let (sent, mut order) = tokio::sync::mpsc::unbounded_channel();
        let started = std::time::Instant::now();
        let mut waiting = Vec::new();
        for i in 0..5 {
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
        assert_eq!(seen, [0, 1, 2, 3, 4]);
        let took = started.elapsed();
        assert!(took >= Duration::from_millis(280), "{took:?}");
    }
}
