//! A seconds-long smoke of every fuzz target (`realdrift_core::fuzzing`):
//! real seed files, then random mutations of them, through each parser.
//! The million-input runs are `scripts/fuzz.sh` (cargo-fuzz, docs/fuzzing.md);
//! this keeps every target compiling and catches the easy regressions in
//! `cargo test`.

use proptest::prelude::*;
use realdrift_core::fuzzing;

const TEMPLATES: &[&str] = &[
    include_str!("fixtures/templates/cdk-app.json"),
    include_str!("fixtures/templates/handwritten.yaml"),
    include_str!("../../tests/fixtures/templates/orders-service.yaml"),
    include_str!("../../tests/fixtures/templates/storage.yaml"),
];

const BASELINES: &[&str] = &[
    include_str!("fixtures/baselines/CdkRealDriftIntegS3NotifRich.111111111111.us-east-1.json"),
    include_str!("fixtures/baselines/legacy-v1.json"),
];

const IGNORES: &[&str] = &[
    "ignore:\n  - path: '*.DesiredCount'\n  - path: Fn*.Reserved\n    stack: Prod*\n    account: '0123'\n",
    "# c\nignore: [{path: 'a\\u0041*'}]\n",
    "ignore:\n- path: \"T[\\u202e]\"\n  region: us-*\n",
];

const MODELS: &[&str] = &[
    r#"{"BucketName":"b","VersioningConfiguration":{"Status":"Enabled"},"Tags":[{"Key":"k","Value":"v"}]}"#,
    r#"{"QueueName":"q","VisibilityTimeout":30,"RedrivePolicy":{"maxReceiveCount":"5"}}"#,
    r#"{"RoleName":"r","AssumeRolePolicyDocument":{"Statement":[{"Effect":"Allow","Principal":{"Service":"lambda.amazonaws.com"},"Action":"sts:AssumeRole"}]},"Policies":[{"PolicyName":"p","PolicyDocument":{}}]}"#,
];

const EVENTS: &[&str] = &[
    include_str!("../../fuzz/seeds/cloudtrail_event/00-PutBucketEncryption.json"),
    include_str!("../../fuzz/seeds/cloudtrail_event/02-DeleteBucketTagging.json"),
];

/// A seed with byte edits applied: (position, kind, byte).
fn mutated(seed: &str, edits: &[(usize, u8, u8)]) -> Vec<u8> {
    let mut b = seed.as_bytes().to_vec();
    for &(pos, kind, byte) in edits {
        let at = if b.is_empty() { 0 } else { pos % (b.len() + 1) };
        match kind % 4 {
            0 if at < b.len() => b[at] = byte,
            1 => b.insert(at, byte),
            2 if at < b.len() => {
                b.remove(at);
            }
            // Splice a structural character, the likeliest to change a parse.
            _ => {
                const STRUCTURAL: &[u8] = b"{}[]:,-\"'!&*|>\n #\\";
                b.insert(at, STRUCTURAL[usize::from(byte) % STRUCTURAL.len()]);
            }
        }
    }
    b
}

fn edits() -> impl Strategy<Value = Vec<(usize, u8, u8)>> {
    prop::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 0..12)
}

#[test]
fn seeds_pass_every_target() {
    for t in TEMPLATES {
        fuzzing::template_json(t.as_bytes());
        fuzzing::template_yaml(t.as_bytes());
    }
    for b in BASELINES {
        fuzzing::baseline_file(b.as_bytes());
    }
    for i in IGNORES {
        fuzzing::ignore_file(i.as_bytes());
    }
    for e in EVENTS {
        fuzzing::cloudtrail_event(e.as_bytes());
    }
    for (n, m) in MODELS.iter().enumerate() {
        for pick in 0..16u8 {
            let mut data = vec![pick.wrapping_add(n as u8)];
            data.extend_from_slice(m.as_bytes());
            fuzzing::cloudcontrol_model(&data);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn templates_survive_mutation(seed in 0..TEMPLATES.len(), e in edits()) {
        let data = mutated(TEMPLATES[seed], &e);
        fuzzing::template_json(&data);
        fuzzing::template_yaml(&data);
    }

    #[test]
    fn baselines_survive_mutation(seed in 0..BASELINES.len(), e in edits()) {
        fuzzing::baseline_file(&mutated(BASELINES[seed], &e));
    }

    #[test]
    fn ignore_files_survive_mutation(seed in 0..IGNORES.len(), e in edits()) {
        fuzzing::ignore_file(&mutated(IGNORES[seed], &e));
    }

    #[test]
    fn cloudcontrol_models_survive_mutation(seed in 0..MODELS.len(), pick in any::<u8>(), e in edits()) {
        let mut data = vec![pick];
        data.extend(mutated(MODELS[seed], &e));
        fuzzing::cloudcontrol_model(&data);
    }

    #[test]
    fn cloudtrail_events_survive_mutation(seed in 0..EVENTS.len(), e in edits()) {
        fuzzing::cloudtrail_event(&mutated(EVENTS[seed], &e));
    }

    #[test]
    fn arbitrary_bytes_pass_every_target(data in prop::collection::vec(any::<u8>(), 0..256)) {
        fuzzing::template_json(&data);
        fuzzing::template_yaml(&data);
        fuzzing::baseline_file(&data);
        fuzzing::ignore_file(&data);
        fuzzing::cloudcontrol_model(&data);
        fuzzing::cloudtrail_event(&data);
    }
}
