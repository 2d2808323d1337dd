//! Reports: text for terminals, JSON, Slack Block Kit and SNS, plus exit codes.
//!
//! Every renderer reads a [`StackReport`], masks secrets first and treats
//! all identifiers and values as untrusted text.

mod asff;
mod burst;
mod change_diff;
mod email;
mod exit;
mod group;
mod hub_alert;
mod json;
mod mask;
mod model;
mod not_compared;
mod org_render;
mod org_status;
mod org_store;
mod org_view;
mod sanitize;
mod slack;
mod sns;
mod sweep;
mod text;
mod type_coverage;

pub use asff::{
    asff_findings, asff_id, asff_product_arn, asff_timestamp, ASFF_GENERATOR, ASFF_MAX_ID,
    ASFF_SCHEMA_VERSION,
};
pub use burst::Burst;
pub use change_diff::{change_lines, MAX_DIFF_LINES};
pub use email::{render_email_text, MAX_TEXT_FINDINGS};
pub use exit::{exit_code, ExitCode, ExitFlags, RunFacts};
pub use group::{resource_names, resources_line, resources_value, MAX_LISTED};
pub use hub_alert::{
    hub_notice, hub_slack_digest, parse_transition, HubTransition, NotATransition,
};
pub use json::{json_value, render_json, JSON_SCHEMA};
pub use mask::{is_secret_marker, mask_finding, mask_findings, MaskPolicy, MASK};
pub use model::{
    is_confirmed_drift, is_potential_drift, Coverage, NotChecked, StackReport, Summary, Verdict,
};
pub use not_compared::{coverage_sentence, NotCompared, NotComparedReason, MAX_NAMED};
pub use org_render::{html_escape, render_org_headline, render_org_html, render_org_text};
pub use org_status::{
    actor_name, parse_status, stack_status, status_key, NotComparedEntry, StackStatus, StatusError,
    ORG_PREFIX, ORG_STATUS_SCHEMA,
};
pub use org_store::{forget_status, read_statuses, write_status};
pub use org_view::{iso_time, OldestDrift, OrgView, StatusEntry, MAX_ACTORS, ORG_REPORT_SCHEMA};
pub use sanitize::{
    escape_identifier, escape_json_text, is_arrow, is_terminal_safe, is_unsafe_char, needs_quoting,
    render_value, sanitize_identifier, MAX_IDENTIFIER_CHARS,
};
pub use slack::{
    fit, render_slack, render_slack_storm, render_slack_transition, slack_escape, MAX_BLOCKS,
    MAX_FALLBACK_TEXT, MAX_HEADER_TEXT, MAX_SECTION_TEXT,
};
pub use sns::{
    render_chatbot, render_sns, render_storm, render_transition, sns_document, sns_envelope,
    sns_subject, transition_document, SnsKind, SnsMessage, JSON_PROTOCOLS, MAX_MESSAGE_BYTES,
    MAX_SUBJECT_CHARS,
};
pub use sweep::{
    render_sweep_text, sweep_exit_code, sweep_json_value, SweepOutcome, SweepSection,
    SWEEP_JSON_SCHEMA,
};
pub use text::{render_stack, render_text, use_color, verdict_text, TextOptions};
pub use type_coverage::{
    render_type_coverage, type_coverage, type_coverage_json, ReadRoute, TypeCoverage, TypeResource,
};
