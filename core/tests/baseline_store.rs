//! The store contract every implementation keeps: atomic conditional saves,
//! prefix listing, idempotent deletes, keys that cannot escape the root.
//! Run against the local-directory and in-memory stores (the S3 store has
//! its own tests in the aws crate).

use futures_executor::block_on;
use realdrift_core::baseline::{
    BaselineStore, LocalDirStore, MemoryStore, Precondition, StoreError, Version,
};

/// The contract, as one scenario over an empty store.
async fn keeps_the_contract(store: &dyn BaselineStore) {
    let key = "state/App.111111111111.us-east-1.json";
    assert_eq!(store.load(key).await.unwrap(), None, "absent is None");

    let v1 = store
        .save(key, "one\n", Precondition::IfAbsent)
        .await
        .unwrap();
    let loaded = store.load(key).await.unwrap().unwrap();
    assert_eq!(loaded.text, "one\n");
    assert_eq!(loaded.version, v1, "load returns the version save returned");

    // A second create-if-absent loses and writes nothing.
    let again = store.save(key, "two\n", Precondition::IfAbsent).await;
    assert!(
        matches!(again, Err(StoreError::Conflict { .. })),
        "{again:?}"
    );
    assert_eq!(store.load(key).await.unwrap().unwrap().text, "one\n");

    // Optimistic update: only over the version we read.
    let v2 = store
        .save(key, "two\n", Precondition::IfUnchanged(v1.clone()))
        .await
        .unwrap();
    assert_ne!(v1, v2);
    let stale = store
        .save(key, "three\n", Precondition::IfUnchanged(v1))
        .await;
    assert!(
        matches!(stale, Err(StoreError::Conflict { .. })),
        "{stale:?}"
    );
    let gone = store
        .save(
            "state/never-written.json",
            "x",
            Precondition::IfUnchanged(Version::new("whatever")),
        )
        .await;
    assert!(matches!(gone, Err(StoreError::Conflict { .. })), "{gone:?}");
    assert_eq!(store.load(key).await.unwrap().unwrap().text, "two\n");

    // Unconditional saves always win.
    store.save(key, "four\n", Precondition::None).await.unwrap();
    store
        .save(
            "baselines/App.111111111111.us-east-1.json",
            "{}",
            Precondition::None,
        )
        .await
        .unwrap();
    store
        .save("baselines/ignore.yaml", "ignore: []\n", Precondition::None)
        .await
        .unwrap();

    // Listing is by string prefix, sorted.
    assert_eq!(
        store.list("baselines/").await.unwrap(),
        vec![
            "baselines/App.111111111111.us-east-1.json".to_string(),
            "baselines/ignore.yaml".to_string()
        ]
    );
    assert_eq!(store.list("state/").await.unwrap(), vec![key.to_string()]);
    assert_eq!(store.list("").await.unwrap().len(), 3);
    assert!(store.list("index/").await.unwrap().is_empty());

    // Deletes are idempotent.
    store.delete(key).await.unwrap();
    store.delete(key).await.unwrap();
    assert_eq!(store.load(key).await.unwrap(), None);
    assert!(store.list("state/").await.unwrap().is_empty());

    // No key steps outside the store.
    for bad in [
        "",
        "../escape.json",
        "a//b",
        "a/./b",
        "/abs",
        "a\\b",
        "x/..",
    ] {
        assert!(
            matches!(store.load(bad).await, Err(StoreError::BadKey { .. })),
            "{bad:?} accepted by load"
        );
        assert!(
            matches!(
                store.save(bad, "x", Precondition::None).await,
                Err(StoreError::BadKey { .. })
            ),
            "{bad:?} accepted by save"
        );
    }
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("realdrift-store-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn memory_store_keeps_the_contract() {
    block_on(keeps_the_contract(&MemoryStore::new()));
}

#[test]
fn local_store_keeps_the_contract_and_leaves_no_temp_files() {
    let dir = temp_dir("contract");
    block_on(keeps_the_contract(&LocalDirStore::new(&dir)));
    let mut left = Vec::new();
    for sub in ["", "baselines", "state"] {
        for e in std::fs::read_dir(dir.join(sub)).unwrap() {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            if name.ends_with(".tmp") {
                left.push(name);
            }
        }
    }
    assert!(left.is_empty(), "temp files left: {left:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn local_store_sees_edits_made_outside_it() {
    // A baseline edited by hand (or by git) since it was loaded is a conflict.
    let dir = temp_dir("outside");
    let store = LocalDirStore::new(&dir);
    let v = block_on(store.save("App.json", "a\n", Precondition::None)).unwrap();
    std::fs::write(dir.join("App.json"), "edited\n").unwrap();
    let r = block_on(store.save("App.json", "b\n", Precondition::IfUnchanged(v)));
    assert!(matches!(r, Err(StoreError::Conflict { .. })), "{r:?}");
    assert_eq!(
        std::fs::read_to_string(dir.join("App.json")).unwrap(),
        "edited\n"
    );
    // Dot files (a .gitkeep, a stray temp file) are not keys.
    std::fs::write(dir.join(".gitkeep"), "").unwrap();
    assert_eq!(
        block_on(store.list("")).unwrap(),
        vec!["App.json".to_string()]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_conflict_names_the_location_and_the_precondition() {
    let store = MemoryStore::new();
    block_on(store.save("k.json", "x", Precondition::None)).unwrap();
    let e = block_on(store.save("k.json", "y", Precondition::IfAbsent)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "baseline store k.json: only-if-absent does not hold (another writer got there first)"
    );
}

/// A FIFO, a device and an oversized file given as a baseline are refused
/// at once: none is read, none hangs.
#[test]
fn local_store_reads_only_bounded_regular_files() {
    use realdrift_core::baseline::{read_text_file, LocalDirStore, MAX_STORED_BYTES};
    let dir =
        std::env::temp_dir().join(format!("realdrift-store-nonregular-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("App.1.r.json");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.map(|s| s.success()).unwrap_or(false), "mkfifo");
    std::os::unix::fs::symlink("/dev/zero", dir.join("Zero.1.r.json")).unwrap();
    let store = LocalDirStore::new(&dir);
    for key in ["App.1.r.json", "Zero.1.r.json"] {
        let err = futures_executor::block_on(store.load(key)).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("not a regular file") && msg.contains(key),
            "{msg}"
        );
    }
    let big = dir.join("big.json");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(MAX_STORED_BYTES + 1).unwrap();
    let err = read_text_file(&big, MAX_STORED_BYTES).unwrap_err();
    assert!(err.to_string().contains("limit"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
