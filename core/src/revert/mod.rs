//! Revert planning (pure): a stack's checked findings -> a [`RevertPlan`] of
//! revertable items, each with the writer and RFC 6902 patch (or service
//! writer calls, or a delete) that applies it, and refused findings, each
//! with a typed reason. The plan has a canonical JSON form and a SHA-256
//! digest, so a dry run can be confirmed and re-checked before an apply.
//! docs/revert.md describes the rules.

mod address;
mod batch;
mod conflicts;
mod digest;
mod guards;
mod input;
mod model;
mod plan;
mod reinclude;
mod render;
mod rules;
mod tags;
mod target;
mod writers;

pub use batch::{Batch, BatchAction};
pub use digest::{canonical_json, digest_view, plan_digest};
pub use input::{PlanInput, PlanOptions, RevertResource};
pub use model::{
    IamPrincipal, ItemKind, Operation, PlanItem, PrincipalKind, Refusal, RefusalReason,
    Reinclusion, ResourceIdentity, RevertPlan, ServiceOp, Writer, PLAN_VERSION,
};
pub use plan::{build_plan, item_id};
pub use render::{render_plan, PlanTextOptions};
pub use rules::{revert_facts, RevertFacts};
