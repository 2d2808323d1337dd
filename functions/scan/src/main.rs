//! The scan function: the scheduled event dispatches one SQS message per
//! stack in scope, the queue's messages scan one stack each, a direct
//! invoke `{"stacks": [...]}` scans those and returns the findings.
//! Everything is built once per container; the handler borrows it.

use lambda_runtime::{service_fn, Error, LambdaEvent};
use realdrift_lambda::{init_logging, set_custom_metrics, Config, Services};
use realdrift_scan::{handle, Invocation, Scanner};
use serde_json::Value;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Error> {
    init_logging();
    let config = Config::from_env()?;
    set_custom_metrics(config.custom_metrics);
    let scanner = Scanner::from_services(Services::build(config).await?)?;
    let scanner = &scanner;
    lambda_runtime::run(service_fn(move |event: LambdaEvent<Value>| async move {
        let inv = Invocation::from_context(&event.context);
        handle(scanner, event.payload, &inv)
            .await
            .map_err(|e| Error::from(format!("{e:#}")))
    }))
    .await
}
