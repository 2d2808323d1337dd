//! One update cycle over the in-memory store and notifiers: a notice is
//! delivered exactly once even when two runs race on one stack, an SNS
//! failure keeps the notice claimed until a later run delivers it, a Slack
//! failure loses neither the SNS notice nor the state and the next run
//! re-sends the Slack message (a bounded number kept), a newer state file is
//! never overwritten, and secrets never reach the state or a notice.

use futures_executor::block_on;
use futures_util::future::{BoxFuture, FutureExt};
use realdrift_core::baseline::{
    BaselineStore, MemoryStore, Precondition, StackIdentity, StoreError, Stored, Version,
};
use realdrift_core::events::{object_key, Catalog, IndexRow, ResourceIndex};
use realdrift_core::notify::{MemoryNotifier, Notifier};
use realdrift_core::report::{MaskPolicy, StackReport};
use realdrift_core::watch::{
    advance, forget_stack, prune_indexes, stacks_with_state, state_key, update_stack, Channels,
    Claimant, ListStatus, Observation, ReadStatus, SeenResource, StackState, Update, UpdateError,
    GONE_NOTE, MAX_OPTIONAL_OWED,
};
use realdrift_core::{Finding, Tier};
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};

fn identity() -> StackIdentity {
    StackIdentity::new("App", "111111111111", "eu-west-1")
}

fn key() -> String {
    state_key(&identity()).unwrap()
}

fn drifted(actual: &str) -> Finding {
    let mut f = Finding::new(
        Tier::Declared,
        "Data",
        "AWS::S3::Bucket",
        "VersioningConfiguration.Status",
    );
    f.desired = Some(json!("Enabled"));
    f.actual = Some(json!(actual));
    f
}

fn obs(findings: Vec<Finding>) -> Observation {
    Observation {
        identity: identity(),
        template_hash: "h".into(),
        findings,
        resources: [(
            "Data".to_string(),
            SeenResource {
                resource_type: "AWS::S3::Bucket".into(),
                physical_id: Some("data-bucket".into()),
                read: ReadStatus::Read,
                children: ListStatus::None,
                unreadable: false,
            },
        )]
        .into_iter()
        .collect(),
        ..Observation::default()
    }
}

/// An observation in which every queue of `ids` was read, with `findings`.
fn queues_read(ids: &[String], findings: Vec<Finding>) -> Observation {
    Observation {
        resources: ids
            .iter()
            .map(|id| {
                let seen = SeenResource {
                    resource_type: "AWS::SQS::Queue".into(),
                    physical_id: Some(id.to_lowercase()),
                    read: ReadStatus::Read,
                    children: ListStatus::None,
                    unreadable: false,
                };
                (id.clone(), seen)
            })
            .collect(),
        ..obs(findings)
    }
}

fn report(o: &Observation) -> StackReport {
    StackReport {
        stack: "App".into(),
        account_id: Some("111111111111".into()),
        region: "eu-west-1".into(),
        findings: o.findings.clone(),
        ..StackReport::default()
    }
}

fn who(id: &str, now_ms: u64) -> Claimant {
    Claimant {
        id: id.into(),
        now_ms,
        deadline_ms: now_ms + 900_000,
        attempts: 5,
    }
}

fn channels(sns: &Arc<MemoryNotifier>, slack: &Arc<MemoryNotifier>) -> Channels {
    let sns: Arc<dyn Notifier> = sns.clone();
    let slack: Arc<dyn Notifier> = slack.clone();
    Channels {
        required: vec![sns],
        optional: vec![slack],
    }
}

/// One run of the watch cycle: `o` observed by run `run` at `now_ms`, its
/// report rendered from the observation.
fn cycle(
    store: &dyn BaselineStore,
    o: &Observation,
    ch: &Channels,
    run: &str,
    now_ms: u64,
) -> Result<Update, UpdateError> {
    block_on(update_stack(store, o, &report(o), ch, &who(run, now_ms)))
}

fn stored_state(store: &MemoryStore) -> StackState {
    StackState::parse("k", &store.snapshot()[&key()]).unwrap()
}

