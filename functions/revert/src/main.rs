//! realdrift Lambda function (revert): JSON logs, the state built once per
//! container, then the handler over every invoke.

use lambda_runtime::{service_fn, Context, Error, LambdaEvent};
use realdrift_fn_revert::{handle, Config, Invocation, RevertRequest, State};
use serde_json::{json, Value};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tracing_subscriber::EnvFilter;

/// Kept back from the function's deadline for the re-read and the notice.
const MARGIN: Duration = Duration::from_secs(60);

#[tokio::main]
async fn main() -> Result<(), Error> {
    tracing_subscriber::fmt()
        .json()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .with_current_span(false)
        .init();
    let config = Config::from_env()?;
    let state = State::from_config(&config).await?;
    let state = &state;
    lambda_runtime::run(service_fn(
        move |event: LambdaEvent<RevertRequest>| async move {
            let inv = invocation(&event.context);
            Ok::<_, Error>(handle(state, event.payload, &inv).await)
        },
    ))
    .await
}

/// The request id, the caller identity the context carries, and the time left.
fn invocation(ctx: &Context) -> Invocation {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0);
    let left = Duration::from_millis(ctx.deadline.saturating_sub(now));
    let mut by = serde_json::Map::new();
    if let Some(id) = &ctx.identity {
        by.insert(
            "cognitoIdentity".into(),
            json!({"identityId": id.identity_id, "identityPoolId": id.identity_pool_id}),
        );
    }
    if let Some(cc) = &ctx.client_context {
        // Set by the caller: reported as stated, not as verified identity.
        by.insert(
            "clientContext".into(),
            json!({"custom": cc.custom, "clientInstallationId": cc.client.installation_id}),
        );
    }
    Invocation {
        request_id: ctx.request_id.clone(),
        invoked_by: (!by.is_empty()).then_some(Value::Object(by)),
        budget: left.saturating_sub(MARGIN).max(Duration::from_secs(5)),
    }
}
