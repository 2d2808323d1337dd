//! What one check of a stack (or of some of its resources) saw, in the form
//! transitions are computed from.

use super::state::{ListStatus, ReadStatus, ValueKey};
use super::storm::StormPolicy;
use crate::baseline::{ChildScan, ReadState, StackIdentity};
use crate::finding::{Finding, Tier};
use crate::pipeline::GatheredStack;
use crate::report::StackReport;
use std::collections::{BTreeMap, BTreeSet};

/// Which resources an observation speaks for.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Scope {
    /// The whole stack (a scan): what is not seen is gone from the template.
    #[default]
    Stack,
    /// Only these logical ids (an on-change re-read) and the children
    /// enumerated under them; everything else in the state is kept as is.
    Resources(BTreeSet<String>),
}

/// One template resource as the check saw it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SeenResource {
    /// Resource type.
    pub resource_type: String,
    /// Physical id, when known.
    pub physical_id: Option<String>,
    /// The read outcome.
    pub read: ReadStatus,
    /// The child listing outcome.
    pub children: ListStatus,
    /// No reader can read the type and no accept rule accepts it: lost
    /// coverage from the first check on (not a failure streak).
    pub unreadable: bool,
}

/// A checked stack, as transitions read it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Observation {
    /// Stack, account, region.
    pub identity: StackIdentity,
    /// Hex SHA-256 of the deployed template.
    pub template_hash: String,
    /// Findings after baseline and ignore rules, masked.
    pub findings: Vec<Finding>,
    /// Every undeclared or added value classify saw, before the baseline and
    /// ignore rules (a value missing here is gone; one present here but
    /// not potential drift is covered by a baseline entry or an ignore rule).
    pub raw_values: BTreeSet<ValueKey>,
    /// The template resources observed, by logical id.
    pub resources: BTreeMap<String, SeenResource>,
    /// Added child logical id -> the declared parent it was listed under.
    pub added_parents: BTreeMap<String, String>,
    /// What the observation covers.
    pub scope: Scope,
    /// When the read started, in milliseconds since the Unix epoch (`None`:
    /// unknown, so never newer than a read the state holds).
    pub read_started_ms: Option<u64>,
    /// Resources in scope whose state holds a newer read than this one:
    /// the observation does not speak for them (set by
    /// [`super::advance`], so an older read never replaces a newer one).
    pub superseded: BTreeSet<String>,
    /// Consecutive failed reads of a resource that was read before, after
    /// which coverage is announced lost (`None`: [`DEFAULT_LOST_AFTER`]).
    pub lost_after: Option<u32>,
    /// The stack's status when it was not settled (in progress or failed):
    /// nothing of it was read.
    pub not_settled: Option<String>,
    /// The suppression window of flapping values in milliseconds (`None`:
    /// [`super::flap::DEFAULT_FLAP_WINDOW_MS`]; 0: off).
    pub flap_window_ms: Option<u64>,
    /// The storm knobs (`None`: [`StormPolicy::default`]).
    pub storm: Option<StormPolicy>,
}

/// Consecutive failed reads before coverage is announced lost: one failure
/// (throttling that outlasted the retries) is not yet a loss.
pub const DEFAULT_LOST_AFTER: u32 = 2;

impl From<ReadState> for ReadStatus {
    fn from(r: ReadState) -> Self {
        match r {
            ReadState::Read => ReadStatus::Read,
            ReadState::NotRead => ReadStatus::NotRead,
            ReadState::Deleted => ReadStatus::Deleted,
        }
    }
}

impl From<ChildScan> for ListStatus {
    fn from(c: ChildScan) -> Self {
        match c {
            ChildScan::None => ListStatus::None,
            ChildScan::Complete => ListStatus::Complete,
            ChildScan::Failed => ListStatus::Failed,
        }
    }
}

/// True for the tiers observation memory keeps values of.
pub fn is_value_tier(tier: Tier) -> bool {
    matches!(tier, Tier::Undeclared | Tier::Added)
}

impl Observation {
    /// The observation of a whole stack: what gathering saw and what the
    /// check path reported for it (its findings are masked here).
    pub fn of_stack(g: &GatheredStack, report: &StackReport) -> Self {
        let unreadable: BTreeSet<&str> = report
            .not_compared
            .iter()
            .filter(|n| n.is_unaccepted_unreadable())
            .map(|n| n.logical_id.as_str())
            .collect();
        Observation {
            identity: g.run_context().identity,
            template_hash: g.template_hash.clone(),
            findings: report.masked_findings(),
            raw_values: g
                .findings
                .iter()
                .filter(|f| is_value_tier(f.tier))
                .map(|f| (f.logical_id.clone(), f.path.clone()))
                .collect(),
            resources: g
                .resources
                .iter()
                .map(|r| {
                    let seen = SeenResource {
                        resource_type: r.resource_type.clone(),
                        physical_id: r.physical_id.clone(),
                        read: r.read.into(),
                        children: r.children.into(),
                        unreadable: unreadable.contains(r.logical_id.as_str()),
                    };
                    (r.logical_id.clone(), seen)
                })
                .collect(),
            added_parents: g.added_parents.clone(),
            scope: Scope::Stack,
            ..Observation::default()
        }
    }