#[test]
fn new_drift_is_announced_once_and_the_state_advances() {
    let store = MemoryStore::new();
    let sns = Arc::new(MemoryNotifier::new("sns"));
    let slack = Arc::new(MemoryNotifier::new("slack"));
    let ch = channels(&sns, &slack);
    let clean = obs(vec![]);
    let drift = obs(vec![drifted("Suspended")]);
    cycle(&store, &clean, &ch, "r1", 0).unwrap();
    let u = cycle(&store, &drift, &ch, "r2", 1).unwrap();
    assert!(u.written);
    assert_eq!(u.delivered.len(), 1);
    let again = cycle(&store, &drift, &ch, "r3", 2).unwrap();
    assert!(!again.written, "an unchanged state is not rewritten");
    let sent = sns.sent();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0].kind, "drift-detected");
    assert_eq!(
        sent[0].subject,
        "realdrift: drift detected in App (eu-west-1)"
    );
    let doc: Value = serde_json::from_str(&sent[0].document).unwrap();
    assert_eq!(doc["findings"][0]["desired"], "Enabled");
    assert_eq!(doc["findings"][0]["actual"], "Suspended");
    assert_eq!(slack.sent(), sent, "Slack gets the same notices");
    assert!(
        stored_state(&store).outbox.is_empty(),
        "the claim is released"
    );
}

/// A store whose first save is preceded by another writer's update (a
/// concurrent run of the same stack that already announced the drift).
struct RacingStore {
    inner: MemoryStore,
    rival: Mutex<Option<(String, String)>>,
}

impl BaselineStore for RacingStore {
    fn load<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Option<Stored>, StoreError>> {
        self.inner.load(key)
    }
    fn save<'a>(
        &'a self,
        key: &'a str,
        text: &'a str,
        precondition: Precondition,
    ) -> BoxFuture<'a, Result<Version, StoreError>> {
        async move {
            let rival = self.rival.lock().unwrap().take();
            if let Some((k, t)) = rival {
                self.inner.save(&k, &t, Precondition::None).await?;
            }
            self.inner.save(key, text, precondition).await
        }
        .boxed()
    }
    fn list<'a>(&'a self, prefix: &'a str) -> BoxFuture<'a, Result<Vec<String>, StoreError>> {
        self.inner.list(prefix)
    }
    fn delete<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        self.inner.delete(key)
    }
}

#[test]
fn a_run_that_loses_the_write_race_recomputes_and_announces_nothing_twice() {
    let clean = obs(vec![]);
    let drift = obs(vec![drifted("Suspended")]);
    let base = advance(None, &clean).state;
    // The rival saw the same drift and stored it (its notice already sent).
    let rival = advance(Some(&base), &drift).state;
    let store = RacingStore {
        inner: MemoryStore::new(),
        rival: Mutex::new(Some((key(), rival.to_text()))),
    };
    block_on(
        store
            .inner
            .save(&key(), &base.to_text(), Precondition::None),
    )
    .unwrap();
    let sns = Arc::new(MemoryNotifier::new("sns"));
    let slack = Arc::new(MemoryNotifier::new("slack"));
    let u = cycle(&store, &drift, &channels(&sns, &slack), "r", 5).unwrap();
    assert_eq!(u.conflicts, 1, "the first write lost the race");
    assert!(
        u.step.transitions.is_empty(),
        "recomputed against the rival's state"
    );
    assert!(
        sns.sent().is_empty(),
        "the rival announced it; nothing twice"
    );
}

#[test]
fn every_attempt_losing_is_an_error_and_announces_nothing() {
    struct AlwaysConflict(MemoryStore);
    impl BaselineStore for AlwaysConflict {
        fn load<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Option<Stored>, StoreError>> {
            self.0.load(key)
        }
        fn save<'a>(
            &'a self,
            key: &'a str,
            _: &'a str,
            p: Precondition,
        ) -> BoxFuture<'a, Result<Version, StoreError>> {
            async move { Err(StoreError::conflict(key, &p)) }.boxed()
        }
        fn list<'a>(&'a self, prefix: &'a str) -> BoxFuture<'a, Result<Vec<String>, StoreError>> {
            self.0.list(prefix)
        }
        fn delete<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
            self.0.delete(key)
        }
    }
    let drift = obs(vec![drifted("Suspended")]);
    let sns = Arc::new(MemoryNotifier::new("sns"));
    let slack = Arc::new(MemoryNotifier::new("slack"));
    let err = cycle(
        &AlwaysConflict(MemoryStore::new()),
        &drift,
        &channels(&sns, &slack),
        "r",
        0,
    )
    .unwrap_err();
    assert!(
        matches!(err, UpdateError::Contended { attempts: 5, .. }),
        "{err}"
    );
    assert!(sns.sent().is_empty());
}

