//! Where baselines (and the functions' state, index and cache files) live:
//! an async key/value trait, a local directory and an in-memory store.
//!
//! Keys are relative, `/`-separated names (`App.1.us-east-1.json`,
//! `state/App.1.us-east-1.json`). Saves are atomic: a reader sees either the
//! old text or the new one, never a half-written one, so a crash mid-run
//! cannot damage a committed baseline. A save can carry a [`Precondition`]
//! so two writers cannot silently overwrite each other; a failed
//! precondition is [`StoreError::Conflict`]. The S3 implementation lives in
//! the `realdrift-aws` crate.

use super::error::BaselineError;
use super::file::BaselineFile;
use futures_util::future::{BoxFuture, FutureExt};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// An opaque version of a stored text (an S3 ETag, a content hash), handed
/// back to [`Precondition::IfUnchanged`] to save only over that exact version.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Version(String);

impl Version {
    /// A version from a store's own token.
    pub fn new(token: impl Into<String>) -> Self {
        Version(token.into())
    }

    /// The store's token.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The version local stores give a text: its SHA-256 (S3's ETag of a
    /// single-part upload is likewise a content digest).
    pub fn of_text(text: &str) -> Self {
        let digest = Sha256::digest(text.as_bytes());
        Version(digest.iter().map(|b| format!("{b:02x}")).collect())
    }
}

/// A stored text and its version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    /// The text.
    pub text: String,
    /// The version to pass to [`Precondition::IfUnchanged`].
    pub version: Version,
}

/// When a save may go ahead.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Precondition {
    /// Always (last writer wins).
    #[default]
    None,
    /// Only when nothing is stored under the key yet.
    IfAbsent,
    /// Only when the stored text is still this version (optimistic locking).
    IfUnchanged(Version),
}

/// Why a store call failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The key is not a relative `/`-separated name.
    #[error("bad store key {key:?}: {reason}")]
    BadKey {
        /// The rejected key.
        key: String,
        /// Why it was rejected.
        reason: &'static str,
    },
    /// A save's precondition did not hold: someone else wrote (or created)
    /// the key since it was loaded. Nothing was written.
    #[error(
        "baseline store {location}: {precondition} does not hold (another writer got there first)"
    )]
    Conflict {
        /// The path or URL of the key.
        location: String,
        /// The precondition that failed, in words.
        precondition: &'static str,
    },
    /// A store could not read, write, list or delete.
    #[error("baseline store {location}: {source}")]
    Io {
        /// The path or key involved.
        location: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
}

impl StoreError {
    /// An I/O failure at `location` with a plain message (remote stores).
    pub fn io(location: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        StoreError::Io {
            location: location.into(),
            source: std::io::Error::other(message.into()),
        }
    }

    /// The conflict error for a failed `precondition` at `location`.
    pub fn conflict(location: impl Into<String>, precondition: &Precondition) -> Self {
        StoreError::Conflict {
            location: location.into(),
            precondition: match precondition {
                Precondition::IfAbsent => "only-if-absent",
                _ => "only-if-unchanged",
            },
        }
    }
}

/// A place texts are loaded from and saved to, keyed by relative name.
///
/// Every method returns a boxed `Send` future so the trait stays object
/// safe and runtime-agnostic, like the pipeline's I/O traits.
pub trait BaselineStore: Send + Sync {
    /// The text stored under `key` and its version, or `None` when there is none.
    fn load<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Option<Stored>, StoreError>>;

    /// Replaces the text under `key` atomically when `precondition` holds;
    /// returns the new version.
    fn save<'a>(
        &'a self,
        key: &'a str,
        text: &'a str,
        precondition: Precondition,
    ) -> BoxFuture<'a, Result<Version, StoreError>>;

    /// Every key starting with `prefix` (a plain string prefix, as in S3), sorted.
    fn list<'a>(&'a self, prefix: &'a str) -> BoxFuture<'a, Result<Vec<String>, StoreError>>;

    /// Removes `key`; removing a missing key is not an error.
    fn delete<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<(), StoreError>>;
}

/// Checks that `key` is a relative `/`-separated name with no `.`/`..`
/// segments, so no store can be steered outside its root.
pub fn check_key(key: &str) -> Result<(), StoreError> {
    let bad = |reason| {
        Err(StoreError::BadKey {
            key: key.to_string(),
            reason,
        })
    };
    if key.is_empty() {
        return bad("a key is not empty");
    }
    if key.contains(['\\', '\0']) {
        return bad("a key holds no backslash or NUL");
    }
    if key
        .split('/')
        .any(|s| s.is_empty() || s == "." || s == "..")
    {
        return bad("a key is relative, its segments neither empty, '.' nor '..'");
    }
    Ok(())
}

