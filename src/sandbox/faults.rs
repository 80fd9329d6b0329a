//! Fault injection, for testing how clients cope: added latency and an error rate, both seeded.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::App;
use super::error::ErrorAnswer;

pub struct Faults {
    latency: Duration,
    error_rate: f64,
    rng: Mutex<ChaCha8Rng>,
}

impl Faults {
    /// `error_rate` is the share of requests (0 to 1) answered 500 or 503 instead.
    pub fn new(latency: Duration, error_rate: f64, seed: u64) -> Self {
        Faults {
            latency,
            error_rate: error_rate.clamp(0.0, 1.0),
            rng: Mutex::new(ChaCha8Rng::seed_from_u64(seed ^ 0xfa17)),
        }
    }

    fn draw(&self) -> Option<StatusCode> {
        if self.error_rate <= 0.0 {
            return None;
        }
        let mut rng = self
            .rng
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        rng.random_bool(self.error_rate).then(|| {
            if rng.random_bool(0.5) {
                StatusCode::INTERNAL_SERVER_ERROR
            } else {
                StatusCode::SERVICE_UNAVAILABLE
            }
        })
    }
}

/// Answers every request the configured latency after it arrived, as a service that far away
/// does: the request is handled (or failed, for the configured share, before it reaches a
/// handler, so a failed request never has an effect) at once, and its answer is held until the
/// latency has passed, or sent when ready if the work took longer. The sandbox's own work is part
/// of its latency, as a live service's is, and not added to it.
pub async fn inject(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    let due = tokio::time::Instant::now() + app.faults.latency;
    let answer = match app.faults.draw() {
        Some(StatusCode::INTERNAL_SERVER_ERROR) => ErrorAnswer::Status(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Internal server error (sandbox fault injection).".into(),
        )
        .into_response(),
        Some(status) => ErrorAnswer::Status(
            status,
            "Service temporarily unavailable (sandbox fault injection).".into(),
        )
        .into_response(),
        None => next.run(request).await,
    };
    if !app.faults.latency.is_zero() {
        tokio::time::sleep_until(due).await;
    }
    answer
}
