//! The hub function: findings-bus events from its SQS queue are delivered
//! to the hub's topic and Slack with the account's name; the schedule's
//! `{"realdrift": "summary"}` writes and announces the Organization view.
//! Everything is built once per container; the handler borrows it.

use lambda_runtime::{service_fn, Error, LambdaEvent};
use realdrift_hub::{handle, Hub};
use realdrift_lambda::{init_logging, Config};
use serde_json::Value;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Error> {
    init_logging();
    let hub = Hub::build(Config::from_env()?).await?;
    let hub = &hub;
    lambda_runtime::run(service_fn(move |event: LambdaEvent<Value>| async move {
        handle(hub, event.payload)
            .await
            .map_err(|e| Error::from(format!("{e:#}")))
    }))
    .await
}