#[test]
fn an_sns_failure_keeps_the_notice_claimed_until_a_later_run_delivers_it_once() {
    let store = MemoryStore::new();
    let drift = obs(vec![drifted("Suspended")]);
    let down = Arc::new(MemoryNotifier::failing("sns", "ServiceUnavailable"));
    let slack = Arc::new(MemoryNotifier::new("slack"));
    let err = cycle(&store, &drift, &channels(&down, &slack), "r1", 0).unwrap_err();
    assert!(
        matches!(err, UpdateError::Deliver { pending: 1, .. }),
        "{err}"
    );
    assert!(slack.sent().is_empty(), "Slack only after SNS took it");
    assert_eq!(
        stored_state(&store).outbox.len(),
        1,
        "the notice is claimed, not lost"
    );

    let sns = Arc::new(MemoryNotifier::new("sns"));
    let ch = channels(&sns, &slack);
    // Before the first run's deadline its claim is respected.
    cycle(&store, &drift, &ch, "r2", 1_000).unwrap();
    assert!(sns.sent().is_empty());
    // After it, the retry takes the notice over: delivered exactly once.
    let u = cycle(&store, &drift, &ch, "r3", 2_000_000).unwrap();
    assert_eq!(u.delivered.len(), 1);
    cycle(&store, &drift, &ch, "r4", 3_000_000).unwrap();
    assert_eq!(sns.sent().len(), 1);
    assert_eq!(sns.sent()[0].kind, "drift-detected");
    assert!(stored_state(&store).outbox.is_empty());
}

#[test]
fn a_slack_failure_loses_neither_the_sns_notice_nor_the_state() {
    let store = MemoryStore::new();
    let drift = obs(vec![drifted("Suspended")]);
    let sns = Arc::new(MemoryNotifier::new("sns"));
    let slack = Arc::new(MemoryNotifier::failing("slack", "HTTP 500"));
    let u = cycle(&store, &drift, &channels(&sns, &slack), "r", 0).unwrap();
    assert_eq!(u.optional_failures.len(), 1);
    assert_eq!(sns.sent().len(), 1);
    let state = stored_state(&store);
    assert_eq!(state.drift.len(), 1);
    // Kept for Slack only: SNS has it.
    assert_eq!(state.outbox.len(), 1);
    assert!(state.outbox[0].optional_only);
    assert_eq!(state.outbox[0].notices[0].kind, "drift-detected");
}

#[test]
fn a_slack_message_refused_after_retries_is_sent_by_the_next_run_once() {
    let store = MemoryStore::new();
    let drift = obs(vec![drifted("Suspended")]);
    let sns = Arc::new(MemoryNotifier::new("sns"));
    let down = Arc::new(MemoryNotifier::failing("slack", "HTTP 500"));
    cycle(&store, &drift, &channels(&sns, &down), "r1", 0).unwrap();
    // The next run (nothing new to announce), Slack answering again.
    let up = Arc::new(MemoryNotifier::new("slack"));
    for (id, now) in [("r2", 2_000_000), ("r3", 3_000_000)] {
        let u = cycle(&store, &drift, &channels(&sns, &up), id, now).unwrap();
        assert!(u.optional_failures.is_empty());
    }
    let kinds: Vec<String> = up.sent().iter().map(|n| n.kind.clone()).collect();
    assert_eq!(kinds, ["drift-detected"], "re-sent to Slack once");
    assert_eq!(sns.sent().len(), 1, "SNS is not sent it again");
    assert!(stored_state(&store).outbox.is_empty());
}

