//! Revert planning (pure): a stack's checked findings -> a [`RevertPlan`] of
//! revertable items, each with the writer and RFC 6902 patch (or service
//! writer calls, or a delete) that applies it, and refused findings, each
//! with a typed reason. The plan has a canonical JSON form and a SHA-256
//! digest, so a dry run can be confirmed and re-checked before an apply.
//! Applying a plan goes through a [`RevertWriter`]; the touched resources
//! are then re-read and re-checked, and each item gets a verdict
//! ([`apply_and_verify`]). docs/revert.md describes the rules.

mod address;
mod apply;
mod batch;
mod conflicts;
mod converge;
mod digest;
mod guards;
mod input;
mod model;
mod outcome;
mod plan;
mod reinclude;
mod render;
mod rules;
mod run;
mod tags;
mod target;
mod verify;
mod writers;

pub use apply::{apply_plan, batch_token, RevertWriter, DEFAULT_WRITE_CONCURRENCY};
pub use batch::{Batch, BatchAction};
pub use converge::convergence;
pub use digest::{canonical_json, digest_view, plan_digest};
pub use input::{PlanInput, PlanOptions, RevertResource};
pub use model::{
    IamPrincipal, ItemKind, Operation, PlanItem, PrincipalKind, Refusal, RefusalReason,
    Reinclusion, ResourceIdentity, RevertPlan, ServiceOp, Writer, PLAN_VERSION,
};
pub use outcome::{ItemResult, ItemStatus, RevertOutcome, WriteError, WriteOutcome};
pub use plan::{build_plan, item_id};
pub use render::{render_plan, PlanTextOptions};
pub use rules::{revert_facts, RevertFacts};
pub use run::{apply_and_verify, ApplySettings, Checked, RevertIo};
pub use verify::{reread_touched, Pause, Reread, Rereader};
