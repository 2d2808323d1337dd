mod classify_support;
use classify_support::resource_with_id;
use realdrift_core::classify::{classify_with, ClassifyContext, Knowledge};
use realdrift_core::schema::{BundledSchemas, SchemaSource};
use serde_json::Value;

#[test]
fn probe() {
    let text = std::fs::read_to_string("/tmp/probes.json").unwrap();
    let probes: Vec<Value> = serde_json::from_str(&text).unwrap();
    let ctx = ClassifyContext {
        account_id: Some("123456789012".into()),
        region: Some("eu-central-1".into()),
        stack_name: Some("Stack".into()),
        ..ClassifyContext::default()
    };
    for p in probes {
        let t = p["type"].as_str().unwrap();
        let r = resource_with_id(
            t,
            p.get("id").and_then(|v| v.as_str()).unwrap_or("res-0123"),
            &p["declared"],
        );
        let facts = BundledSchemas::shared()
            .ok()
            .and_then(|b| b.facts(t).ok().flatten())
            .map(|a| (*a).clone())
            .unwrap_or_default();
        for (label, k) in [("all", Knowledge::All), ("gen", Knowledge::WithoutObserved)] {
            let fs = classify_with(&r, &p["live"], &facts, &ctx, k);
            let mut line = String::new();
            for f in fs
                .iter()
                .filter(|f| f.tier.is_drift() || format!("{:?}", f.tier) == "Unresolved")
            {
                line += &format!(
                    " [{:?} {} live={}]",
                    f.tier,
                    f.path,
                    serde_json::to_string(&f.actual)
                        .unwrap_or_default()
                        .chars()
                        .take(80)
                        .collect::<String>()
                );
            }
            println!(
                "{} {} {}:{}",
                p.get("name").and_then(|v| v.as_str()).unwrap_or(t),
                label,
                t,
                if line.is_empty() {
                    " clean".into()
                } else {
                    line
                }
            );
        }
    }
}