#[test]
fn a_slack_that_stays_down_keeps_a_bounded_number_of_messages() {
    let store = MemoryStore::new();
    let sns = Arc::new(MemoryNotifier::new("sns"));
    let down = Arc::new(MemoryNotifier::failing("slack", "HTTP 500"));
    for i in 0..(MAX_OPTIONAL_OWED as u64 + 5) {
        let o = obs(vec![drifted(&format!("v{i}"))]);
        cycle(
            &store,
            &o,
            &channels(&sns, &down),
            &format!("r{i}"),
            i * 1_000_000,
        )
        .unwrap();
    }
    let owed: usize = stored_state(&store)
        .outbox
        .iter()
        .map(|e| e.notices.len())
        .sum();
    assert_eq!(owed, MAX_OPTIONAL_OWED);
    assert_eq!(sns.sent().len(), MAX_OPTIONAL_OWED + 5);
}

#[test]
fn a_newer_state_file_is_refused_and_left_alone() {
    let store = MemoryStore::new();
    let newer = advance(None, &obs(vec![]))
        .state
        .to_text()
        .replace("\"version\": 1", "\"version\": 7");
    block_on(store.save(&key(), &newer, Precondition::None)).unwrap();
    let drift = obs(vec![drifted("Suspended")]);
    let sns = Arc::new(MemoryNotifier::new("sns"));
    let slack = Arc::new(MemoryNotifier::new("slack"));
    let err = cycle(&store, &drift, &channels(&sns, &slack), "r", 0).unwrap_err();
    assert!(err.to_string().contains("version 7"), "{err}");
    assert_eq!(store.snapshot()[&key()], newer);
    assert!(sns.sent().is_empty());
}

#[test]
fn secrets_stay_masked_in_state_and_notices() {
    let store = MemoryStore::new();
    let mut f = Finding::new(
        Tier::Declared,
        "Db",
        "AWS::RDS::DBInstance",
        "MasterUserPassword",
    );
    f.desired = Some(json!("{{resolve:secretsmanager:db:SecretString:pw}}"));
    f.actual = Some(json!("hunter2"));
    let mut o = obs(vec![]);
    o.resources.insert(
        "Db".into(),
        SeenResource {
            read: ReadStatus::Read,
            ..SeenResource::default()
        },
    );
    let r = StackReport {
        findings: vec![f],
        masks: MaskPolicy::default().with("Db", "MasterUserPassword"),
        ..report(&o)
    };
    o.findings = r.masked_findings();
    let sns = Arc::new(MemoryNotifier::new("sns"));
    let slack = Arc::new(MemoryNotifier::new("slack"));
    block_on(update_stack(
        &store,
        &o,
        &r,
        &channels(&sns, &slack),
        &who("r", 0),
    ))
    .unwrap();
    let everything = format!("{:?}{:?}{:?}", store.snapshot(), sns.sent(), slack.sent());
    assert!(!everything.contains("hunter2"), "{everything}");
    assert!(everything.contains("***"));
}

