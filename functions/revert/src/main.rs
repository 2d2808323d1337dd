//! realdrift Lambda function (revert).

fn main() {}
