//! Slack: posts a notice's Block Kit payload to an incoming webhook.
//!
//! 429 and 5xx answers and transport failures are retried a bounded number
//! of times, waiting what `Retry-After` asks (within a cap) or backing off
//! exponentially. Other answers (a revoked webhook's 404, a 400) fail at
//! once. Posts to one webhook are paced at most one per `min_interval`
//! (Slack: about one message per second per channel,
//! <https://api.slack.com/docs/rate-limits>). Waiting goes through a
//! [`Clock`], so tests pass a fake one. The URL is a credential: it never
//! appears in an error.

use super::secret::WebhookUrlSource;
use futures_util::future::{BoxFuture, FutureExt};
use realdrift_core::notify::{Notice, Notifier, NotifyError};
use reqwest::header::{HeaderMap, RETRY_AFTER};
use reqwest::StatusCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Time as the client sees it: now, and waiting (tests pass a fake).
pub trait Clock: Send + Sync {
    /// The current instant.
    fn now(&self) -> Instant;
    /// Waits `d`.
    fn sleep(&self, d: Duration) -> BoxFuture<'_, ()>;
}

/// The real clock (tokio's timer).
#[derive(Debug, Clone, Copy, Default)]
pub struct TokioClock;

impl Clock for TokioClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
    fn sleep(&self, d: Duration) -> BoxFuture<'_, ()> {
        tokio::time::sleep(d).boxed()
    }
}

/// How hard to try.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all (at least 1).
    pub attempts: u32,
    /// First backoff when the answer says nothing; doubled per attempt.
    pub backoff: Duration,
    /// The longest wait accepted; a longer `Retry-After` gives up.
    pub max_wait: Duration,
    /// Per-request timeout.
    pub timeout: Duration,
    /// The shortest time between two posts to the webhook.
    pub min_interval: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            attempts: 3,
            backoff: Duration::from_millis(500),
            max_wait: Duration::from_secs(20),
            timeout: Duration::from_secs(10),
            min_interval: Duration::from_secs(1),
        }
    }
}

/// An incoming-webhook client.
pub struct SlackWebhook {
    url: Arc<dyn WebhookUrlSource>,
    http: reqwest::Client,
    retry: RetryPolicy,
    clock: Arc<dyn Clock>,
    /// When the last post was sent (pacing).
    last_post: Mutex<Option<Instant>>,
}

impl std::fmt::Debug for SlackWebhook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the URL.
        f.debug_struct("SlackWebhook")
            .field("retry", &self.retry)
            .finish_non_exhaustive()
    }
}

/// What one attempt came to.
enum Attempt {
    Done,
    Retry { wait: Option<Duration>, why: String },
    Fail(String),
}

fn error(message: impl Into<String>) -> NotifyError {
    NotifyError::new("slack", message)
}

/// `Retry-After` in seconds (Slack sends delta-seconds).
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let v = headers.get(RETRY_AFTER)?.to_str().ok()?;
    v.trim().parse::<u64>().ok().map(Duration::from_secs)
}

impl SlackWebhook {
    /// A client posting to the URL `url` yields.
    pub fn new(url: Arc<dyn WebhookUrlSource>, retry: RetryPolicy) -> Result<Self, NotifyError> {
        let http = reqwest::Client::builder()
            .timeout(retry.timeout)
            .connect_timeout(retry.timeout)
            .build()
            .map_err(|e| error(format!("HTTP client: {}", e.without_url())))?;
        Ok(SlackWebhook {
            url,
            http,
            retry,
            clock: Arc::new(TokioClock),
            last_post: Mutex::new(None),
        })
    }

    /// The same client waiting through `clock` (tests).
    pub fn with_clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = clock;
        self
    }

    /// Waits for this post's slot: `min_interval` after the previous
    /// post's. The slot is reserved under the lock (no lock across an
    /// await), so posts of concurrent stacks queue up instead of bursting.
    async fn pace(&self) {
        let now = self.clock.now();
        let slot = match self.last_post.lock() {
            Ok(mut last) => {
                let slot = last
                    .map(|t| t + self.retry.min_interval)
                    .filter(|s| *s > now)
                    .unwrap_or(now);
                *last = Some(slot);
                slot
            }
            Err(_) => now,
        };
        let wait = slot.saturating_duration_since(now);
        if !wait.is_zero() {
            self.clock.sleep(wait).await;
        }
    }

    async fn attempt(&self, url: &str, body: &str) -> Attempt {
        self.pace().await;
        let sent = self
            .http
            .post(url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(body.to_string())
            .send()
            .await;
        let resp = match sent {
            Ok(r) => r,
            Err(e) => {
                return Attempt::Retry {
                    wait: None,
                    why: e.without_url().to_string(),
                }
            }
        };
        let status = resp.status();
        if status.is_success() {
            return Attempt::Done;
        }
        let wait = retry_after(resp.headers());
        // Slack's error bodies are short codes (`invalid_payload`, `no_service`).
        let text: String = resp
            .text()
            .await
            .unwrap_or_default()
            .chars()
            .take(200)
            .collect();
        let why = format!("HTTP {}: {}", status.as_u16(), text.trim());
        if status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error() {
            Attempt::Retry { wait, why }
        } else {
            Attempt::Fail(why)
        }
    }

    async fn post(&self, notice: &Notice) -> Result<(), NotifyError> {
        if notice.slack.is_null() {
            // A notice without a Slack form (a plain published document).
            return Ok(());
        }
        let url = match self.url.url().await {
            Ok(Some(u)) => u,
            Ok(None) => return Ok(()),
            Err(e) => return Err(error(format!("webhook URL: {e}"))),
        };
        let body = serde_json::to_string(&notice.slack).unwrap_or_default();
        let mut backoff = self.retry.backoff;
        for n in 1..=self.retry.attempts.max(1) {
            let (wait, why) = match self.attempt(&url, &body).await {
                Attempt::Done => return Ok(()),
                Attempt::Fail(why) => return Err(error(why)),
                Attempt::Retry { wait, why } => (wait.unwrap_or(backoff), why),
            };
            if n == self.retry.attempts.max(1) {
                return Err(error(format!("{why} (after {n} attempts)")));
            }
            if wait > self.retry.max_wait {
                return Err(error(format!(
                    "{why} (asked to wait {} s, more than {} s)",
                    wait.as_secs(),
                    self.retry.max_wait.as_secs()
                )));
            }
            self.clock.sleep(wait).await;
            backoff *= 2;
        }
        Err(error("no attempt made"))
    }
}

impl Notifier for SlackWebhook {
    fn channel(&self) -> &'static str {
        "slack"
    }

    fn send<'a>(&'a self, notice: &'a Notice) -> BoxFuture<'a, Result<(), NotifyError>> {
        self.post(notice).boxed()
    }
}
