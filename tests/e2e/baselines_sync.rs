//! `realdrift baselines sync` against the emulator's S3: the first sync
//! uploads, the second writes nothing, a local edit and removal become an
//! update and a delete, the dry run writes nothing, a broken or stray file
//! refuses the whole sync, and nothing outside `baselines/` is touched.
//!
//! The bucket is inspected with the AWS SDK. It is versioned, as the deployed
//! bucket is, so "nothing written" is checked on the version history itself
//! (a rewrite of identical bytes would still add a version).

use crate::scenarios::Scenario;
use crate::world::{World, ACCOUNT};
use aws_sdk_s3::config::{BehaviorVersion, Credentials, Region};
use aws_sdk_s3::types::{BucketVersioningStatus, VersioningConfiguration};
use serde_json::Value;
use std::collections::BTreeMap;

/// The sync scenarios, in run order.
pub const ALL: &[Scenario] = &[
    Scenario {
        name: "baselines_sync_mirrors_git_to_s3",
        run: baselines_sync_mirrors_git_to_s3,
    },
    Scenario {
        name: "baselines_sync_refuses_a_broken_file",
        run: baselines_sync_refuses_a_broken_file,
    },
];

const BUCKET: &str = "realdrift-sync";

/// Objects of the other prefixes (and one that merely starts with "baselines").
const OTHERS: &[(&str, &str)] = &[
    (
        "state/App.123456789012.us-east-1.json",
        "{\"findings\": []}",
    ),
    ("index/123456789012.us-east-1.json", "{}"),
    ("cache/schemas/AWS-S3-Bucket.json", "{}"),
    ("baselines-old/App.123456789012.us-east-1.json", "{}"),
];

/// The S3 side of a scenario, on its own runtime.
struct Bucket {
    rt: tokio::runtime::Runtime,
    s3: aws_sdk_s3::Client,
}

/// Every version of every key: (key, version id, latest, delete marker).
type History = Vec<(String, String, bool, bool)>;

impl Bucket {
    fn new(w: &World) -> Bucket {
        let env = w.emu.env();
        let config = aws_sdk_s3::Config::builder()
            .behavior_version(BehaviorVersion::latest())
            .region(Region::new(env["AWS_REGION"].clone()))
            .endpoint_url(env["AWS_ENDPOINT_URL"].clone())
            .credentials_provider(Credentials::new(
                &env["AWS_ACCESS_KEY_ID"],
                &env["AWS_SECRET_ACCESS_KEY"],
                None,
                None,
                "e2e",
            ))
            .force_path_style(true)
            .build();
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        Bucket {
            rt,
            s3: aws_sdk_s3::Client::from_conf(config),
        }
    }

    /// Creates the versioned bucket with the other prefixes' objects.
    fn create(&self) {
        self.rt.block_on(async {
            self.s3
                .create_bucket()
                .bucket(BUCKET)
                .send()
                .await
                .expect("create bucket");
            let enabled = VersioningConfiguration::builder()
                .status(BucketVersioningStatus::Enabled)
                .build();
            self.s3
                .put_bucket_versioning()
                .bucket(BUCKET)
                .versioning_configuration(enabled)
                .send()
                .await
                .expect("enable versioning");
        });
        for (key, text) in OTHERS {
            self.put(key, text);
        }
    }

    fn put(&self, key: &str, text: &str) {
        let body = text.as_bytes().to_vec().into();
        self.rt
            .block_on(
                self.s3
                    .put_object()
                    .bucket(BUCKET)
                    .key(key)
                    .body(body)
                    .send(),
            )
            .unwrap_or_else(|e| panic!("put {key}: {e:?}"));
    }

    /// The current objects and their texts.
    fn objects(&self) -> BTreeMap<String, String> {
        self.rt.block_on(async {
            let listed = self
                .s3
                .list_objects_v2()
                .bucket(BUCKET)
                .send()
                .await
                .expect("list");
            let mut out = BTreeMap::new();
            for key in listed.contents().iter().filter_map(|o| o.key()) {
                let got = self
                    .s3
                    .get_object()
                    .bucket(BUCKET)
                    .key(key)
                    .send()
                    .await
                    .expect("get");
                let bytes = got.body.collect().await.expect("body").into_bytes();
                out.insert(
                    key.to_string(),
                    String::from_utf8_lossy(&bytes).into_owned(),
                );
            }
            out
        })
    }

