//! Continuous detection, pure except for the store and notifier traits:
//! the state file of each stack, observation memory, transitions between
//! two checks, the notices they become, and one update cycle (load,
//! compute, claim, deliver) that the scan and on-change functions share.
//!
//! ```text
//! GatheredStack + StackReport --Observation::of_stack--> Observation
//! previous StackState + Observation --advance--> Step { state, transitions }
//! Transitions + StackReport --notices--> [Notice]   (one per transition kind)
//! update_stack: load -> advance -> claim in a conditional write -> deliver -> release
//! ```

mod alert;
mod coverage;
mod cycle;
mod flap;
mod flush;
mod gone;
mod index;
mod inflight;
mod memory;
mod observe;
mod outbox;
mod state;
mod storm;
mod transition;
mod work;

pub use alert::{kinds, notices};
pub use coverage::{step as coverage_step, CoverageStep};
pub use cycle::{update_stack, Channels, Claimant, Update, UpdateError, DEFAULT_ATTEMPTS};
pub use flap::{hold_flaps, Flap, Held, DEFAULT_FLAP_WINDOW_MS};
pub use flush::{flush_delay_seconds, FlushMessage, FlushQueue, FLUSH_KIND, MAX_DELAY_SECONDS};
pub use gone::{
    forget_stack, prune_index, prune_indexes, stacks_with_state, state_files_of, GoneError,
    GONE_NOTE,
};
pub use index::{
    index_inputs, index_providers, replace_stack, update_index, IndexUpdateError, StackRows,
};
pub use inflight::{
    clear_in_flight, inflight_key, is_in_flight, mark_in_flight, InFlight, INFLIGHT_PREFIX,
};
pub use memory::{recall, Recall};
pub use observe::{is_value_tier, Observation, Scope, SeenResource, DEFAULT_LOST_AFTER};
pub use outbox::{split_expired, OutboxEntry, MAX_OPTIONAL_OWED};
pub use state::{
    state_key, DriftEntry, DriftKey, ListStatus, ObservedValue, ReadStatus, ResourceCoverage,
    StackState, StateError, ValueKey, STATE_PREFIX, STATE_VERSION,
};
pub use storm::{
    hold_storms, HeldChange, OpenStorm, Storm, StormPolicy, Tick, DEFAULT_STORM_THRESHOLD,
    DEFAULT_STORM_WINDOW_MS,
};
pub use transition::{advance, Step, Transitions};
pub use work::{MalformedMessage, WorkMessage, WorkQueue, MAX_BATCH};
