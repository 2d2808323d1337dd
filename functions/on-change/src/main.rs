//! realdrift Lambda function (on-change).

fn main() {}