#[test]
fn each_scan_replaces_only_its_own_rows_of_the_resource_index() {
    use realdrift_core::declared::DeclaredValue;
    use realdrift_core::events::{Catalog, IndexInput, ResourceIndex};
    use realdrift_core::watch::{update_index, StackRows};
    use std::collections::BTreeMap;
    let store = MemoryStore::new();
    let catalog = Catalog::bundled().unwrap();
    let declared: BTreeMap<String, DeclaredValue> = BTreeMap::new();
    let row = |stack: &'static str, id: &'static str, pid: &'static str| IndexInput {
        stack,
        logical_id: id,
        resource_type: "AWS::SQS::Queue",
        physical_id: pid,
        declared: &declared,
    };
    let at = ("111111111111", "eu-west-1");
    let a1 = "https://sqs.eu-west-1.amazonaws.com/111111111111/a1";
    let b1 = "https://sqs.eu-west-1.amazonaws.com/111111111111/b1";
    let a2 = "https://sqs.eu-west-1.amazonaws.com/111111111111/a2";
    block_on(update_index(
        &store,
        catalog,
        at,
        "A",
        &StackRows::resources(vec![row("A", "Q1", a1)]),
        3,
    ))
    .unwrap();
    block_on(update_index(
        &store,
        catalog,
        at,
        "B",
        &StackRows::resources(vec![row("B", "Q1", b1)]),
        3,
    ))
    .unwrap();
    assert!(block_on(update_index(
        &store,
        catalog,
        at,
        "A",
        &StackRows::resources(vec![row("A", "Q2", a2)]),
        3
    ))
    .unwrap());
    assert!(
        !block_on(update_index(
            &store,
            catalog,
            at,
            "A",
            &StackRows::resources(vec![row("A", "Q2", a2)]),
            3
        ))
        .unwrap(),
        "unchanged: not rewritten"
    );
    let key = "index/111111111111.eu-west-1.json";
    let index = ResourceIndex::from_json(key, store.snapshot()[key].as_bytes()).unwrap();
    let rows: Vec<(&str, &str)> = index
        .resources
        .iter()
        .map(|r| (r.stack.as_str(), r.logical_id.as_str()))
        .collect();
    assert_eq!(rows, vec![("A", "Q2"), ("B", "Q1")]);
    assert_eq!(
        index.resources[0].forms.get("name").map(String::as_str),
        Some("a2")
    );
    // Another schema version is refused and left alone.
    let newer = store.snapshot()[key].replace("\"schemaVersion\": 1", "\"schemaVersion\": 2");
    block_on(store.save(key, &newer, Precondition::None)).unwrap();
    assert!(block_on(update_index(
        &store,
        catalog,
        at,
        "A",
        &StackRows::default(),
        3
    ))
    .is_err());
    assert_eq!(store.snapshot()[key], newer);
}

/// A store counting the loads and saves of each key; before its first
/// save it may let a rival write (another scan finishing in between).
#[derive(Default)]
struct CountingStore {
    inner: MemoryStore,
    loads: Mutex<Vec<String>>,
    saves: Mutex<Vec<String>>,
    rival: Mutex<Option<(String, String)>>,
}

impl CountingStore {
    /// (loads, saves) of `key` so far, saves counting refused ones too.
    fn calls(&self, key: &str) -> (usize, usize) {
        let n = |v: &Mutex<Vec<String>>| v.lock().unwrap().iter().filter(|k| *k == key).count();
        (n(&self.loads), n(&self.saves))
    }
}

impl BaselineStore for CountingStore {
    fn load<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Option<Stored>, StoreError>> {
        self.loads.lock().unwrap().push(key.to_string());
        self.inner.load(key)
    }
    fn save<'a>(
        &'a self,
        key: &'a str,
        text: &'a str,
        precondition: Precondition,
    ) -> BoxFuture<'a, Result<Version, StoreError>> {
        self.saves.lock().unwrap().push(key.to_string());
        async move {
            let rival = self.rival.lock().unwrap().take();
            if let Some((k, t)) = rival {
                self.inner.save(&k, &t, Precondition::None).await?;
            }
            self.inner.save(key, text, precondition).await
        }
        .boxed()
    }
    fn list<'a>(&'a self, prefix: &'a str) -> BoxFuture<'a, Result<Vec<String>, StoreError>> {
        self.inner.list(prefix)
    }
    fn delete<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        self.inner.delete(key)
    }
}

/// Queue rows of `stack` (logical id, queue name), as a scan gathers them.
fn queue_rows<'a>(
    stack: &'a str,
    queues: &'a [(&'a str, String)],
    declared: &'a std::collections::BTreeMap<String, realdrift_core::declared::DeclaredValue>,
) -> realdrift_core::watch::StackRows<'a> {
    realdrift_core::watch::StackRows::resources(
        queues
            .iter()
            .map(|(id, url)| realdrift_core::events::IndexInput {
                stack,
                logical_id: id,
                resource_type: "AWS::SQS::Queue",
                physical_id: url,
                declared,
            })
            .collect(),
    )
}

fn queue_url(name: &str) -> String {
    format!("https://sqs.eu-west-1.amazonaws.com/111111111111/{name}")
}

