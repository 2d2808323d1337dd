//! Where baseline files live: a trait, a local directory and an in-memory store.
//!
//! Saves are atomic: a reader sees either the old file or the new one, never
//! a half-written one, so a crash mid-run cannot damage a committed baseline.

use super::error::BaselineError;
use super::file::BaselineFile;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A place baselines are loaded from and saved to, keyed by file name.
pub trait BaselineStore {
    /// The text stored under `key`, or `None` when there is none.
    fn load(&self, key: &str) -> Result<Option<String>, BaselineError>;
    /// Replaces the text under `key` atomically.
    fn save(&self, key: &str, text: &str) -> Result<(), BaselineError>;
}

/// Loads and parses the baseline stored under `key`, if any.
pub fn load_baseline(
    store: &dyn BaselineStore,
    key: &str,
) -> Result<Option<BaselineFile>, BaselineError> {
    match store.load(key)? {
        Some(text) => BaselineFile::parse(key, &text).map(Some),
        None => Ok(None),
    }
}

/// Writes `baseline` under `key` in its diff-friendly text form.
pub fn save_baseline(
    store: &dyn BaselineStore,
    key: &str,
    baseline: &BaselineFile,
) -> Result<(), BaselineError> {
    store.save(key, &baseline.to_text())
}

/// Baselines as files in one directory (the git-committed `baselines/`).
#[derive(Debug, Clone)]
pub struct LocalDirStore {
    dir: PathBuf,
}

impl LocalDirStore {
    /// A store over `dir` (created on first save).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        LocalDirStore { dir: dir.into() }
    }

    /// The path a key maps to; keys are plain file names, never paths.
    fn path_of(&self, key: &str) -> Result<PathBuf, BaselineError> {
        let plain = !key.is_empty()
            && key != "."
            && key != ".."
            && !key.contains(['/', '\\', '\0'])
            && Path::new(key).components().count() == 1;
        if !plain {
            return Err(BaselineError::BadName {
                what: "store key",
                value: key.to_string(),
                reason: "a key is a plain file name",
            });
        }
        Ok(self.dir.join(key))
    }
}

fn io_err(location: &Path) -> impl FnOnce(std::io::Error) -> BaselineError + '_ {
    move |source| BaselineError::Io {
        location: location.to_path_buf(),
        source,
    }
}

impl BaselineStore for LocalDirStore {
    fn load(&self, key: &str) -> Result<Option<String>, BaselineError> {
        let path = self.path_of(key)?;
        match std::fs::read_to_string(&path) {
            Ok(text) => Ok(Some(text)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io_err(&path)(e)),
        }
    }

    fn save(&self, key: &str, text: &str) -> Result<(), BaselineError> {
        let path = self.path_of(key)?;
        std::fs::create_dir_all(&self.dir).map_err(io_err(&self.dir))?;
        // The temp file sits in the same directory so the rename is atomic.
        let nonce = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let tmp = self
            .dir
            .join(format!(".{key}.{}.{nonce}.tmp", std::process::id()));
        let written = (|| {
            let mut f = std::fs::File::create(&tmp)?;
            f.write_all(text.as_bytes())?;
            f.sync_all()
        })();
        if let Err(e) = written {
            let _ = std::fs::remove_file(&tmp);
            return Err(io_err(&tmp)(e));
        }
        if let Err(e) = std::fs::rename(&tmp, &path) {
            let _ = std::fs::remove_file(&tmp);
            return Err(io_err(&path)(e));
        }
        // Persist the rename itself; failure here leaves a complete file either way.
        if let Ok(d) = std::fs::File::open(&self.dir) {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

/// Baselines in memory, for tests and dry runs.
#[derive(Debug, Default)]
pub struct MemoryStore {
    files: Mutex<BTreeMap<String, String>>,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// A snapshot of every stored key and text.
    pub fn snapshot(&self) -> BTreeMap<String, String> {
        self.files.lock().map(|m| m.clone()).unwrap_or_default()
    }
}

impl BaselineStore for MemoryStore {
    fn load(&self, key: &str) -> Result<Option<String>, BaselineError> {
        Ok(self
            .files
            .lock()
            .map_err(|_| poisoned(key))?
            .get(key)
            .cloned())
    }

    fn save(&self, key: &str, text: &str) -> Result<(), BaselineError> {
        self.files
            .lock()
            .map_err(|_| poisoned(key))?
            .insert(key.to_string(), text.to_string());
        Ok(())
    }
}

fn poisoned(key: &str) -> BaselineError {
    BaselineError::Io {
        location: PathBuf::from(key),
        source: std::io::Error::other("memory store lock poisoned"),
    }
}
