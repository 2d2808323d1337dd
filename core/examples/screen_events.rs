//! Prints on-change's verdict on EventBridge events, for tests written in
//! other languages (tests/emulator/test_change_rules.py compares it with
//! what the synthesized EventBridge rules forward).
//!
//! stdin: a JSON array of EventBridge events. stdout: a JSON array, one entry
//! per event in order: `{"verdict": "accepted" | <drop reason> |
//! "parseError", "mapped": bool}`. `mapped`: the event table has an entry
//! for the event's source and bare name, whatever the verdict.
//!
//! `cargo run -q -p realdrift-core --example screen_events < events.json`

use realdrift_core::events::{event_from_value, Catalog, FilterConfig, Screener, Verdict};
use serde_json::{json, Value};
use std::io::Read;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input)?;
    let events: Vec<Value> = serde_json::from_str(&input)?;
    let catalog = Catalog::bundled()?;
    // No account, region or revert role configured: every account and
    // region passes, as in a deployment watching its own account.
    let screener = Screener::new(catalog, FilterConfig::new());
    let verdicts: Vec<Value> = events
        .into_iter()
        .map(|e| match event_from_value(e) {
            Err(_) => json!({"verdict": "parseError", "mapped": false}),
            Ok(event) => {
                let bare = catalog.facts.bare_name(event.record.name());
                let mapped = catalog.table.get(event.record.source(), bare).is_some();
                let verdict = match screener.assess(&event) {
                    Verdict::Accept(_) => "accepted",
                    Verdict::Drop(reason) => reason.as_str(),
                };
                json!({"verdict": verdict, "mapped": mapped})
            }
        })
        .collect();
    println!("{}", serde_json::to_string(&verdicts)?);
    Ok(())
}