/// Issue 45 §5: the index is one object per account and Region, rewritten
/// by every stack's scan; a scan whose rows are unchanged reads it and
/// writes nothing (each PUT is billed and leaves a noncurrent version).
#[test]
fn a_scan_whose_rows_are_unchanged_reads_the_index_and_puts_nothing() {
    use realdrift_core::watch::update_index;
    let store = CountingStore::default();
    let catalog = Catalog::bundled().unwrap();
    let declared = std::collections::BTreeMap::new();
    let at = ("111111111111", "eu-west-1");
    let key = object_key(at.0, at.1);
    let a = [("Q1", queue_url("a1"))];
    let b = [("Q1", queue_url("b1"))];
    let scan = |stack, queues| {
        block_on(update_index(
            &store,
            catalog,
            at,
            stack,
            &queue_rows(stack, queues, &declared),
            3,
        ))
        .unwrap()
    };
    assert!(scan("A", &a) && scan("B", &b), "new rows are written");
    assert_eq!(store.calls(&key), (2, 2));
    // Every later hourly scan of either stack: one GET each, no PUT.
    for _ in 0..3 {
        assert!(!scan("A", &a) && !scan("B", &b));
    }
    assert_eq!(store.calls(&key), (8, 2));
    // A deploy that replaced A's queue changes A's rows: one PUT.
    let a2 = [("Q1", queue_url("a2"))];
    assert!(scan("A", &a2));
    assert_eq!(store.calls(&key), (9, 3));
    assert!(!scan("B", &b), "B's rows did not change");
    assert_eq!(store.calls(&key), (10, 3));
}

/// The concurrency the conditional write exists for, with the skip: a scan
/// that loses the race re-reads and keeps the rival's rows, and a retry
/// that finds its rows already written (the rival scanned the same stack)
/// puts nothing more.
#[test]
fn a_scan_that_loses_the_index_race_keeps_the_rivals_rows_and_puts_only_a_change() {
    use realdrift_core::watch::update_index;
    let catalog = Catalog::bundled().unwrap();
    let declared = std::collections::BTreeMap::new();
    let at = ("111111111111", "eu-west-1");
    let key = object_key(at.0, at.1);
    let a = [("Q1", queue_url("a1"))];
    let b = [("Q1", queue_url("b1"))];
    // The texts the rival scans leave: B's rows alone, and A's rows alone.
    let written = |stack, queues| {
        let scratch = MemoryStore::new();
        block_on(update_index(
            &scratch,
            catalog,
            at,
            stack,
            &queue_rows(stack, queues, &declared),
            1,
        ))
        .unwrap();
        scratch.snapshot()[&key].clone()
    };
    // B's scan finishes between A's GET and PUT of the absent index.
    let store = CountingStore::default();
    *store.rival.lock().unwrap() = Some((key.clone(), written("B", &b)));
    let put = block_on(update_index(
        &store,
        catalog,
        at,
        "A",
        &queue_rows("A", &a, &declared),
        3,
    ))
    .unwrap();
    assert!(put);
    assert_eq!(store.calls(&key), (2, 2), "one refused PUT, one retry");
    let index = ResourceIndex::from_json(&key, store.inner.snapshot()[&key].as_bytes()).unwrap();
    let stacks: Vec<&str> = index.resources.iter().map(|r| r.stack.as_str()).collect();
    assert_eq!(stacks, vec!["A", "B"], "the rival's rows are kept");
    // Another scan of A writes A's very rows first: the retry puts nothing.
    let store = CountingStore::default();
    *store.rival.lock().unwrap() = Some((key.clone(), written("A", &a)));
    let put = block_on(update_index(
        &store,
        catalog,
        at,
        "A",
        &queue_rows("A", &a, &declared),
        3,
    ))
    .unwrap();
    assert!(!put, "the rows were there when it retried");
    assert_eq!(store.calls(&key), (2, 1), "the refused PUT only");
}

fn index_text(stacks: &[&str]) -> String {
    let mut index = ResourceIndex::new("111111111111", "eu-west-1");
    for s in stacks {
        index.resources.push(IndexRow {
            stack: s.to_string(),
            logical_id: "Data".into(),
            resource_type: "AWS::S3::Bucket".into(),
            ..IndexRow::default()
        });
    }
    index.sort();
    index.to_json()
}

