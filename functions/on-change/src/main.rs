//! The on-change function: SQS messages wrapping CloudTrail write events
//! -> re-read only the touched resources -> alert new drift with its cause.
//! Everything is built once per container; the handler borrows it.

use aws_lambda_events::event::sqs::{SqsBatchResponse, SqsEvent};
use lambda_runtime::{service_fn, Error, LambdaEvent};
use realdrift_lambda::{init_logging, set_custom_metrics, Config, Services};
use realdrift_on_change::{handle, Invocation, Watcher, REVERT_ROLE_VAR};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Error> {
    init_logging();
    let config = Config::from_env()?;
    set_custom_metrics(config.custom_metrics);
    let revert_role = std::env::var(REVERT_ROLE_VAR).ok();
    let watcher = Watcher::from_services(Services::build(config).await?, revert_role.as_deref())?;
    let watcher = &watcher;
    lambda_runtime::run(service_fn(move |event: LambdaEvent<SqsEvent>| async move {
        let inv = Invocation::from_context(&event.context);
        Ok::<SqsBatchResponse, Error>(handle(watcher, event.payload, &inv).await)
    }))
    .await
}