    /// Every version and delete marker in the bucket.
    fn history(&self) -> History {
        let out = self
            .rt
            .block_on(self.s3.list_object_versions().bucket(BUCKET).send())
            .expect("list versions");
        let mut h: History = out
            .versions()
            .iter()
            .map(|v| {
                let key = v.key().unwrap_or_default().to_string();
                let id = v.version_id().unwrap_or_default().to_string();
                (key, id, v.is_latest().unwrap_or(false), false)
            })
            .chain(out.delete_markers().iter().map(|d| {
                let key = d.key().unwrap_or_default().to_string();
                let id = d.version_id().unwrap_or_default().to_string();
                (key, id, d.is_latest().unwrap_or(false), true)
            }))
            .collect();
        h.sort();
        h
    }
}

fn baseline(stack: &str, note: &str) -> String {
    format!(
        "{{\n  \"accountId\": \"{ACCOUNT}\",\n  \"capturedAt\": \"{note}\",\n  \"recorded\": [],\n  \"region\": \"us-east-1\",\n  \"schemaVersion\": 2,\n  \"stackName\": \"{stack}\"\n}}\n"
    )
}

fn name(stack: &str) -> String {
    format!("{stack}.{ACCOUNT}.us-east-1.json")
}

const IGNORE: &str =
    "# why: the platform team rotates it\nignore:\n  - path: 'Data/Resource.Tags'\n";

fn write_local(w: &World, file: &str, text: &str) {
    let dir = w.dir.join("baselines");
    std::fs::create_dir_all(&dir).expect("baselines dir");
    std::fs::write(dir.join(file), text).expect("write a local file");
}

fn sync_json(w: &World, extra: &[&str]) -> Value {
    let mut args = vec!["baselines", "sync", "--bucket", BUCKET, "--json"];
    args.extend_from_slice(extra);
    let run = w.realdrift(&args);
    run.expect_code(0);
    run.json()
}

fn keys(doc: &Value, field: &str) -> Vec<String> {
    doc[field]
        .as_array()
        .unwrap_or_else(|| panic!("{field} in {doc}"))
        .iter()
        .filter_map(|k| k.as_str().map(str::to_string))
        .collect()
}

/// The objects outside baselines/, as they were created.
fn assert_others_untouched(b: &Bucket) {
    let objects = b.objects();
    for (key, text) in OTHERS {
        assert_eq!(objects.get(*key).map(String::as_str), Some(*text), "{key}");
    }
    let versions = b.history();
    for (key, _) in OTHERS {
        let n = versions.iter().filter(|v| v.0 == *key).count();
        assert_eq!(n, 1, "{key} was written: {versions:?}");
    }
}

