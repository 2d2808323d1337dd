//! A progress display while resources are read: a live reader wrapper that
//! ticks a spinner on stderr. Only shown on a terminal, never with `--json`.

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use realdrift_core::pipeline::{LiveReader, ReadOutcome, ReadRequest};
use std::io::IsTerminal;
use std::sync::Arc;
use std::time::Duration;

/// Whether to show progress: stdout and stderr are terminals and the output is text.
pub fn wanted(json: bool) -> bool {
    !json && std::io::stdout().is_terminal() && std::io::stderr().is_terminal()
}

/// A spinner counting resources read, or nothing.
#[derive(Debug, Clone)]
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A visible spinner when `show`, else a no-op.
    pub fn new(show: bool) -> Self {
        let bar = show.then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            let style =
                ProgressStyle::with_template("{spinner} {msg}: {pos} resources read ({elapsed})")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner());
            bar.set_style(style);
            bar.set_message("reading");
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        });
        Progress { bar }
    }

    fn tick(&self) {
        if let Some(b) = &self.bar {
            b.inc(1);
        }
    }

    /// Removes the spinner so the report starts on a clean line.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }

    /// Wraps a reader so every completed read ticks this display.
    pub fn wrap(&self, inner: Arc<dyn LiveReader>) -> Arc<dyn LiveReader> {
        if self.bar.is_none() {
            return inner;
        }
        Arc::new(CountingReader {
            inner,
            progress: self.clone(),
        })
    }
}

struct CountingReader {
    inner: Arc<dyn LiveReader>,
    progress: Progress,
}

impl LiveReader for CountingReader {
    fn read<'a>(&'a self, req: &'a ReadRequest) -> BoxFuture<'a, ReadOutcome> {
        async move {
            let out = self.inner.read(req).await;
            self.progress.tick();
            out
        }
        .boxed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use realdrift_core::pipeline::memory::MemoryReader;

    #[test]
    fn a_hidden_progress_returns_the_reader_unwrapped() {
        let inner: Arc<dyn LiveReader> = Arc::new(MemoryReader::default());
        let wrapped = Progress::new(false).wrap(inner.clone());
        assert!(Arc::ptr_eq(&inner, &wrapped));
    }
}