    /// A stack that is not settled (`status`): reported not checked.
    pub fn of_unsettled(identity: StackIdentity, status: &str) -> Self {
        Observation {
            identity,
            not_settled: Some(status.to_string()),
            ..Observation::default()
        }
    }

    /// The same observation, read from `started_ms` on.
    pub fn read_at(mut self, started_ms: u64) -> Self {
        self.read_started_ms = Some(started_ms);
        self
    }

    /// The same observation, announcing coverage lost after `n` consecutive
    /// failed reads (at least one).
    pub fn losing_coverage_after(mut self, n: u32) -> Self {
        self.lost_after = Some(n.max(1));
        self
    }

    /// The same observation, holding back flapping values for `ms`
    /// milliseconds (0: every transition is announced).
    pub fn holding_flaps_for(mut self, ms: u64) -> Self {
        self.flap_window_ms = Some(ms);
        self
    }

    /// The suppression window of flapping values.
    pub fn flap_window(&self) -> u64 {
        self.flap_window_ms
            .unwrap_or(super::flap::DEFAULT_FLAP_WINDOW_MS)
    }

    /// The same observation, with the storm knobs `policy`.
    pub fn holding_storms(mut self, policy: StormPolicy) -> Self {
        self.storm = Some(policy);
        self
    }

    /// The storm knobs.
    pub fn storm_policy(&self) -> StormPolicy {
        self.storm.unwrap_or_default()
    }

    /// Consecutive failed reads that make a loss.
    pub fn lost_after(&self) -> u32 {
        self.lost_after.unwrap_or(DEFAULT_LOST_AFTER).max(1)
    }

    /// The same observation limited to `logical_ids` (and their children).
    pub fn limited_to(mut self, logical_ids: BTreeSet<String>) -> Self {
        self.scope = Scope::Resources(logical_ids);
        self
    }

    /// The declared resource a finding or value belongs to: its own logical
    /// id, or an added child's parent.
    pub fn owner<'a>(&'a self, logical_id: &'a str, parent: Option<&'a str>) -> &'a str {
        self.added_parents
            .get(logical_id)
            .map(String::as_str)
            .or(parent)
            .unwrap_or(logical_id)
    }

    /// The findings of the resources in scope.
    pub fn in_scope(&self) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .filter(|f| self.covers(self.owner(&f.logical_id, None)))
    }

    /// True when the observation covers the whole stack.
    pub fn covers_all(&self) -> bool {
        matches!(self.scope, Scope::Stack)
    }

    /// True when the observation speaks for this declared resource.
    pub fn covers(&self, owner: &str) -> bool {
        let in_scope = match &self.scope {
            Scope::Stack => true,
            Scope::Resources(ids) => ids.contains(owner),
        };
        in_scope && !self.superseded.contains(owner)
    }

    /// True when a read the state holds, started at `held_ms`, is newer
    /// than this one (an unknown start is never newer than a known one).
    pub fn is_older_than(&self, held_ms: Option<u64>) -> bool {
        match (self.read_started_ms, held_ms) {
            (_, None) => false,
            (None, Some(_)) => true,
            (Some(mine), Some(held)) => mine < held,
        }
    }

    /// True when what the state says about something of `owner` (`added`
    /// when it is an out-of-band child) can be settled by this
    /// observation: the owner is gone from the template (whole-stack scope),
    /// or its state — its read, or its child listing — is known.
    pub fn settles(&self, owner: &str, added: bool) -> bool {
        if !self.covers(owner) {
            return false;
        }
        match self.resources.get(owner) {
            None => matches!(self.scope, Scope::Stack),
            Some(r) if added => r.children == ListStatus::Complete,
            Some(r) => r.read.is_known(),
        }
    }

    /// True when a value of `owner` was read this time, so its absence
    /// means it is gone (not merely unseen).
    pub fn value_was_read(&self, owner: &str, added: bool) -> bool {
        match self.resources.get(owner) {
            Some(r) if added => r.children == ListStatus::Complete,
            Some(r) => r.read == ReadStatus::Read,
            None => false,
        }
    }
}