/// Loads and parses the baseline stored under `key`, if any.
pub async fn load_baseline(
    store: &dyn BaselineStore,
    key: &str,
) -> Result<Option<BaselineFile>, BaselineError> {
    match store.load(key).await? {
        Some(stored) => BaselineFile::parse(key, &stored.text).map(Some),
        None => Ok(None),
    }
}

/// Writes `baseline` under `key` in its diff-friendly text form.
pub async fn save_baseline(
    store: &dyn BaselineStore,
    key: &str,
    baseline: &BaselineFile,
    precondition: Precondition,
) -> Result<Version, BaselineError> {
    Ok(store.save(key, &baseline.to_text(), precondition).await?)
}

/// Files in one directory tree (the git-committed `baselines/`); a key's
/// segments are subdirectories.
///
/// File I/O runs inline on the calling task: the files are small and the
/// engine stays free of any one async runtime (no `spawn_blocking` here).
/// Preconditions are checked under a lock, so writers through one store are
/// serialised; `IfAbsent` is also atomic across processes (a hard link
/// cannot replace a file), `IfUnchanged` only within this process.
#[derive(Debug)]
pub struct LocalDirStore {
    dir: PathBuf,
    writing: Mutex<()>,
}

impl Clone for LocalDirStore {
    fn clone(&self) -> Self {
        LocalDirStore::new(self.dir.clone())
    }
}

impl LocalDirStore {
    /// A store over `dir` (created on first save).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        LocalDirStore {
            dir: dir.into(),
            writing: Mutex::new(()),
        }
    }

    /// The path a key maps to.
    fn path_of(&self, key: &str) -> Result<PathBuf, StoreError> {
        check_key(key)?;
        Ok(key.split('/').fold(self.dir.clone(), |p, s| p.join(s)))
    }

    fn load_now(&self, key: &str) -> Result<Option<Stored>, StoreError> {
        let path = self.path_of(key)?;
        match read_text_file(&path, MAX_STORED_BYTES) {
            Ok(text) => Ok(Some(Stored {
                version: Version::of_text(&text),
                text,
            })),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io_err(&path)(e)),
        }
    }

    fn save_now(
        &self,
        key: &str,
        text: &str,
        precondition: &Precondition,
    ) -> Result<Version, StoreError> {
        let path = self.path_of(key)?;
        let dir = path.parent().unwrap_or(&self.dir).to_path_buf();
        std::fs::create_dir_all(&dir).map_err(io_err(&dir))?;
        let _guard = self.writing.lock().unwrap_or_else(|p| p.into_inner());
        if let Precondition::IfUnchanged(v) = precondition {
            let current = self.load_now(key)?.map(|s| s.version);
            if current.as_ref() != Some(v) {
                return Err(StoreError::conflict(
                    path.display().to_string(),
                    precondition,
                ));
            }
        }
        let tmp = write_temp(&dir, &path, text)?;
        let placed = match precondition {
            // A hard link never replaces an existing file: atomic create-if-absent.
            Precondition::IfAbsent => std::fs::hard_link(&tmp, &path).map_err(|e| {
                if e.kind() == std::io::ErrorKind::AlreadyExists {
                    StoreError::conflict(path.display().to_string(), precondition)
                } else {
                    io_err(&path)(e)
                }
            }),
            _ => std::fs::rename(&tmp, &path).map_err(io_err(&path)),
        };
        let _ = std::fs::remove_file(&tmp);
        placed?;
        // Persist the new entry itself; failure here leaves a complete file either way.
        if let Ok(d) = std::fs::File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(Version::of_text(text))
    }

    fn list_now(&self, prefix: &str) -> Result<Vec<String>, StoreError> {
        let mut keys = Vec::new();
        walk(&self.dir, "", &mut keys)?;
        keys.retain(|k| k.starts_with(prefix));
        keys.sort();
        Ok(keys)
    }

    fn delete_now(&self, key: &str) -> Result<(), StoreError> {
        let path = self.path_of(key)?;
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io_err(&path)(e)),
            _ => Ok(()),
        }
    }
}