fn index_stacks(store: &MemoryStore) -> Vec<String> {
    let text = &store.snapshot()[&object_key("111111111111", "eu-west-1")];
    let index = ResourceIndex::from_json("k", text.as_bytes()).unwrap();
    index.resources.iter().map(|r| r.stack.clone()).collect()
}

#[test]
fn a_gone_stack_is_announced_once_and_its_state_and_index_rows_removed() {
    let store = MemoryStore::new();
    let sns = Arc::new(MemoryNotifier::new("sns"));
    let slack = Arc::new(MemoryNotifier::new("slack"));
    let ch = channels(&sns, &slack);
    let drift = obs(vec![drifted("Suspended")]);
    cycle(&store, &drift, &ch, "r1", 0).unwrap();
    let index_key = object_key("111111111111", "eu-west-1");
    block_on(store.save(
        &index_key,
        &index_text(&["App", "Other"]),
        Precondition::None,
    ))
    .unwrap();
    let catalog = Catalog::bundled().unwrap();
    let before = sns.sent().len();
    let sent = block_on(forget_stack(&store, catalog, "App", "eu-west-1", &ch)).unwrap();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].kind, "coverage-lost");
    assert!(sent[0].document.contains(GONE_NOTE), "{}", sent[0].document);
    assert_eq!(sns.sent().len(), before + 1);
    assert!(!store.snapshot().contains_key(&key()), "state removed");
    assert_eq!(index_stacks(&store), vec!["Other".to_string()]);
    let again = block_on(forget_stack(&store, catalog, "App", "eu-west-1", &ch)).unwrap();
    assert!(again.is_empty(), "said once");
    assert_eq!(sns.sent().len(), before + 1);
}

#[test]
fn pruning_keeps_only_the_rows_of_stacks_that_still_exist() {
    let store = MemoryStore::new();
    let index_key = object_key("111111111111", "eu-west-1");
    block_on(store.save(
        &index_key,
        &index_text(&["App", "Gone", "Nested-Child"]),
        Precondition::None,
    ))
    .unwrap();
    let other_region = object_key("111111111111", "us-east-1");
    block_on(store.save(&other_region, "not read", Precondition::None)).unwrap();
    let catalog = Catalog::bundled().unwrap();
    let keep = |s: &str| s != "Gone";
    let removed = block_on(prune_indexes(&store, catalog, "eu-west-1", &keep)).unwrap();
    assert_eq!(removed, vec!["Gone".to_string()]);
    assert_eq!(index_stacks(&store), vec!["App", "Nested-Child"]);
    let drift = obs(vec![]);
    let sns = Arc::new(MemoryNotifier::new("sns"));
    let ch = channels(&sns, &sns);
    cycle(&store, &drift, &ch, "r1", 0).unwrap();
    assert_eq!(
        block_on(stacks_with_state(&store, "eu-west-1")).unwrap(),
        vec!["App".to_string()]
    );
    assert!(block_on(stacks_with_state(&store, "us-east-1"))
        .unwrap()
        .is_empty());
}

/// A storm: one person changes 25 resources of one stack out of band and
/// on-change re-reads them in one batch. One alert per channel names them,
/// the first ten and how many more, not 25 alerts.
#[test]
fn a_storm_of_changes_to_one_stack_is_one_alert_listing_the_resources() {
    let store = MemoryStore::new();
    let sns = Arc::new(MemoryNotifier::new("sns"));
    let slack = Arc::new(MemoryNotifier::new("slack"));
    let ch = channels(&sns, &slack);
    let ids: Vec<String> = (1..=25).map(|i| format!("Queue{i:02}")).collect();
    let of = |findings: Vec<Finding>| queues_read(&ids, findings);
    let clean = of(vec![]);
    cycle(&store, &clean, &ch, "r1", 0).unwrap();
    let changed: Vec<Finding> = ids
        .iter()
        .map(|id| {
            let mut f = Finding::new(Tier::Declared, id, "AWS::SQS::Queue", "DelaySeconds");
            f.desired = Some(json!(0));
            f.actual = Some(json!(30));
            f
        })
        .collect();
    let storm = of(changed).limited_to(ids.iter().cloned().collect());
    cycle(&store, &storm, &ch, "r2", 1).unwrap();
    let sent = sns.sent();
    assert_eq!(sent.len(), 1, "one alert: {sent:?}");
    let doc: Value = serde_json::from_str(&sent[0].document).unwrap();
    assert_eq!(doc["kind"], "drift-detected");
    assert_eq!(doc["findings"].as_array().map(Vec::len), Some(25));
    assert_eq!(doc["resources"]["count"], 25);
    assert_eq!(doc["resources"]["names"][0], "Queue01");
    assert_eq!(doc["resources"]["names"].as_array().map(Vec::len), Some(10));
    assert_eq!(doc["resources"]["more"], 15);
    let posted = slack.sent();
    assert_eq!(posted.len(), 1);
    let text = posted[0].slack.to_string();
    assert!(
        text.contains("25 resources: Queue01, Queue02, Queue03, Queue04, Queue05, Queue06, Queue07, Queue08, Queue09, Queue10 and 15 more"),
        "{text}"
    );
}

