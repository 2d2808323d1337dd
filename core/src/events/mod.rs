//! CloudTrail events for the on-change function, pure: parse the
//! EventBridge event, drop what is not a change to watch (with a reason),
//! map the API call to the resources it touched, find them in the resource
//! index, and coalesce a batch into one re-read per resource with all its
//! causes.
//!
//! Facts live in data: `core/data/cloudtrail-events.json` (which API touches
//! what), `core/data/resource-identifiers.json` (identifier forms per type),
//! `core/data/cloudtrail-facts.json` (record facts). See
//! `docs/on-change-events.md`.
//!
//! ```text
//! bytes --parse_event--> CloudTrailEvent --Screener::assess--> Verdict
//!   Accept(Accepted{cause, touch}) --coalesce(batch, index views)--> Coalesced
//! ```

mod catalog;
mod cause;
mod coalesce;
mod extract;
mod facts;
mod filter;
mod identity;
mod index;
mod parse;
mod providers;
mod record;
mod table;
mod view;

pub use catalog::{Catalog, CatalogError};
pub use cause::{Actor, Cause, Deployer, Issuer, ProviderRef};
pub use coalesce::{coalesce, latest_first, Coalesced, ResourceRef, TouchedResource};
pub use extract::{ChildSelector, Target, Touch, MAX_VALUES_PER_POINTER};
pub use facts::{CustomResourceFacts, DeployerKind, Facts};
pub use filter::{Accepted, DropReason, FilterConfig, RoleArnError, Screener, Verdict};
pub use identity::{Identities, Matched, ParentRule, ResourceKey, TypeRules};
pub use index::{
    object_key, IndexError, IndexInput, IndexRow, ParentRef, ResourceIndex, INDEX_SCHEMA_VERSION,
};
pub use parse::{
    event_from_value, parse_event, parse_record, CloudTrailEvent, ParseError, MAX_EVENT_BYTES,
};
pub use providers::{provider_rows, ProviderInput, ProviderRow};
pub use record::{CloudTrailRecord, Envelope, ResourceEntry, SessionIssuer, UserIdentity};
pub use table::{EventEntry, EventTable, IdentifierSpec, Origin, ResolveMode, ValueSpec};
pub use view::{Hit, HitRole, IndexView};