/// The largest text a local store loads (64 MiB): a baseline is far
/// smaller, and a bigger file is a mistake, not a baseline.
pub const MAX_STORED_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a UTF-8 text file of at most `limit` bytes.
///
/// Only regular files are read (symlinks are followed): a FIFO would block
/// forever and a device such as `/dev/zero` never ends. A larger file is an
/// error naming the limit, found without reading past it.
pub fn read_text_file(path: &Path, limit: u64) -> std::io::Result<String> {
    use std::io::Read;
    let not_regular = || {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (a FIFO, device or directory is never read)",
        )
    };
    // Checked before opening: opening a FIFO for reading blocks.
    if !std::fs::metadata(path)?.is_file() {
        return Err(not_regular());
    }
    let file = std::fs::File::open(path)?;
    if !file.metadata()?.is_file() {
        return Err(not_regular());
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("larger than the {limit}-byte limit"),
        ));
    }
    String::from_utf8(bytes)
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "not valid UTF-8 text"))
}

/// Writes `text` to a fresh temp file beside `path` (same directory, so the
/// final rename or link is atomic) and syncs it.
fn write_temp(dir: &Path, path: &Path, text: &str) -> Result<PathBuf, StoreError> {
    let nonce = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.{nonce}.tmp", std::process::id()));
    let written = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(io_err(&tmp)(e));
    }
    Ok(tmp)
}

/// Collects the keys below `dir`; dot files (temp files, `.gitkeep`) are not keys.
fn walk(dir: &Path, prefix: &str, keys: &mut Vec<String>) -> Result<(), StoreError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io_err(dir)(e)),
    };
    for entry in entries {
        let entry = entry.map_err(io_err(dir))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let key = format!("{prefix}{name}");
        let kind = entry.file_type().map_err(io_err(&entry.path()))?;
        if kind.is_dir() {
            walk(&entry.path(), &format!("{key}/"), keys)?;
        } else if kind.is_file() {
            keys.push(key);
        }
    }
    Ok(())
}

fn io_err(location: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        location: location.to_path_buf(),
        source,
    }
}

impl BaselineStore for LocalDirStore {
    fn load<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Option<Stored>, StoreError>> {
        async move { self.load_now(key) }.boxed()
    }

    fn save<'a>(
        &'a self,
        key: &'a str,
        text: &'a str,
        precondition: Precondition,
    ) -> BoxFuture<'a, Result<Version, StoreError>> {
        async move { self.save_now(key, text, &precondition) }.boxed()
    }

    fn list<'a>(&'a self, prefix: &'a str) -> BoxFuture<'a, Result<Vec<String>, StoreError>> {
        async move { self.list_now(prefix) }.boxed()
    }

    fn delete<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        async move { self.delete_now(key) }.boxed()
    }
}

/// Texts in memory, for tests and dry runs. Preconditions are checked
/// under the same lock as the write, so they are atomic.
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

    fn files(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, String>> {
        // The map is valid after any panic elsewhere: keep using it.
        self.files.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn save_now(
        &self,
        key: &str,
        text: &str,
        precondition: &Precondition,
    ) -> Result<Version, StoreError> {
        check_key(key)?;
        let mut files = self.files();
        let current = files.get(key).map(|t| Version::of_text(t));
        let holds = match precondition {
            Precondition::None => true,
            Precondition::IfAbsent => current.is_none(),
            Precondition::IfUnchanged(v) => current.as_ref() == Some(v),
        };
        if !holds {
            return Err(StoreError::conflict(key, precondition));
        }
        files.insert(key.to_string(), text.to_string());
        Ok(Version::of_text(text))
    }
}

impl BaselineStore for MemoryStore {
    fn load<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Option<Stored>, StoreError>> {
        let r = check_key(key).map(|()| {
            self.files().get(key).map(|text| Stored {
                version: Version::of_text(text),
                text: text.clone(),
            })
        });
        async move { r }.boxed()
    }

    fn save<'a>(
        &'a self,
        key: &'a str,
        text: &'a str,
        precondition: Precondition,
    ) -> BoxFuture<'a, Result<Version, StoreError>> {
        let r = self.save_now(key, text, &precondition);
        async move { r }.boxed()
    }

    fn list<'a>(&'a self, prefix: &'a str) -> BoxFuture<'a, Result<Vec<String>, StoreError>> {
        let keys = self
            .files()
            .keys()
            .filter(|k| k.starts_with(prefix))
            .cloned()
            .collect();
        async move { Ok(keys) }.boxed()
    }

    fn delete<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        let r = check_key(key).map(|()| {
            self.files().remove(key);
        });
        async move { r }.boxed()
    }
}