/// A storm over several invocations: 200 resources changed out of band,
/// re-read by four on-change batches 10 s apart, are held in the state
/// file (each cycle loads what the previous one stored) and announced in
/// one alert by the first check after a quiet window (five minutes by
/// default; the flush: a scoped re-check with nothing to read).
#[test]
fn a_storm_over_several_batches_is_one_alert_after_a_quiet_window() {
    let store = MemoryStore::new();
    let sns = Arc::new(MemoryNotifier::new("sns"));
    let slack = Arc::new(MemoryNotifier::new("slack"));
    let ch = channels(&sns, &slack);
    let ids: Vec<String> = (1..=200).map(|i| format!("Queue{i:03}")).collect();
    let of = |findings: Vec<Finding>| queues_read(&ids, findings);
    const T0: u64 = 1_800_000_000_000;
    cycle(&store, &of(vec![]).read_at(T0), &ch, "scan", T0).unwrap();
    for (i, chunk) in ids.chunks(50).enumerate() {
        let changed: Vec<Finding> = chunk
            .iter()
            .map(|id| {
                let mut f = Finding::new(Tier::Declared, id, "AWS::SQS::Queue", "DelaySeconds");
                f.desired = Some(json!(0));
                f.actual = Some(json!(30));
                f
            })
            .collect();
        let at = T0 + (i as u64 + 1) * 10_000;
        let batch = of(changed)
            .limited_to(chunk.iter().cloned().collect())
            .read_at(at);
        cycle(&store, &batch, &ch, &format!("batch-{i}"), at).unwrap();
    }
    assert!(sns.sent().is_empty(), "held: {:?}", sns.sent());
    let held = stored_state(&store).storm.and_then(|s| s.open).unwrap();
    assert_eq!(held.held.len(), 200);
    // Still within the window of the last batch: nothing yet.
    let early = T0 + 40_000 + 299_000;
    let flush = |at: u64| of(vec![]).limited_to(Default::default()).read_at(at);
    cycle(&store, &flush(early), &ch, "flush-early", early).unwrap();
    assert!(sns.sent().is_empty());
    let quiet = T0 + 40_000 + 300_000;
    cycle(&store, &flush(quiet), &ch, "flush", quiet).unwrap();
    let sent = sns.sent();
    assert_eq!(sent.len(), 1, "one alert: {sent:?}");
    let doc: Value = serde_json::from_str(&sent[0].document).unwrap();
    assert_eq!(doc["kind"], "drift-detected");
    assert_eq!(doc["findings"].as_array().map(Vec::len), Some(200));
    assert_eq!(doc["resources"]["count"], 200);
    assert_eq!(doc["storm"]["changes"], 200);
    assert_eq!(doc["storm"]["from"], "2027-01-15T08:00:10Z");
    assert_eq!(doc["storm"]["to"], "2027-01-15T08:00:40Z");
    let text = sent[0].text.as_deref().unwrap_or_default();
    assert!(
        text.contains("Storm: 200 changes to 200 resources within 1 min"),
        "{text}"
    );
    assert!(text.contains("… and 175 more"), "{text}");
    assert_eq!(slack.sent().len(), 1);
    assert_eq!(stored_state(&store).storm, None, "closed and forgotten");
    assert_eq!(stored_state(&store).drift.len(), 200, "the drift stands");
}