fn baselines_sync_mirrors_git_to_s3(w: &World) {
    let b = Bucket::new(w);
    b.create();
    let (a, c) = (name("AppA"), name("AppC"));
    write_local(w, &a, &baseline("AppA", "v1"));
    write_local(w, &c, &baseline("AppC", "v1"));
    write_local(w, "ignore.yaml", IGNORE);
    write_local(w, ".gitkeep", "");

    // A dry run plans the uploads and writes nothing.
    let before = b.history();
    let dry = sync_json(w, &["--dry-run"]);
    assert_eq!(dry["dryRun"], true);
    let expected: Vec<String> = [&a, &c, "ignore.yaml"]
        .iter()
        .map(|k| format!("baselines/{k}"))
        .collect();
    assert_eq!(keys(&dry, "uploaded"), expected);
    assert_eq!(b.history(), before, "the dry run wrote");

    // The first sync uploads exactly the checkout (not the placeholder).
    let first = sync_json(w, &[]);
    assert_eq!(
        b.history().len(),
        before.len() + 3,
        "one new version per upload"
    );
    assert_eq!(
        (first["dryRun"].clone(), first["complete"].clone()),
        (false.into(), true.into())
    );
    assert_eq!(keys(&first, "uploaded"), expected);
    let objects = b.objects();
    assert_eq!(objects[&format!("baselines/{a}")], baseline("AppA", "v1"));
    assert_eq!(objects["baselines/ignore.yaml"], IGNORE);
    assert!(!objects.contains_key("baselines/.gitkeep"));
    assert_others_untouched(&b);

    // The second is a no-op: every key unchanged, not one new version.
    let before = b.history();
    let second = sync_json(w, &[]);
    assert_eq!(keys(&second, "unchanged"), expected);
    for field in ["uploaded", "updated", "deleted"] {
        assert!(keys(&second, field).is_empty(), "{field}: {second}");
    }
    assert_eq!(b.history(), before, "a no-op sync wrote");

    // Edit one, remove one: the dry run (text) says so and writes nothing...
    write_local(w, &a, &baseline("AppA", "v2"));
    std::fs::remove_file(w.dir.join("baselines").join(&c)).expect("remove a baseline");
    let dry = w.realdrift(&["baselines", "sync", "--bucket", BUCKET, "--dry-run"]);
    dry.expect_code(0);
    assert!(
        dry.stdout.starts_with(&format!(
            "s3://{BUCKET}/baselines/: dry run, nothing written: 0 upload, 1 update, 1 delete, 1 unchanged\n"
        )),
        "{}",
        dry.stdout
    );
    assert!(
        dry.stdout
            .contains(&format!("  update     baselines/{a}\n")),
        "{}",
        dry.stdout
    );
    assert!(
        dry.stdout
            .contains(&format!("  delete     baselines/{c}\n")),
        "{}",
        dry.stdout
    );
    assert_eq!(b.history(), before, "the dry run wrote");

    // ... and the sync updates and deletes.
    let run = w.realdrift(&["baselines", "sync", "--bucket", BUCKET]);
    run.expect_code(0);
    assert!(
        run.stdout.starts_with(&format!(
            "s3://{BUCKET}/baselines/: 0 uploaded, 1 updated, 1 deleted, 1 unchanged\n"
        )),
        "{}",
        run.stdout
    );
    let objects = b.objects();
    assert_eq!(objects[&format!("baselines/{a}")], baseline("AppA", "v2"));
    assert!(!objects.contains_key(&format!("baselines/{c}")));
    let marker = b
        .history()
        .into_iter()
        .find(|v| v.0 == format!("baselines/{c}") && v.3);
    assert!(marker.is_some(), "the delete left no delete marker");
    assert_eq!(objects["baselines/ignore.yaml"], IGNORE);
    assert_others_untouched(&b);
}

fn baselines_sync_refuses_a_broken_file(w: &World) {
    let b = Bucket::new(w);
    b.create();
    let a = name("AppA");
    write_local(w, &a, &baseline("AppA", "v1"));
    sync_json(w, &[]);

    // A valid edit beside a broken baseline, a misnamed one and a stray file:
    // all three are named, nothing is written (not even the valid edit).
    write_local(w, &a, &baseline("AppA", "v2"));
    write_local(w, &name("Broken"), "{\n  \"stackName\": \"Broken\",\n");
    write_local(w, &name("Renamed"), &baseline("AppA", "v1"));
    write_local(w, "notes.txt", "todo\n");
    let before = b.history();
    for extra in [&[][..], &["--dry-run"][..]] {
        let mut args = vec!["baselines", "sync", "--bucket", BUCKET];
        args.extend_from_slice(extra);
        let run = w.realdrift(&args);
        run.expect_code(2);
        assert_eq!(run.stdout, "", "a refused sync prints no plan");
        let refused: Vec<&str> = run
            .stderr
            .lines()
            .filter(|l| l.starts_with("refused: "))
            .collect();
        assert_eq!(refused.len(), 3, "{}", run.stderr);
        assert!(
            refused[0].contains(&format!(
                "{}: does not parse as a baseline: EOF",
                name("Broken")
            )),
            "{}",
            refused[0]
        );
        assert!(
            refused[1].contains(&format!(
                "{}: its name does not match its content",
                name("Renamed")
            )),
            "{}",
            refused[1]
        );
        assert!(
            refused[2].contains("notes.txt: not a baseline file"),
            "{}",
            refused[2]
        );
        assert!(run.stderr.contains("nothing was written"), "{}", run.stderr);
    }
    assert_eq!(b.history(), before, "a refused sync wrote");
    assert_eq!(
        b.objects()[&format!("baselines/{a}")],
        baseline("AppA", "v1")
    );
    assert_others_untouched(&b);
}
