//! The golden corpus: case files, replay through classify, and agreement.

mod case;
mod compare;
mod holdout;
mod replay;

pub use case::{CorpusCase, CorpusError, CorpusResource};
pub use compare::{compare_findings, Agreement, Key};
pub use holdout::{stack_of, HoldOut};
pub use replay::{
    case_files, context_from_opts, replay_case, replay_case_in, replay_case_with, replay_dir,
    replay_dir_with, resource_from_case, CaseOutcome,
};
